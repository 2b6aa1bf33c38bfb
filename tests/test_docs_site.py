"""The documentation site: generated references, every code block run, the built site
opened in a browser.

Python blocks of ``docs/`` are doctests (pytest collects ``docs/*.md``); this file checks
that each is one, and runs the others: ``toml`` blocks are parsed as configurations, the
``latex`` block overrides a template, ``sh`` blocks run in a sandbox holding the example.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import tomllib
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType

import click
import pytest

from irtables.cli import main
from irtables.config import parse_config
from irtables.config.keys import DESCRIPTIONS, accepted_keys, stale_descriptions, undescribed_keys
from tests.acceptance.test_browser import DevTools, _chromium
from tests.conftest import REPO, RUNS, git, require_pdflatex

DOCS = REPO / "docs"
SCRIPTS = DOCS / "scripts"
IRTABLES = REPO / ".venv" / "bin" / "irtables"
#: Lines of ``sh`` blocks not run here, and why.
NOT_RUN = {
    "make tables": "tests/test_readme_tour.py runs it in a fresh copy of the repository",
    ". .venv/bin/activate": "tests/test_readme_tour.py runs it in a fresh copy of the repository",
}
BLOCK = re.compile(r"^```(?P<lang>[\w-]*)\n(?P<body>.*?)^```", re.M | re.S)


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"irtables_docs_{name}", SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.md") if SCRIPTS not in p.parents)


def _blocks(lang: str) -> Iterator[tuple[Path, str]]:
    for page in _pages():
        for match in BLOCK.finditer(page.read_text(encoding="utf-8")):
            if match.group("lang") == lang:
                yield page, match.group("body")


# --- references generated from the code ---------------------------------------------


def test_every_option_has_help_text() -> None:
    assert _script("reference").options_without_help() == []


def test_the_help_check_finds_an_option_without_help(monkeypatch: pytest.MonkeyPatch) -> None:
    bare = click.Option(["--bare"])
    monkeypatch.setattr(main.commands["lint"], "params", [*main.commands["lint"].params, bare])
    assert _script("reference").options_without_help() == ["irtables lint --bare"]


def test_every_config_key_has_a_description_and_every_description_a_key() -> None:
    assert undescribed_keys() == []
    assert stale_descriptions() == []


def test_the_key_probe_finds_what_the_parser_accepts() -> None:
    """Keys read from the parser's own refusals: each accepted key parses, a made-up one fails."""
    keys = accepted_keys()
    assert "decimals" in keys["output"] and "baseline" in keys["compare"]
    assert {"metric", "parameters", "average_partial"} <= set(keys["tables.<name>"])
    parse_config({"output": {"decimals": 2}, "compare": {"seed": 3}})
    assert "bogus" not in keys["output"]


def test_a_key_without_description_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    output = dict(DESCRIPTIONS["output"])
    del output["decimals"]
    monkeypatch.setitem(DESCRIPTIONS, "output", output)
    assert undescribed_keys() == ["output.decimals"]
    with pytest.raises(ValueError, match=r"output\.decimals"):
        _script("reference").config_reference()


def _walk(command: click.Command, path: tuple[str, ...]) -> Iterator[tuple[str, click.Command]]:
    yield " ".join(path), command
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from _walk(sub, (*path, name))


def test_the_cli_reference_shows_every_command_and_option() -> None:
    page = _script("reference").cli_reference()
    for name, command in _walk(main, ("irtables",)):
        section = page.split(f"## `{name}`\n", 1)[1].split("\n## ", 1)[0]
        for param in command.params:
            if isinstance(param, click.Option):
                for opt in param.opts:
                    assert f"`{opt}`" in section, (name, opt)


def test_the_config_reference_shows_every_key_with_the_code_defaults() -> None:
    page = _script("reference").config_reference()
    for section, keys in accepted_keys().items():
        for key in keys:
            assert f"| `{key}` |" in page, (section, key)
    output = page.split("## `[output]`", 1)[1].split("\n## ", 1)[0]
    assert "| `decimals` | `3` |" in output
    assert '| `formats` | `["latex", "markdown", "csv"]` |' in output


def test_the_api_reference_documents_every_public_name() -> None:
    import irtables

    page = _script("reference").api_reference()
    for name in irtables.__all__:
        if name != "__version__":
            assert f"::: irtables.{name}\n" in page, name
    assert "::: irtables.stats.compare\n" in page


def test_help_text_is_shown_as_written_not_as_markup() -> None:
    """``DIR/<dataset>/<system>.<ext>`` in a help text once rendered as ``DIR//.``."""
    import markdown

    plain = _script("reference")._plain("DIR/<dataset>/<system>.<ext>, table* and `a*b<c>`")
    html = markdown.markdown(plain)
    assert "DIR/&lt;dataset&gt;/&lt;system&gt;.&lt;ext&gt;, table* and" in html
    assert "<code>a*b&lt;c&gt;</code>" in html


def test_the_metric_reference_labels_as_tables_do() -> None:
    page = _script("reference").metrics_reference()
    assert "| `ndcg_cut_10` | `nDCG@10` | NDCG@10 | yes |" in page
    assert "| `recip_rank` | `RR` | MRR | yes |" in page
    assert "| `NumRel` | `NumRel` | #Rel | no |" in page


def test_the_formats_reference_lists_every_registry_name() -> None:
    from irtables.loaders import LOADERS
    from irtables.render import FORMATS
    from irtables.tables import LAYOUTS

    page = _script("reference").formats_reference()
    for name in [*LOADERS, *FORMATS, *LAYOUTS]:
        assert f"| `{name}` |" in page


def test_the_metric_guide_spellings_parse_to_their_labels() -> None:
    """The guide's table of spellings is written by hand: each name must parse to its label."""
    from irtables.measures import parse_measure

    text = (DOCS / "guides" / "metrics.md").read_text(encoding="utf-8")
    rows = [r for r in text.splitlines() if r.startswith("| ") and "`" in r]
    checked = 0
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        labels = re.findall(r"[^\s(),]+", cells[4])
        if not labels:
            continue
        for cell in cells[1:4]:
            names = re.findall(r"`([^`]+)`", cell)
            for name, label in zip(names, labels, strict=False):
                assert parse_measure(name).label == label, (name, label)
                checked += 1
    assert checked >= 20


def test_the_design_page_names_every_package_in_its_layer() -> None:
    spec = importlib.util.spec_from_file_location("layers", REPO / "tests" / "test_layers.py")
    assert spec is not None and spec.loader is not None
    layers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(layers)
    text = (DOCS / "design.md").read_text(encoding="utf-8")
    rows = {m.group(2): int(m.group(1)) for m in re.finditer(r"^\| (\d+) \| (.*?) \|", text, re.M)}
    for part, layer in layers.LAYERS.items():
        row = next((r for r in rows if f"`{part}`" in r), None)
        assert row is not None, f"design.md has no row for {part}"
        assert rows[row] == layer, part


# --- every code block of the docs runs -----------------------------------------------


def test_every_block_is_of_a_kind_the_tests_run() -> None:
    # text and "": output, not code; tex and jinja: tests/unit/test_numbers_guide.py
    kinds = {"python", "toml", "sh", "latex", "typst", "tex", "jinja", "text", ""}
    for page in _pages():
        for match in BLOCK.finditer(page.read_text(encoding="utf-8")):
            assert match.group("lang") in kinds, (page, match.group("lang"))


def test_every_python_block_is_a_doctest() -> None:
    blocks = list(_blocks("python"))
    assert blocks
    for page, body in blocks:
        assert body.lstrip().startswith(">>> "), page


def test_every_toml_block_is_a_valid_configuration() -> None:
    blocks = list(_blocks("toml"))
    assert len(blocks) >= 4
    for page, body in blocks:
        data = tomllib.loads(body)
        if "datasets" in data:  # the qrels and runs it names are only checked when read
            assert all("id" in d for d in data["datasets"])
        parse_config(data, source=str(page.relative_to(REPO)))


def test_the_template_override_block_makes_table_star(tmp_path: Path) -> None:
    ((_page, body),) = _blocks("latex")
    (tmp_path / "tpl" / "latex").mkdir(parents=True)
    (tmp_path / "tpl" / "latex" / "main.tex.j2").write_text(body, encoding="utf-8")
    args = [str(REPO / "results"), "-f", "latex", "-o", str(tmp_path / "out")]
    done = subprocess.run(
        [str(IRTABLES), "tables", *args, "--templates", str(tmp_path / "tpl")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    table1 = (tmp_path / "out" / "table1.tex").read_text(encoding="utf-8")
    assert "\\begin{table*}[t]" in table1 and table1.rstrip().endswith("\\end{table*}")


def test_the_typst_block_compiles_with_the_tables_it_includes(tmp_path: Path) -> None:
    import typst
    from click.testing import CliRunner

    from irtables.cli import main

    ((_page, body),) = _blocks("typst")
    paper = tmp_path / "paper"
    args = [str(REPO / "results"), "-f", "typst", "-o", str(paper / "tables")]
    done = CliRunner().invoke(main, ["tables", *args])
    assert done.exit_code == 0, done.output
    (paper / "paper.typ").write_text(body, encoding="utf-8")
    typst.compile(str(paper / "paper.typ"), output=str(tmp_path / "paper.pdf"))
    text = subprocess.run(
        ["pdftotext", str(tmp_path / "paper.pdf"), "-"], capture_output=True, text=True
    ).stdout
    assert "Table 1: Retrieval effectiveness" in text
    assert "the best NDCG@10 (Table 1)." in text  # the reference resolved


def _sh_commands(page: Path) -> list[str]:
    commands = []
    for match in BLOCK.finditer(page.read_text(encoding="utf-8")):
        if match.group("lang") == "sh":
            for line in match.group("body").splitlines():
                command = re.sub(r"\s+#.*$", "", line).strip()
                if command:
                    commands.append(command)
    return commands


def _sandbox(root: Path) -> Path:
    """The example study in a git repository, qrels and runs beside it, and ``my-study/``:
    getting started's ``irtables.toml`` with those qrels and runs."""
    ignore = shutil.ignore_patterns("tables", "supplement", ".irtables-cache")
    shutil.copytree(REPO / "results", root / "results", ignore=ignore)
    for copy in ("old", "new"):
        shutil.copytree(REPO / "results", root / copy, ignore=ignore)
    run = (RUNS / "tiny.run").read_text(encoding="utf-8")
    for folder in (root, root / "my-study"):
        (folder / "runs").mkdir(parents=True)
        shutil.copy(RUNS / "tiny.qrels", folder / "qrels.txt")
        shutil.copy(RUNS / "tiny.run", folder / "runs" / "bm25.run")
        (folder / "runs" / "dense.run").write_text(run.replace(" ", "\t"), encoding="utf-8")
    (root / "my-study" / "irtables.toml").write_text(_study_config(), encoding="utf-8")
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "results"]):
        git(root, *args)
    return root


def _study_config() -> str:
    """The ``toml`` block of getting started's "A study from runs and qrels"."""
    text = (DOCS / "getting-started.md").read_text(encoding="utf-8")
    section = text.split("## A study from runs and qrels", 1)[1].split("\n## ", 1)[0]
    match = next(m for m in BLOCK.finditer(section) if m.group("lang") == "toml")
    return match.group("body")


def test_getting_started_evaluates_its_study(tmp_path: Path) -> None:
    """The runs-and-qrels study of getting started: a Table 1 of its two runs, evaluated
    once (the second command reads the cache)."""
    root = _sandbox(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    env["PATH"] = f"{IRTABLES.parent}{os.pathsep}{env.get('PATH', '')}"
    for command in _sh_commands(DOCS / "getting-started.md"):
        if command.startswith("irtables tables my-study/"):
            done = subprocess.run(
                ["bash", "-c", command], cwd=root, env=env, capture_output=True, text=True
            )
            assert done.returncode == 0, done.stderr
    table = (root / "my-study" / "tables" / "table1.md").read_text(encoding="utf-8")
    assert "TREC DL 2019" in table and "| dense " in table
    assert (root / "my-study" / ".irtables-cache").is_dir()


SH_PAGES = [p for p in _pages() if _sh_commands(p)]


@pytest.mark.parametrize("page", SH_PAGES, ids=[str(p.relative_to(DOCS)) for p in SH_PAGES])
def test_every_shell_command_of_a_page_runs(page: Path, tmp_path: Path) -> None:
    """Each command exits 0, or 1 where it reports a finding (lint, check, diff --fail-on),
    never 2 (an error) or with a traceback; commands run in the page's order."""
    if not IRTABLES.exists():
        pytest.skip("no installed .venv in this checkout (run make install)")
    root = _sandbox(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    env["PATH"] = f"{IRTABLES.parent}{os.pathsep}{env.get('PATH', '')}"
    for command in _sh_commands(page):
        if command in NOT_RUN:
            continue
        done = subprocess.run(
            ["bash", "-c", command], cwd=root, env=env, capture_output=True, text=True
        )
        assert done.returncode in (0, 1), f"{command}\n{done.stderr[-2000:]}"
        assert "Traceback" not in done.stderr and "Error:" not in done.stderr, command


# --- pictures of the layouts ------------------------------------------------------------


def test_every_layout_has_a_picture_shown_in_the_tables_guide() -> None:
    from irtables.tables import LAYOUTS

    pictures = _script("layout_pictures").PICTURES
    guide = (DOCS / "guides" / "tables.md").read_text(encoding="utf-8")
    for layout in LAYOUTS:
        assert layout in pictures, layout
    for name, golden in pictures.items():
        png = DOCS / "images" / "layouts" / f"{name}.png"
        assert golden.is_file(), golden
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", png
        assert png.stat().st_size < 60_000, f"{png} is not small"
        assert f"images/layouts/{name}.png" in guide, name


def test_the_layout_pictures_show_the_goldens_as_they_are(tmp_path: Path) -> None:
    """Drawn again from today's goldens, each picture is the committed one (else rerun
    ``docs/scripts/layout_pictures.py``)."""
    from PIL import Image, ImageChops, ImageStat

    require_pdflatex()
    script = _script("layout_pictures")
    for name, golden in script.PICTURES.items():
        work = tmp_path / name
        work.mkdir()
        script.picture(golden, work / "new.png", work)
        new = Image.open(work / "new.png").convert("L")
        old = Image.open(DOCS / "images" / "layouts" / f"{name}.png").convert("L")
        assert new.size == old.size, f"{name}.png is stale: rerun docs/scripts/layout_pictures.py"
        difference = ImageStat.Stat(ImageChops.difference(new, old)).mean[0]
        assert difference < 2.0, f"{name}.png is stale: rerun docs/scripts/layout_pictures.py"


# --- the built site, in a browser -------------------------------------------------------

_CHECK = """(async (pages) => {
  const problems = [];
  const targets = new Map();
  let images = 0;
  for (const page of pages) {
    const frame = document.createElement("iframe");
    await new Promise((done) => {
      frame.onload = done; frame.src = page; document.body.append(frame);
    });
    const doc = frame.contentDocument;
    for (const img of doc.images) {
      images += 1;
      if (!img.complete || img.naturalWidth === 0) problems.push(`${page}: image ${img.src}`);
    }
    for (const a of doc.querySelectorAll("a[href]")) {
      const url = new URL(a.getAttribute("href"), frame.contentWindow.location.href);
      if (url.origin === location.origin) targets.set(url.href, page);
    }
    frame.remove();
  }
  const texts = new Map();
  for (const [href, page] of targets) {
    const url = new URL(href);
    const key = url.origin + url.pathname;
    if (!texts.has(key)) {
      const response = await fetch(key);
      texts.set(key, response.ok ? await response.text() : null);
    }
    const text = texts.get(key);
    if (text === null) problems.push(`${page}: broken link ${href}`);
    else if (url.hash && !text.includes(`id="${decodeURIComponent(url.hash.slice(1))}"`))
      problems.push(`${page}: no anchor ${href}`);
  }
  return JSON.stringify({pages: pages.length, images, links: targets.size, problems});
})(%s)"""


def test_the_built_site_opens_in_chromium_without_broken_links_or_images(
    tmp_path: Path,
) -> None:
    browser = _chromium()
    mkdocs = REPO / ".venv" / "bin" / "mkdocs"
    if not mkdocs.exists():
        if os.environ.get("CI"):
            pytest.fail("mkdocs is not installed under CI (make install installs the docs extra)")
        pytest.skip("mkdocs not installed (pip install -e '.[docs]')")
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run(
        [str(mkdocs), "build", "--strict", "--site-dir", str(site)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    pages = sorted(
        "/" + str(p.relative_to(site)) for p in site.rglob("index.html") if p.parent.name != "404"
    )
    assert len(pages) >= 15
    handler = partial(_QuietHandler, directory=str(site))
    with (
        ThreadingHTTPServer(("127.0.0.1", 0), handler) as server,
        tempfile.TemporaryDirectory() as profile,
    ):
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        tools = DevTools(browser, profile)
        try:
            target = tools.send("Target.createTarget", url="about:blank")["targetId"]
            sid = tools.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
            tools.send("Page.enable", sid)
            home = f"http://127.0.0.1:{server.server_address[1]}/"
            tools.send("Page.navigate", sid, url=home)
            tools.wait_for("Page.loadEventFired")
            checked = tools.send(
                "Runtime.evaluate",
                sid,
                expression=_CHECK % json.dumps(pages),
                awaitPromise=True,
                returnByValue=True,
            )
        finally:
            tools.close()
            server.shutdown()
            thread.join()
    result = json.loads(checked["result"]["value"])
    assert result["problems"] == []
    assert result["pages"] == len(pages)
    assert result["images"] >= 9 and result["links"] >= 30


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        del format, args


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__]))
