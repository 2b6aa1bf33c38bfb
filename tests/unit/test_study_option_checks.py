"""The options a study is read with: a bad value is one ``Error:`` naming it, and
``load_study`` refuses what the command line refuses, with the same message (issue 34 §2).

Before: ``seed = -1`` in a compare section was an internal error naming no key;
``load_study`` read an ``irtables.toml`` that is a folder or a FIFO as no configuration
(and hung on a FIFO given as ``config``), and took ``missing='nope'`` and ``jobs=-1``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from irtables import load_study
from irtables.errors import IrtablesError
from tests.conftest import REPO, assert_one_line_error, invoke

ROWS = "dataset,system,query,metric,value\n" + "".join(
    f"d,{s},q{q},AP,{0.1 * q + (0.05 if s == 'b' else 0):.2f}\n" for s in "ab" for q in (1, 2, 3)
)


def _study(root: Path, config: str | None = None) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "all.csv").write_text(ROWS)
    if config is not None:
        (root / "irtables.toml").write_text(config)
    return root


@pytest.mark.parametrize(
    ("config", "key"),
    [
        ('[compare]\nbaseline = "a"\ntest = "bootstrap"\nseed = -1\n', "compare.seed"),
        (
            '[compare]\nbaseline = "a"\ntest = "bootstrap"\n[tables.main.compare]\nseed = -1\n',
            "tables.main.compare.seed",
        ),
    ],
    ids=["compare", "table"],
)
def test_a_negative_seed_is_one_error_naming_the_key(tmp_path: Path, config: str, key: str) -> None:
    root = _study(tmp_path / "r", config)
    result = invoke("tables", str(root), "-o", str(tmp_path / "out"))
    assert_one_line_error(result, f"{key}: expected a non-negative integer, got -1")
    assert not (tmp_path / "out").exists()


def test_a_negative_seed_option_is_refused_by_the_command_line(tmp_path: Path) -> None:
    root = _study(tmp_path / "r", '[compare]\nbaseline = "a"\ntest = "bootstrap"\n')
    result = invoke("compare", str(root), "--seed", "-1")
    assert result.exit_code == 2 and "internal error" not in result.output, result.output
    assert "Invalid value for '--seed'" in result.output


def _cli_message(*args: str) -> str:
    """The message of the one ``Error:`` line of ``irtables compare ARGS``, after the
    option's name if click put it first."""
    result = invoke("compare", *args)
    assert_one_line_error(result)
    (line,) = [x for x in result.output.splitlines() if x.startswith("Error: ")]
    return (
        line.removeprefix("Error: ").split("': ", 1)[-1]
        if "Invalid value" in line
        else (line.removeprefix("Error: "))
    )


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_an_irtables_toml_that_is_not_a_file_is_refused_by_both(tmp_path: Path, kind: str) -> None:
    root = _study(tmp_path / "r")
    toml = root / "irtables.toml"
    if kind == "folder":
        toml.mkdir()
    else:
        os.mkfifo(toml)
    got = "a folder" if kind == "folder" else "a FIFO"
    expected = f"{toml}: expected a configuration file (TOML), got {got}"
    assert _cli_message(str(root)) == expected
    for path in (root, toml):  # the folder, or the configuration file named
        with pytest.raises(IrtablesError) as info:
            load_study(path)
        assert str(info.value) == expected
    assert _cli_message(str(root), "--config", str(toml)) == expected


def test_a_fifo_given_as_the_configuration_is_refused_without_reading_it(tmp_path: Path) -> None:
    """Opening a FIFO blocks until something writes to it: load_study hung."""
    root = _study(tmp_path / "r")
    fifo = tmp_path / "cfg.toml"
    os.mkfifo(fifo)
    code = (
        "import sys\nfrom irtables import load_study\n"
        "try:\n    load_study(sys.argv[1], config=sys.argv[2])\n"
        "except Exception as e:\n    print(type(e).__name__, e)\n"
    )
    env = {**os.environ, "PYTHONPATH": f"{REPO / 'src'}{os.pathsep}{REPO}"}
    done = subprocess.run(
        [sys.executable, "-c", code, str(root), str(fifo)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    expected = f"ConfigError {fifo}: expected a configuration file (TOML), got a FIFO"
    assert done.stdout.strip() == expected, done.stdout + done.stderr
    assert _cli_message(str(root), "--config", str(fifo)) == expected.removeprefix("ConfigError ")


@pytest.mark.parametrize(
    ("option", "value", "keyword"),
    [("--missing", "nope", {"missing": "nope"}), ("--jobs", "-1", {"jobs": -1})],
    ids=["missing", "jobs"],
)
def test_load_study_refuses_what_the_command_line_refuses(
    tmp_path: Path, option: str, value: str, keyword: dict[str, object]
) -> None:
    root = _study(tmp_path / "r")
    message = _cli_message(str(root), option, value)
    name = option.removeprefix("--")
    with pytest.raises(IrtablesError) as info:
        load_study(root, **keyword)  # type: ignore[arg-type]
    assert str(info.value) == f"{name}: {message}"
    assert "expected" in message or "known: error, intersect, zero" in message
