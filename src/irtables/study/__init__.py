"""A study as the commands see it: its configuration and results resolved from a folder
(per-query dumps, or qrels + runs evaluated on the way), and the ``irtables tables`` job."""

from irtables.study.load import Study, load_study, open_study
from irtables.study.request import StudyRequest

__all__ = ["Study", "StudyRequest", "load_study", "open_study"]
