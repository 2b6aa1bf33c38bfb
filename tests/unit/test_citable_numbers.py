"""numbers.json and numbers.tex: every number the tables show, citable by key.

The expected texts come from the rendered CSV tables and significance report (read as
a reader of the paper would), the differences and relative improvements are computed
here from those texts, and the cited numbers are read back from the compiled PDF with
pdftotext.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest

from tests.conftest import REPO, invoke, require_pdflatex
from tests.data.sweep.make_sweep import make_sweep

SWEEP_BASELINES = {"robust03": "bm25", "tar2017": "bm25_tar", "ehealth16": "bm25"}
EXAMPLE_BASELINES = {"cast2021": "org_manual_bm25", "cacm": "org_manual_bm25"}


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("example") / "tables"
    result = invoke("tables", str(REPO / "results"), "-o", str(out))
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def sweep(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_sweep(tmp_path_factory.mktemp("sweep") / "study")
    result = invoke("tables", str(root), "-o", str(root / "tables"))
    assert result.exit_code == 0, result.output
    return root / "tables"


def _numbers(folder: Path) -> dict[str, dict[str, object]]:
    data = json.loads((folder / "numbers.json").read_text(encoding="utf-8"))
    numbers: dict[str, dict[str, object]] = data["numbers"]
    return numbers


def _csv_cell(folder: Path, entry: dict[str, object]) -> str:
    """The text of the CSV cell ``entry`` says it comes from."""
    cell = entry["cell"]
    assert isinstance(cell, dict)
    with (folder / f"{entry['table']}.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    header = rows[1] if rows[0][0].startswith("#") else rows[0]
    body = rows[2:] if rows[0][0].startswith("#") else rows[1:]
    heads = [str(cell["column"]), f"{cell['column_group']}: {cell['column']}", "no cutoff"]
    for row in body:
        labels = row[: header.index(heads[0]) if heads[0] in header else 3]
        if cell["row"] not in labels or (cell["group"] and cell["group"] not in labels):
            continue
        for head in heads:
            if head in header and row[header.index(head)]:
                return row[header.index(head)]
    raise AssertionError(f"no CSV cell for {entry}")


def _csv_numbers(folder: Path) -> int:
    """How many numbers the CSV tables show (value columns only)."""
    count = 0
    for path in folder.glob("*.csv"):
        if path.name == "significance.csv":
            continue
        with path.open(encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f))
        header = rows[0]
        skip = ("markers", "Δ", "best", "second_best", "Description")
        columns = [i for i, h in enumerate(header) if not h.endswith(skip) and i > 0]
        for row in rows[1:]:
            count += sum(1 for i in columns if re.fullmatch(r"[+-]?\d*\.\d+", row[i]))
    return count


@pytest.mark.parametrize("which", ["example", "sweep"])
def test_every_number_a_table_shows_has_a_key(which: str, request: pytest.FixtureRequest) -> None:
    folder = request.getfixturevalue(which)
    numbers = _numbers(folder)
    assert len(numbers) == _csv_numbers(folder)
    for key, entry in numbers.items():
        ids = (entry["table"], entry["dataset"], entry["system"], entry["metric"])
        assert key == "/".join(str(i) for i in ids)
        assert str(entry["text"]).replace("−", "-") == _csv_cell(folder, entry), key
        assert (
            abs(float(str(entry["text"]).replace("−", "-")) - float(entry["value"])) <= 5e-4 + 1e-12
        )


def test_keys_are_ids_as_the_issue_spells_them(example: Path, sweep: Path) -> None:
    ex, sw = _numbers(example), _numbers(sweep)
    assert ex["table1/cast2021/org_manual_ance/nDCG@10"]["text"] == "0.494"
    assert ex["table1/cast2021/org_manual_ance/nDCG@10"]["system_name"] == "ANCE"
    assert "tableS1-cacm/cacm/bm25/P@10" in ex
    assert "tableS1-cast2021/cast2021/org_convdr/AP" in ex  # MAP: one value, no cutoff
    assert "ablation/cast2021/org_manual_ance/nDCG@3" in ex
    assert "alpha_depth/robust03/fuse_alpha=0.5_depth=1000/nDCG@10" in sw
    assert "table1/tar2017/bm25_tar/P@10" in sw
    counts = json.loads((example / "numbers.json").read_text(encoding="utf-8"))["counts"]
    # the caption: "Means over the queries of each dataset (TREC CAsT 2021: 158; CACM: 52)"
    assert counts["cast2021/topics"]["value"] == 158
    assert counts["cacm/topics"]["value"] == 52
    assert counts["cast2021/systems"]["value"] == len(list((REPO / "results/cast2021").iterdir()))


def test_differences_and_relative_improvements_are_those_of_the_displayed_values(
    example: Path, sweep: Path
) -> None:
    checked = 0
    for folder, baselines in ((example, EXAMPLE_BASELINES), (sweep, SWEEP_BASELINES)):
        numbers = _numbers(folder)
        for key, entry in numbers.items():
            table = str(entry["table"])
            if not table.startswith("table"):
                continue
            base_key = "/".join((table, str(entry["dataset"]), baselines[str(entry["dataset"])],
                                 str(entry["metric"])))  # fmt: skip
            if base_key not in numbers:
                assert "delta" not in entry
                continue
            here, base = (
                Decimal(_csv_cell(folder, entry)),
                Decimal(_csv_cell(folder, numbers[base_key])),
            )
            delta = entry["delta"]
            assert isinstance(delta, dict)
            assert Decimal(str(delta["text"]).replace("−", "-")) == here - base, key
            relative = entry["relative"]
            assert isinstance(relative, dict)
            expected = f"{float((here - base) / base * 100):+.1f}%"
            assert str(relative["text"]).replace("−", "-") == expected, key
            checked += 1
    assert checked > 100
    ablation = _numbers(example)["ablation/cast2021/org_manual_ance/RR"]
    assert isinstance(ablation["delta"], dict)
    assert ablation["delta"]["text"] == "+0.034"  # the Δ the ablation table prints


def test_p_values_are_those_of_the_significance_report(example: Path) -> None:
    with (example / "significance.csv").open(encoding="utf-8", newline="") as f:
        report = {
            (r["dataset"], r["metric"], r["system"], r["baseline"]): r for r in csv.DictReader(f)
        }
    checked = 0
    for key, entry in _numbers(example).items():
        if "p" not in entry:
            continue
        row = report[(entry["dataset"], entry["measure"], entry["system"], entry["baseline"])]
        p = float(row["pvalue_adjusted"] or row["pvalue"])
        expected = "< 0.001" if p < 0.001 else f"{p:.3f}"
        p_entry = entry["p"]
        assert isinstance(p_entry, dict)
        assert p_entry["text"] == expected, key
        checked += 1
    assert checked >= 40


def test_numbers_json_is_byte_stable(example: Path, tmp_path: Path) -> None:
    again = tmp_path / "tables"
    assert invoke("tables", str(REPO / "results"), "-o", str(again)).exit_code == 0
    assert (again / "numbers.json").read_bytes() == (example / "numbers.json").read_bytes()
    assert (again / "numbers.tex").read_bytes() == (example / "numbers.tex").read_bytes()


def test_numbers_command_writes_only_the_two_files(tmp_path: Path) -> None:
    out = tmp_path / "cited"
    result = invoke("numbers", str(REPO / "results"), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == [
        "numbers.json",
        "numbers.tex",
    ]
    only_json = tmp_path / "json"
    assert (
        invoke("numbers", str(REPO / "results"), "-o", str(only_json), "-f", "csv").exit_code == 0
    )
    assert [p.name for p in only_json.iterdir() if not p.name.startswith(".")] == ["numbers.json"]


def _pdftotext(pdf: Path) -> str:
    done = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True)
    return " ".join(done.stdout.split())


def _compile(folder: Path, name: str, source: str) -> subprocess.CompletedProcess[str]:
    (folder / name).write_text(source, encoding="utf-8")
    return subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", name],
        cwd=folder,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=300,
    )


ACMART = (  # without the Libertine fonts, microtype cannot expand acmart's bitmap fonts
    "\\PassOptionsToPackage{expansion=false}{microtype}\n\\documentclass[sigconf]{acmart}\n\\settopmatter{printacmref=false}\n\\setcopyright{none}\n"
    "\\renewcommand\\footnotetextcopyrightpermission[1]{}\n"
)


def test_an_acmart_paper_citing_every_key_shows_the_cells_text(
    example: Path, sweep: Path, tmp_path: Path
) -> None:
    require_pdflatex()
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext not installed")
    shutil.copy(example / "numbers.tex", tmp_path / "example.tex")
    shutil.copy(sweep / "numbers.tex", tmp_path / "sweep.tex")
    expected: list[str] = []
    body = []
    macro = {"text": "irtnum", "delta": "irtdelta", "relative": "irtrel", "p": "irtp"}
    for folder in (example, sweep):
        for key, entry in _numbers(folder).items():
            for kind, name in macro.items():
                found = entry.get(kind)
                if found is None:
                    continue
                text = _csv_cell(folder, entry) if kind == "text" else str(found["text"])  # type: ignore[index]
                body.append(f"[[{len(expected)}={{\\{name}{{{key}}}}}]]\n")
                expected.append(text.replace("−", "-"))
        counts = json.loads((folder / "numbers.json").read_text(encoding="utf-8"))["counts"]
        for key, entry in counts.items():
            body.append(f"[[{len(expected)}=\\irtcount{{{key}}}]]\n")
            expected.append(str(entry["value"]))
    assert len(expected) > 2000
    source = (
        ACMART
        + "\\input{example.tex}\n\\input{sweep.tex}\n\\begin{document}\n\\title{Cited}\n"
        + "\\maketitle\n"
        + "".join(body)
        + "\n\\end{document}\n"
    )
    done = _compile(tmp_path, "paper.tex", source)
    assert done.returncode == 0, done.stdout[-3000:]
    text = _pdftotext(tmp_path / "paper.pdf").replace("−", "-")
    found = dict(re.findall(r"\[\[(\d+)=(.*?)\]\]", text))
    assert len(found) == len(expected)
    for i, want in enumerate(expected):
        assert found[str(i)] == want, (i, want, found[str(i)])


@pytest.mark.parametrize(
    "preamble",
    [
        "\\documentclass{article}\n",
        ACMART,
        "\\documentclass{llncs}\n",
        "\\documentclass[conference]{IEEEtran}\n",
    ],
    ids=["article", "acmart", "llncs", "IEEEtran"],
)
def test_numbers_tex_loads_in_each_class_and_stops_on_an_unknown_key(
    preamble: str, example: Path, tmp_path: Path
) -> None:
    require_pdflatex()
    cls = re.search(r"\\documentclass(?:\[\w+\])?\{(\w+)\}", preamble)
    assert cls is not None
    found = subprocess.run(["kpsewhich", f"{cls.group(1)}.cls"], capture_output=True, text=True)
    if not found.stdout.strip():
        pytest.skip(f"{cls.group(1)}.cls not installed")
    shutil.copy(example / "numbers.tex", tmp_path / "numbers.tex")
    shutil.copy(example / "table1.tex", tmp_path / "table1.tex")
    good = (
        preamble
        + "\\usepackage{booktabs}\n\\input{numbers.tex}\n\\begin{document}\n"
        + "\\title{T}\\maketitle\n"
        + "BM25 \\irtnum{table1/cast2021/org_manual_bm25/nDCG@10}, "
        + "ANCE \\irtrel{table1/cast2021/org_manual_ance/nDCG@10}.\n\\input{table1.tex}\n"
        + "\\end{document}\n"
    )
    done = _compile(tmp_path, "good.tex", good)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "BM25 0.376, ANCE +31.4%." in _pdftotext(tmp_path / "good.pdf")
    bad = good.replace("org_manual_ance/nDCG@10}", "org_manual_ance/nDCG@1_0=x}")
    done = _compile(tmp_path, "bad.tex", bad)
    assert done.returncode != 0
    log = done.stdout.replace("\n", "")  # TeX breaks its log lines at 79 characters
    assert "irtables Error: unknown key table1/cast2021/org_manual_ance/nDCG@1_0=x" in log
    assert not (tmp_path / "bad.pdf").exists()


def test_a_key_is_cited_by_its_metric_label_too(example: Path) -> None:
    text = (example / "numbers.tex").read_text(encoding="utf-8")
    assert "\\irt@set{num}{table1/cast2021/org_manual_ance/NDCG@10}{0.494}" in text
    assert "\\irt@set{num}{table1/cast2021/org_manual_ance/MAP}{0.297}" in text


def test_relative_decimals_are_configured(tmp_path: Path) -> None:
    study = tmp_path / "results"
    shutil.copytree(REPO / "results", study, ignore=shutil.ignore_patterns("tables", "*.py"))
    config = study / "irtables.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("decimals = 3\n", "decimals = 3\nrelative_decimals = 2\n"))
    assert invoke("tables", str(study), "-o", str(tmp_path / "t")).exit_code == 0
    entry = _numbers(tmp_path / "t")["table1/cast2021/org_manual_ance/nDCG@10"]
    here = Decimal(_csv_cell(tmp_path / "t", entry))
    base = Decimal(_csv_cell(tmp_path / "t", _numbers(tmp_path / "t")[
        "table1/cast2021/org_manual_bm25/nDCG@10"]))  # fmt: skip
    relative = entry["relative"]
    assert isinstance(relative, dict)
    assert relative["text"] == f"{float((here - base) / base * 100):+.2f}%"
    config.write_text(text.replace("decimals = 3\n", "decimals = 3\nrelative_decimals = 9\n"))
    result = invoke("tables", str(study), "-o", str(tmp_path / "u"))
    assert result.exit_code == 2
    assert "output.relative_decimals: expected an integer from 0 to 4, got 9" in result.output


def test_the_spread_over_seeds_is_cited_as_the_cell_shows_it(tmp_path: Path) -> None:
    import numpy as np

    from tests.unit.test_seeds import SEEDS, _per_query, _study

    require_pdflatex()
    root, values = _study(tmp_path, config='[output]\nseeds = "mean_std"\n')
    out = tmp_path / "out"
    assert invoke("tables", str(root), "-o", str(out)).exit_code == 0
    mean = _per_query(values, "dense", "AP").mean()
    std = np.std([values["dense", seed, "AP"].mean() for seed in SEEDS], ddof=1)
    expected = f"{mean:.3f} ± {std:.3f}"
    assert _numbers(out)["table1/dl19/dense/AP"]["text"] == expected
    body = "\\input{numbers.tex}\n\\begin{document}\n[[\\irtnum{table1/dl19/dense/AP}]]\n"
    done = _compile(out, "cite.tex", "\\documentclass{article}\n" + body + "\\end{document}\n")
    assert done.returncode == 0, done.stdout[-2000:]
    assert f"[[{expected}]]" in _pdftotext(out / "cite.pdf")


def test_ids_latex_cannot_take_leave_numbers_tex_compiling(tmp_path: Path) -> None:
    from tests.conftest import tidy_study

    require_pdflatex()
    folder = tidy_study(tmp_path, ["web"], ("bm%25", "fuse_alpha=0.5_depth=1000", "a{b}#\\c"))
    out = tmp_path / "out"
    assert invoke("tables", str(folder), "-o", str(out)).exit_code == 0
    numbers = _numbers(out)
    assert "table1/web/bm%25/AP" in numbers and "table1/web/a{b}#\\c/AP" in numbers
    tex = (out / "numbers.tex").read_text(encoding="utf-8")
    assert "bm%25" not in tex and "a{b}" not in tex
    key = "table1/web/fuse_alpha=0.5_depth=1000/AP"
    body = f"\\input{{numbers.tex}}\n\\begin{{document}}\n[[\\irtnum{{{key}}}]]\n"
    done = _compile(out, "cite.tex", "\\documentclass{article}\n" + body + "\\end{document}\n")
    assert done.returncode == 0, done.stdout[-2000:]
    assert f"[[{_csv_cell(out, numbers[key])}]]" in _pdftotext(out / "cite.pdf")
