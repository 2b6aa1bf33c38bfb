"""The test and correction records are the one source of their facts."""

from __future__ import annotations

import subprocess
import sys

from irtables.base.procedures import CORRECTIONS, TESTS, correction_phrase
from irtables.stats import ALL_PAIRS_TESTS
from irtables.stats import CORRECTIONS as CORRECTION_FUNCTIONS
from irtables.stats import TESTS as PAIRED
from irtables.supplement.bibliography import cited


def test_every_registered_test_has_a_record_whose_function_is_the_registered_one() -> None:
    registered = {**PAIRED, **ALL_PAIRS_TESTS}
    assert tuple(registered) == tuple(TESTS)
    for name, record in TESTS.items():
        assert record.load() is registered[name]
        assert record.method.endswith((". ", ".")) and record.label and record.description
        assert bool(record.constant) != bool(record.spread)  # one says what a constant gives
        assert record.constant.count("$") % 2 == 0
        assert (record.batched != "") == (name in ("t", "randomization", "bootstrap"))
    for name, correction in CORRECTIONS.items():
        assert correction.load() is CORRECTION_FUNCTIONS[name]
    assert tuple(CORRECTIONS) == tuple(CORRECTION_FUNCTIONS)
    resampled = tuple(r.id for r in TESTS.values() if r.resampled)
    assert resampled == ("randomization", "bootstrap", "randomized-tukey")


def test_captions_and_bibliography_read_the_records() -> None:
    keys = [k for r in (*TESTS.values(), *CORRECTIONS.values()) for k in r.cites]
    assert {r.key for r in cited(keys)} == set(keys)  # every cited key is in the bibliography
    assert correction_phrase("dunnett") == TESTS["dunnett"].controls


def test_reading_the_records_imports_no_numpy() -> None:
    code = (
        "import sys, irtables.base.names, irtables.base.procedures; "
        "print('numpy' in sys.modules, 'scipy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
