"""The example's supplement index.html in a real browser (headless chromium, DevTools).

Chromium is driven over ``--remote-debugging-pipe`` (the DevTools protocol as
NUL-terminated JSON on file descriptors 3 and 4), so no driver package is needed. The
test loads the page from disk, checks that every table and figure is there and visible,
that no error reached the console, and saves a screenshot.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from irtables.supplement.run import make_supplement
from tests.conftest import REPO

CHECK_PAGE = """(() => {
  const visible = (el) => {
    const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none";
  };
  return JSON.stringify({
    tables: [...document.querySelectorAll("table.irtables")].map((t) => ({
      id: t.id, visible: visible(t), rows: t.rows.length,
      caption: t.caption ? t.caption.textContent.length : 0})),
    figures: [...document.querySelectorAll("figure img")].map((i) => ({
      src: i.getAttribute("src"), visible: visible(i), loaded: i.complete && i.naturalWidth > 0})),
    methods: (document.querySelector("#methods") || {textContent: ""}).textContent.length,
    significance: document.querySelectorAll("#significance table tr").length,
  });
})()"""


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("CI"):
        pytest.fail("chromium is required under CI (installed by .ci/run)")
    pytest.skip("chromium not installed")


class DevTools:
    """A minimal DevTools client over chromium's debugging pipe."""

    def __init__(self, binary: str, profile: str) -> None:
        to_child, self._out = os.pipe()
        self._in, from_child = os.pipe()

        def wire() -> None:  # runs in the child: the pipe ends become fds 3 and 4
            os.dup2(to_child, 3)
            os.dup2(from_child, 4)

        self.proc = subprocess.Popen(
            [
                binary,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--hide-scrollbars",
                "--remote-debugging-pipe",
                f"--user-data-dir={profile}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=wire,
            close_fds=False,
        )
        os.close(to_child)
        os.close(from_child)
        self._next = 0
        self._buffer = b""
        self.events: list[dict[str, Any]] = []

    def send(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._out, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            self.events.append(reply)

    def wait_for(self, method: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while not any(e.get("method") == method for e in self.events):
            if time.monotonic() > deadline:
                raise TimeoutError(method)
            self.events.append(self._read())

    def _read(self) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            chunk = os.read(self._in, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def close(self) -> None:
        try:
            self.send("Browser.close")
        finally:
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            os.close(self._out)
            os.close(self._in)


def read_page(
    url: str,
    expression: str,
    *,
    size: tuple[int, int] | None = None,
    screenshot: Path | None = None,
) -> Any:
    """Open ``url`` in headless chromium (a ``size`` = (width, height) viewport if given),
    evaluate the JavaScript ``expression`` there and return its JSON value; with
    ``screenshot``, the whole page is saved there as PNG too."""
    binary = _chromium()
    with tempfile.TemporaryDirectory() as profile:
        tools = DevTools(binary, profile)
        try:
            target = tools.send("Target.createTarget", url="about:blank")["targetId"]
            sid = tools.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
            tools.send("Page.enable", sid)
            if size is not None:
                tools.send(
                    "Emulation.setDeviceMetricsOverride",
                    sid,
                    width=size[0],
                    height=size[1],
                    deviceScaleFactor=1,
                    mobile=False,
                )
            tools.send("Page.navigate", sid, url=url)
            tools.wait_for("Page.loadEventFired")
            read = tools.send("Runtime.evaluate", sid, expression=expression, returnByValue=True)
            if screenshot is not None:
                shot = tools.send(
                    "Page.captureScreenshot", sid, format="png", captureBeyondViewport=True
                )
                screenshot.write_bytes(base64.b64decode(shot["data"]))
        finally:
            tools.close()
    return json.loads(read["result"]["value"])


def _errors(events: list[dict[str, Any]]) -> list[str]:
    out = []
    for e in events:
        params = e.get("params", {})
        if e.get("method") == "Runtime.exceptionThrown":
            out.append(json.dumps(params.get("exceptionDetails", {}))[:300])
        elif e.get("method") == "Runtime.consoleAPICalled" and params.get("type") == "error":
            out.append(json.dumps(params.get("args", []))[:300])
        elif e.get("method") == "Log.entryAdded" and params["entry"].get("level") == "error":
            out.append(f"{params['entry'].get('url', '')}: {params['entry'].get('text', '')}")
    return out


@pytest.fixture(scope="module")
def supplement(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("supplement")
    make_supplement(REPO / "results", outdir=out, pdf=False)
    return out


def test_index_html_in_chromium(supplement: Path, tmp_path: Path) -> None:
    binary = _chromium()
    expected_tables = sorted(p.stem for p in (supplement / "tables").glob("*.csv"))
    expected_figures = sorted(f"figures/{p.name}" for p in (supplement / "figures").glob("*.png"))
    assert expected_tables and expected_figures
    with tempfile.TemporaryDirectory() as profile:
        tools = DevTools(binary, profile)
        try:
            target = tools.send("Target.createTarget", url="about:blank")["targetId"]
            session = tools.send("Target.attachToTarget", targetId=target, flatten=True)
            sid = session["sessionId"]
            for domain in ("Page", "Runtime", "Log"):
                tools.send(f"{domain}.enable", sid)
            tools.send(
                "Emulation.setDeviceMetricsOverride",
                sid,
                width=1280,
                height=900,
                deviceScaleFactor=1,
                mobile=False,
            )
            tools.send("Page.navigate", sid, url=(supplement / "index.html").as_uri())
            tools.wait_for("Page.loadEventFired")
            checked = tools.send("Runtime.evaluate", sid, expression=CHECK_PAGE, returnByValue=True)
            page = json.loads(checked["result"]["value"])
            shot = tools.send(
                "Page.captureScreenshot", sid, format="png", captureBeyondViewport=True
            )
            errors = _errors(tools.events)
        finally:
            tools.close()
    screenshot = tmp_path / "index.png"
    screenshot.write_bytes(base64.b64decode(shot["data"]))
    assert screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert screenshot.stat().st_size > 10_000
    assert not errors, errors
    assert sorted(t["id"] for t in page["tables"]) == expected_tables
    for table in page["tables"]:
        assert table["visible"] and table["rows"] > 1 and table["caption"] > 20, table
    assert sorted(f["src"] for f in page["figures"]) == expected_figures
    for figure in page["figures"]:
        assert figure["visible"] and figure["loaded"], figure
    assert page["methods"] > 500
    assert page["significance"] > 1
