"""irtables equals the real trec_eval 9.0.8 and 10 binaries, each under its own option.

The binaries are built from ../shared/tools (``trec_eval_binaries`` fixture); the cases and
the comparison are in :mod:`tests.acceptance.binary_parity`, whose ``__main__`` prints the
same tallies for the closing note.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from irtables.cli import main
from tests.acceptance.binary_parity import (
    VERSIONS,
    Options,
    fixture_cases,
    near_tie_cases,
    tally_cases,
    write_near_tie_run,
)
from tests.conftest import require_fixtures
from tests.trec_eval_binary import parse_output, run_trec_eval


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("parity")


@pytest.mark.parametrize("version", VERSIONS)
def test_every_fixture_matches_the_binary(
    version: str, trec_eval_binaries: dict[str, Path], workdir: Path
) -> None:
    fixtures = require_fixtures()
    cases = fixture_cases(workdir / "fixtures", fixtures)
    assert len(cases) >= 90  # 20 (qrels, run) pairs under their manifests' option sets
    tally = tally_cases(cases, trec_eval_binaries, version)
    assert tally.cases >= 80 and tally.compared >= 300_000
    # only trec_eval 10 refuses, and only without -c when a judged query is missing
    assert tally.refused == (0 if version == "9.0.8" else 11)
    assert tally.mismatches == 0, "\n".join(tally.examples)


@pytest.mark.parametrize("version", VERSIONS)
def test_near_tie_runs_match_the_binary(
    version: str, trec_eval_binaries: dict[str, Path], workdir: Path
) -> None:
    cases = near_tie_cases(workdir)
    tally = tally_cases(cases, trec_eval_binaries, version)
    assert tally.cases >= 28 and tally.compared >= 25_000
    assert tally.mismatches == 0, "\n".join(tally.examples)


@pytest.mark.parametrize(("binary", "semantics"), [("9.0.8", "10"), ("10", "9.0.8")])
def test_near_tie_runs_tell_the_versions_apart(
    binary: str, semantics: str, trec_eval_binaries: dict[str, Path], workdir: Path
) -> None:
    """The other version's semantics disagree on ranking measures: the runs do test ties."""
    cases = [c for c in near_tie_cases(workdir, range(2)) if c.options == Options()]
    tally = tally_cases(cases, trec_eval_binaries, binary, semantics)
    ranking = [e for e in tally.examples if re.search(r"\] (map|ndcg_cut_\d+|P_\d+) ", e)]
    assert ranking, "near-tie runs gave the same ranking measures in both versions"


def test_cli_option_prints_what_the_binary_prints(
    trec_eval_binaries: dict[str, Path], tmp_path: Path
) -> None:
    """``irtables evaluate --trec-eval V --format trec_eval -q -c``: every line of the binary's
    output for the same measures, and no other (9.0.8 hides -c lines, 10 prints them)."""
    qrels, run = write_near_tie_run(tmp_path, 2)  # judged queries missing from the run
    measures = ["num_q", "map", "P.10", "ndcg_cut.10", "num_rel", "iprec_at_recall"]
    ours_names = ["map", "P_10", "ndcg_cut_10", "num_rel", "iprec_at_recall_0.50"]
    for version in VERSIONS:
        args = ["-q", "-c", "-l", "2"] + [a for m in measures for a in ("-m", m)]
        done = run_trec_eval(trec_eval_binaries[version], [*args, str(qrels), str(run)])
        assert done.returncode == 0, done.stderr
        expected = {
            k: v for k, v in parse_output(done.stdout).items() if k[0] in {*ours_names, "num_q"}
        }
        result = CliRunner().invoke(
            main,
            ["evaluate", str(qrels), str(run), "-q", "-c", "-l", "2", "--format", "trec_eval"]
            + ["--trec-eval", version]
            + [a for m in ours_names for a in ("-m", m)],
        )
        assert result.exit_code == 0, result.output
        ours = {k: v for k, v in parse_output(result.stdout).items() if k[0] != "runid"}
        assert ours == expected
        assert ("runid", "all") in parse_output(result.stdout)
        missing = {q for (n, q) in expected if n == "map"}
        assert ("q04" in missing) == (version == "10")


def test_runid_is_the_last_lines_tag(trec_eval_binaries: dict[str, Path], tmp_path: Path) -> None:
    qrels, run = write_near_tie_run(tmp_path, 0)
    lines = run.read_text().splitlines()
    first, last = lines[0].split()[5], lines[-1].split()[5]
    assert first != last  # the tag changes between topics
    for version in VERSIONS:
        done = run_trec_eval(trec_eval_binaries[version], ["-m", "runid", str(qrels), str(run)])
        assert parse_output(done.stdout)[("runid", "all")] == last
        result = CliRunner().invoke(
            main, ["evaluate", str(qrels), str(run), "-m", "map", "--format", "trec_eval"]
        )
        assert parse_output(result.stdout)[("runid", "all")] == last
