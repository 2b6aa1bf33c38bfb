"""Leaf modules that every layer may import, and that import no other part of irtables but
:mod:`irtables.errors` and the version:

- :mod:`.filenames` how names become file names; :mod:`.paths` the checks of relative
  paths; :mod:`.record` the record of what irtables wrote in a folder (the writers keep
  it, discovery skips what it lists); :mod:`.header` the first line of generated files;
  :mod:`.labels` the characters a LaTeX label may hold;
- :mod:`.numbers` strict parsing of numbers from text; :mod:`.arrow` Arrow arrays to
  numpy without pyarrow's pandas bridge;
- :mod:`.names` the names of the statistics registries (the command line's choices, the
  configuration's checks) without loading the statistics;
- :mod:`.lazy` lazy package attributes; :mod:`.executor` where units of work run (in
  process, on every core, or on any ``concurrent.futures`` executor).
"""
