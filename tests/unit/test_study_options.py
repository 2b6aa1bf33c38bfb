"""The study options are declared once and read once (issue 31 §4): one decorator gives
every study command its options, they make one request, the same request
``load_study`` makes of the same keyword arguments, checked by one check.

Expected values come from the options as written in this file and from hand-made
studies, never from the decorator under test alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

import irtables.study
from irtables import load_study
from irtables.cli import main
from irtables.cli.study_options import STUDY_OPTIONS, StudyOption, request_of
from irtables.errors import InputError, UnknownNameError
from irtables.study import Study, StudyRequest
from irtables.study.request import study_request

HEAD = "query\tmetric\tvalue\n"
BM25 = HEAD + "1\tAP\t0.2\n2\tAP\t0.4\n3\tAP\t0.3\n"
DENSE = HEAD + "1\tAP\t0.5\n2\tAP\t0.6\n3\tAP\t0.7\n"

#: The study options as the commands took them before they were bundled:
#: (flags, keyword argument), per request field.
NINE = {
    "config": (["--config"], "config_path"),
    "input_format": (["--input-format"], "input_format"),
    "missing": (["--missing"], "missing"),
    "jobs": (["-j", "--jobs"], "jobs"),
    "scheduler": (["--scheduler"], "scheduler"),
    "cache": (["--no-cache"], "no_cache"),
    "baselines": (["--baseline"], "baselines"),
    "templates": (["--templates"], "template_dir"),
    "force": (["--force"], "force"),
}
#: What each study command takes of them.
STUDY_COMMANDS = {
    "tables": set(NINE),
    "compare": set(NINE) - {"templates"},
    "lint": {"config", "input_format", "jobs", "cache"},
    "diff": {"input_format", "missing", "force", "jobs", "scheduler", "cache"},
    "supplement": {"config", "templates", "force", "jobs", "scheduler", "cache"},
}


def _dumps(root: Path) -> Path:
    (root / "dl19").mkdir(parents=True)
    (root / "dl19" / "bm25.tsv").write_text(BM25)
    (root / "dl19" / "dense.tsv").write_text(DENSE)
    (root / "irtables.toml").write_text('[compare]\nbaseline = "bm25"\n')
    return root


def _spec(option: click.Option) -> dict[str, Any]:
    """What the user sees of an option, its help aside (``--baseline`` says what it does
    in each command)."""
    info = option.to_info_dict()
    info.pop("help")
    return info


def _canonical(field: str) -> click.Option:
    decls, settings = STUDY_OPTIONS[field]
    return click.Option(list(decls), **settings)


def test_the_nine_study_options_are_the_ones_the_commands_took() -> None:
    assert set(STUDY_OPTIONS) == set(NINE)
    for field, (flags, name) in NINE.items():
        option = _canonical(field)
        assert option.opts == flags, field
        assert option.name == name, field


@pytest.mark.parametrize("command", sorted(STUDY_COMMANDS))
def test_every_study_option_of_a_command_comes_from_the_one_declaration(command: str) -> None:
    params = {p.name: p for p in main.commands[command].params}
    found = set()
    for field, (_, name) in NINE.items():
        if name not in params:
            continue
        param = params[name]
        assert isinstance(param, StudyOption), f"{command} declares {name} itself"
        assert param.study_field == field
        assert _spec(param) == _spec(_canonical(field)), (command, field)
        if field != "baselines":
            assert param.help == _canonical(field).help, (command, field)
        found.add(field)
    assert found == STUDY_COMMANDS[command]


def test_other_commands_taking_a_study_option_share_its_declaration_too() -> None:
    seen = 0
    for command in main.commands.values():
        for param in command.params:
            names = {n for _, n in NINE.values()}
            if isinstance(param, click.Option) and param.name in names:
                assert isinstance(param, StudyOption), (command.name, param.name)
                seen += 1
    assert seen > sum(len(v) for v in STUDY_COMMANDS.values())  # check, cache, evaluate...


def _recorded(monkeypatch: pytest.MonkeyPatch) -> list[StudyRequest]:
    """The requests the commands open their studies with (the real opening goes on)."""
    seen: list[StudyRequest] = []
    real = irtables.study.open_study

    def recording(request: StudyRequest, **kwargs: Any) -> Study:
        seen.append(request)
        return real(request, **kwargs)

    monkeypatch.setattr(irtables.study, "open_study", recording)
    return seen


def test_the_request_of_the_options_is_the_one_load_study_makes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _dumps(tmp_path / "study")
    config = root / "irtables.toml"
    templates = tmp_path / "templates"
    templates.mkdir()
    seen = _recorded(monkeypatch)
    args = ["tables", str(root), "--config", str(config), "--input-format", "tidy"]
    args += ["--missing", "intersect", "-j", "1", "--no-cache", "--baseline", "dense"]
    args += ["--baseline", "dl19=bm25", "--templates", str(templates), "-o", str(tmp_path / "out")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    [request] = seen
    study = load_study(
        root,
        config=config,
        input_format="tidy",
        missing="intersect",
        jobs=1,
        cache=False,
        baseline=["dense", "dl19=bm25"],
        templates=templates,
    )
    assert request == study.request
    assert request == StudyRequest(
        root, config, "tidy", "intersect", 1, None, False, ("dense", "dl19=bm25"), templates
    )


def test_the_defaults_of_the_options_make_the_request_of_load_study_with_auto_jobs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # --jobs 0 (the default) is jobs=None: as many processes as the work pays for
    root = _dumps(tmp_path / "study")
    seen = _recorded(monkeypatch)
    result = CliRunner().invoke(main, ["compare", str(root), "--force"])
    assert result.exit_code == 0, result.output
    assert seen == [study_request(root, jobs=None, force=True)]
    assert load_study(root, jobs=None).request == study_request(root, jobs=None)


def test_baselines_of_the_request_are_applied_as_the_tables_apply_them(tmp_path: Path) -> None:
    root = _dumps(tmp_path / "study")
    # AP means: bm25 0.3, dense 0.6 (the files above)
    assert [round(r.mean_diff, 9) for r in load_study(root).compare().results] == [0.3]
    by_dense = load_study(root, baseline="dense").compare().results
    assert [round(r.mean_diff, 9) for r in by_dense] == [-0.3]


@pytest.mark.parametrize(
    ("keywords", "expected"),
    [
        ({"missing": "zer"}, "'zero'"),
        ({"input_format": "trec"}, "'trec_eval'"),
    ],
)
def test_the_api_and_the_options_are_checked_by_the_same_check(
    tmp_path: Path, keywords: dict[str, str], expected: str
) -> None:
    root = _dumps(tmp_path / "study")
    with pytest.raises(UnknownNameError) as api:
        load_study(root, **keywords)
    with pytest.raises(UnknownNameError) as cli:
        request_of(keywords, root)
    assert str(api.value) == str(cli.value)
    assert expected in str(api.value)


@pytest.mark.parametrize("jobs", [-1, 1.5, True])
def test_load_study_refuses_a_number_of_processes_below_zero(tmp_path: Path, jobs: Any) -> None:
    with pytest.raises(InputError, match="jobs"):
        load_study(_dumps(tmp_path / "study"), jobs=jobs)


def test_a_bad_option_value_is_one_error_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["lint", str(_dumps(tmp_path / "s")), "-j", "-1"])
    assert result.exit_code == 2
    assert "-j" in result.output and "Traceback" not in result.output


def test_compare_computes_its_settings_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # before: once for the progress bar's label, then again inside Study.compare
    root = _dumps(tmp_path / "study")
    calls = []
    real = Study.compare_settings

    def counting(self: Study, **kwargs: Any) -> Any:
        calls.append(kwargs)
        return real(self, **kwargs)

    monkeypatch.setattr(Study, "compare_settings", counting)
    result = CliRunner().invoke(main, ["compare", str(root), "--test", "sign"])
    assert result.exit_code == 0, result.output
    assert len(calls) == 1
    assert "sign" in result.output


def test_compare_refuses_settings_and_changes_together(tmp_path: Path) -> None:
    study = load_study(_dumps(tmp_path / "study"))
    with pytest.raises(TypeError):
        study.compare(settings=study.compare_settings(), test="t")


def test_a_templates_folder_of_the_request_comes_before_the_configured_one(
    tmp_path: Path,
) -> None:
    root = _dumps(tmp_path / "study")
    (root / "irtables.toml").write_text('[output]\ntemplates = "mine"\n')
    (root / "mine").mkdir()
    extra = tmp_path / "extra"
    extra.mkdir()
    assert load_study(root, templates=extra).template_dirs == [extra, root / "mine"]
    assert load_study(root).template_dirs == [root / "mine"]


def test_an_unknown_option_value_is_refused_naming_the_closest_choice(
    tmp_path: Path,
) -> None:
    root = _dumps(tmp_path / "study")
    result = CliRunner().invoke(main, ["tables", str(root), "--missing", "zer"])
    assert result.exit_code == 2
    assert "'zer'" in result.output and "'zero'" in result.output
    assert "Traceback" not in result.output
