"""repro_eval 0.5.0's defaults for reproduction studies, shared by the measures, the
configuration and the command line (a module without imports: reading a configuration
or the command line's options imports no numerical code)."""

from __future__ import annotations

#: Cutoffs of KTU and RBO (repro_eval's examples and Breuer et al., SIGIR 2020).
DEFAULT_CUTOFFS: tuple[int, ...] = (5, 10, 20, 50, 100, 1000)
#: repro_eval's ``RBO_P`` and ``RBO_DEPTH``.
RBO_P = 0.95
RBO_DEPTH = 1000
#: The measures of a reproduction table when none is given.
DEFAULT_MEASURES: tuple[str, ...] = ("AP", "nDCG@10", "P@10")
