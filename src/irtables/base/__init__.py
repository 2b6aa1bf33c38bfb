"""Leaf modules that every layer may import, and that import no other part of irtables but
:mod:`irtables.errors`: how names become file names (:mod:`.filenames`), the checks of
relative paths (:mod:`.paths`), strict parsing of numbers from text (:mod:`.numbers`), the
first line of generated files (:mod:`.header`) and the record of what irtables wrote in a
folder (:mod:`.record`), which the writers keep and discovery skips."""
