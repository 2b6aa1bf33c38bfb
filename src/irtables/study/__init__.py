"""A study as the commands see it: its configuration and results resolved from a folder
(per-query dumps, or qrels + runs evaluated on the way), and the ``irtables tables`` job."""

from irtables.study.load import Study, load_study

__all__ = ["Study", "load_study"]
