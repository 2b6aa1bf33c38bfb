"""``--scheduler`` against what is not a Dask scheduler (issue 34 §2): a malformed
address is refused before any client exists, the handshake is bounded by the timeout,
and a peer that is not a scheduler is one line; never a traceback at exit.

Before: a peer that accepts and says nothing hung past 90 s; an HTTP reply or ``\\xff``
bytes gave "out of memory?" and, 20 s later, a ``Client.__del__`` traceback; ``tcp://``,
``127.0.0.1`` and ``inproc://x`` gave the right line, then that traceback.

The peers are socket servers on 127.0.0.1 in a thread of the test; irtables runs in a
child process (a traceback at exit is only seen there), under a generous timeout.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from irtables.errors import InputError
from irtables.workers.cluster import CONNECT_TIMEOUT, check_address
from tests.conftest import REPO, RUNS

pytest.importorskip("distributed")

#: Seconds a child may take, its start and Dask's import on a busy machine included.
LIMIT = CONNECT_TIMEOUT + 90


@contextmanager
def peer(reply: bytes | None) -> Iterator[str]:
    """A server on 127.0.0.1 that accepts every connection and sends ``reply`` (None:
    nothing), keeping it open; its address."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.2)
    stop = threading.Event()
    accepted: list[socket.socket] = []

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            accepted.append(conn)
            if reply is not None:
                conn.sendall(reply)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        for conn in accepted:
            conn.close()
        server.close()


def _evaluate(scheduler: str) -> subprocess.CompletedProcess[str]:
    args = ["evaluate", str(RUNS / "tiny.qrels"), str(RUNS / "tiny.run"), "-m", "map"]
    env = {**os.environ, "PYTHONPATH": f"{REPO / 'src'}{os.pathsep}{REPO}"}
    env.pop("IRTABLES_SCHEDULER", None)
    return subprocess.run(
        [sys.executable, "-m", "irtables", *args, "--scheduler", scheduler],
        capture_output=True,
        text=True,
        timeout=LIMIT,
        env=env,
    )


def _one_error_line(done: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), done.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    assert "out of memory" not in lines[0]


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        (None, f"did not answer within {CONNECT_TIMEOUT:g} s"),
        (b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", "is not a Dask scheduler"),
        (b"\xff" * 64, "is not a Dask scheduler"),
    ],
    ids=["silent", "http", "xff"],
)
def test_a_peer_that_is_not_a_scheduler_is_one_line(reply: bytes | None, said: str) -> None:
    with peer(reply) as address:
        _one_error_line(_evaluate(address), address, said)


def test_a_malformed_address_is_one_line_and_no_client(tmp_path: Path) -> None:
    _one_error_line(_evaluate("tcp://"), "scheduler address 'tcp://': expected")


@pytest.mark.parametrize(
    "address",
    ["tcp://", "127.0.0.1", "inproc://x", "tcp://h:0", "tcp://h:65536", "foo://h:1", "tcp://:1"],
)
def test_malformed_addresses_are_refused(address: str) -> None:
    with pytest.raises(InputError, match=f"scheduler address '{address}'"):
        check_address(address)


@pytest.mark.parametrize(
    "address", ["tcp://127.0.0.1:8786", "127.0.0.1:8786", "tls://h.example:1", "tcp://[::1]:8786"]
)
def test_well_formed_addresses_pass(address: str) -> None:
    assert check_address(address) == address


@pytest.mark.parametrize("address", ["tcp://", "inproc://x"])
def test_a_malformed_configured_scheduler_names_the_key(tmp_path: Path, address: str) -> None:
    from irtables.config import parse_config
    from irtables.errors import ConfigError

    with pytest.raises(ConfigError, match=r"irtables\.toml: compute\.scheduler: expected a Dask"):
        parse_config({"compute": {"scheduler": address}}, source="irtables.toml")
