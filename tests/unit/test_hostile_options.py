"""Hostile command-line options and ``load_study`` arguments found by the adversarial
sweep of issue 34: each is one ``Error:`` line naming the option or key, whatever the
study holds and whether or not the run has anything to do."""

from __future__ import annotations

from pathlib import Path

import pytest

from irtables.errors import InputError
from tests.conftest import assert_one_line_error, files_under, invoke, tidy_study


@pytest.mark.parametrize("command", ["tables", "compare", "supplement"])
def test_a_malformed_scheduler_is_refused_when_nothing_is_evaluated(
    tmp_path: Path, command: str
) -> None:
    # Per-query files: nothing goes to the cluster. The address was not checked, and a
    # typo passed with exit status 0 (the next study with runs then failed on it).
    results = tidy_study(tmp_path, ["dl"])
    before = files_under(tmp_path)
    result = invoke(command, str(results), "--scheduler", "tcp://")
    assert_one_line_error(result, "scheduler address 'tcp://': expected SCHEME://HOST:PORT")
    assert "Usage:" not in result.output  # one line, as when a client tries the address
    assert files_under(tmp_path) == before  # refused before anything is written


def test_a_malformed_scheduler_is_refused_on_an_unchanged_rerun(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["dl"])
    out = str(tmp_path / "o")
    assert invoke("tables", str(results), "-o", out).exit_code == 0
    # Nothing changed: the rerun printed "unchanged" and exit status 0.
    result = invoke("tables", str(results), "-o", out, "--scheduler", "garbage!!")
    assert_one_line_error(result, "scheduler address 'garbage!!'")


def test_load_study_refuses_a_malformed_scheduler(tmp_path: Path) -> None:
    from irtables import load_study

    results = tidy_study(tmp_path, ["dl"])
    with pytest.raises(InputError, match="scheduler address 'inproc://x'"):
        load_study(results, scheduler="inproc://x")


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"test": "ttest"}, "compare.test: expected one of t, wilcoxon"),
        ({"seed": -1, "test": "randomization"}, "compare.seed: expected a non-negative"),
        ({"alpha": "0.05"}, "compare.alpha: expected a number between 0 and 1"),
        ({"family": "everything"}, "compare.family: expected one of"),
    ],
    ids=["test", "seed", "alpha", "family"],
)
def test_study_compare_checks_its_settings_as_the_file_does(
    tmp_path: Path, change: dict[str, object], needle: str
) -> None:
    # KeyError 'ttest', numpy's ValueError without a name, a TypeError from a comparison.
    from irtables import load_study
    from irtables.errors import ConfigError

    study = load_study(tidy_study(tmp_path, ["dl"]))
    with pytest.raises(ConfigError, match=needle):
        study.compare(**change)


def test_load_study_refuses_a_templates_folder_that_is_not_there(tmp_path: Path) -> None:
    from irtables import load_study

    results = tidy_study(tmp_path, ["dl"])
    with pytest.raises(InputError, match=r"templates: '.*nowhere' is not a folder"):
        load_study(results, templates=tmp_path / "nowhere")


def test_a_configured_templates_folder_that_is_not_there_names_the_key(tmp_path: Path) -> None:
    # The built-in templates were used without a word.
    results = tidy_study(tmp_path, ["dl"])
    (results / "irtables.toml").write_text('[output]\ntemplates = "my-templats"\n')
    before = files_under(tmp_path)
    result = invoke("tables", str(results), "-o", str(tmp_path / "o"))
    assert_one_line_error(result, "irtables.toml: output.templates:", "my-templats")
    assert files_under(tmp_path) == before
