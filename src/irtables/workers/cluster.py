"""Work on a Dask cluster: ``--scheduler tcp://host:8786`` (or ``IRTABLES_SCHEDULER``).

The jobs that a local pool would run (:mod:`irtables.workers.executor`) go to the cluster's
workers through ``distributed.Client.get_executor()``, a
:class:`concurrent.futures.Executor` like the pool. A job whose worker died is run again
by Dask on another worker (``distributed.scheduler.allowed-failures`` times; then it
is one error line here).
Jobs name their files by path: the workers must see them at the same paths (a shared
filesystem), and a worker that cannot read one fails with the same one-line error as
here. Dask (the ``irtables[dask]`` extra) is imported only when a scheduler is given.

Before any client exists, the address is checked (:func:`check_address`) and the peer
asked who it is, the whole exchange bounded by the timeout: a malformed address, a port
where nothing listens, a peer that does not answer and one that is not a Dask scheduler
(a web server, anything else) are each one error line, and no client is left to time
out at exit.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from irtables.errors import InputError

if TYPE_CHECKING:
    from concurrent.futures import Executor

#: The environment variable naming the scheduler when no option does (read by the commands).
SCHEDULER_ENV = "IRTABLES_SCHEDULER"
#: Seconds to wait for the scheduler before giving up (the whole handshake).
CONNECT_TIMEOUT = 10.0
#: Schemes of a scheduler's address that reach another process (not ``inproc``).
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")
_ADDRESS = re.compile(r"(?:(?P<scheme>[a-z]+)://)?(?P<host>\[[^\]]+\]|[^:/\[\]]+):(?P<port>\d+)")


def check_address(address: str) -> str:
    """``address`` if it is a scheduler's address ``[SCHEME://]HOST:PORT`` (SCHEME one of
    :data:`SCHEMES`, tcp if none; PORT 1 to 65535), else :class:`InputError`.

    Examples
    --------
    >>> check_address("tcp://127.0.0.1:8786"), check_address("[::1]:8786")
    ('tcp://127.0.0.1:8786', '[::1]:8786')
    >>> check_address("tcp://")
    Traceback (most recent call last):
    irtables.errors.InputError: scheduler address 'tcp://': expected SCHEME://HOST:PORT, \
as the Dask scheduler prints it (tcp://10.0.0.5:8786)
    """
    found = _ADDRESS.fullmatch(address.strip())
    scheme = found.group("scheme") if found else None
    if scheme == "inproc" or address.startswith("inproc://"):
        raise InputError(
            f"scheduler address {address!r}: an inproc:// address is a scheduler inside one "
            "process; give its tcp:// address"
        )
    if found is None or (scheme or "tcp") not in SCHEMES or not 0 < int(found["port"]) < 65536:
        raise InputError(
            f"scheduler address {address!r}: expected SCHEME://HOST:PORT, as the Dask "
            f"scheduler prints it (tcp://10.0.0.5:8786)"
        )
    return address


@contextmanager
def cluster_executor(address: str, *, timeout: float = CONNECT_TIMEOUT) -> Iterator[Executor]:
    """An executor whose jobs run on the Dask cluster of the scheduler at ``address``.

    Raises :class:`~irtables.errors.InputError` when the address is malformed, Dask is
    not installed, nothing listens at the address (at once: no wait), the peer is not a
    Dask scheduler, or it does not answer within ``timeout`` seconds (all of the
    handshake, the client's connection included).
    """
    check_address(address)
    deadline = time.monotonic() + timeout
    try:
        from distributed import Client, KilledWorker
    except ImportError:
        raise InputError(
            f"--scheduler {address}: Dask is not installed (pip install 'irtables[dask]')"
        ) from None
    refused = _refused(address, timeout)
    if refused is not None:
        raise InputError(f"cannot reach the Dask scheduler at {address} ({refused})")
    _identify(address, timeout)
    left = max(deadline - time.monotonic(), 0.5)
    try:
        client = Client(address, timeout=f"{left}s", set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as e:
        raise InputError(
            f"cannot reach the Dask scheduler at {address} within {timeout:g} s "
            f"({type(e).__name__}: {' '.join(str(e).split()) or 'no answer'})"
        ) from None
    try:
        yield client.get_executor(pure=False)  # type: ignore[no-untyped-call]
    except KilledWorker as e:  # Dask ran the job again, and its workers died each time
        raise InputError(
            f"the Dask workers of {address} died running the same job (tries: "
            f"{e.allowed_failures + 1}, the most distributed.scheduler.allowed-failures "
            "allows); their logs say why (out of memory?)"
        ) from None
    finally:
        client.close()  # type: ignore[no-untyped-call]


def _refused(address: str, timeout: float) -> str | None:
    """Why nothing can answer at a TCP ``address``, known at once (the host refuses the
    connection: nothing listens on that port); None when a connection is made, when the
    address is not TCP or when the host does not answer (Dask waits and says)."""
    import socket

    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        if scheme != "tcp":
            return None
        host, port = parse_host_port(location)
        with socket.create_connection((host, port), timeout=timeout):
            return None
    except ConnectionRefusedError:
        return "connection refused: nothing listens on that port"
    except (OSError, ValueError, TypeError):
        return None


def _identify(address: str, timeout: float) -> None:
    """Ask the peer at ``address`` who it is (Dask's handshake, then its ``identity``),
    all within ``timeout`` seconds, in a thread of its own (the caller may be running an
    event loop); :class:`InputError` unless a Dask scheduler answers."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as thread:
        reply = thread.submit(_ask_identity, address, timeout).result()
    if isinstance(reply, BaseException):
        if isinstance(reply, TimeoutError):
            raise InputError(f"the Dask scheduler at {address} did not answer within {timeout:g} s")
        if isinstance(reply, OSError) and not _is_protocol_error(reply):
            raise InputError(
                f"cannot reach the Dask scheduler at {address} "
                f"({type(reply).__name__}: {' '.join(str(reply).split()) or 'no answer'})"
            )
        reply = None
    if not (isinstance(reply, dict) and reply.get("type") == "Scheduler"):
        what = reply.get("type") if isinstance(reply, dict) else None
        raise InputError(
            f"{address} is not a Dask scheduler ("
            + (f"it is a Dask {what}" if isinstance(what, str) else "its answer is not Dask's")
            + "): give the address the scheduler prints (tcp://HOST:8786)"
        )


def _is_protocol_error(e: OSError) -> bool:
    """Whether Dask's comm closed because of what the peer sent (a CommClosedError)."""
    return type(e).__name__ in ("CommClosedError", "FatalCommClosedError")


def _ask_identity(address: str, timeout: float) -> Any:
    """The peer's identity, or the exception that stopped the exchange (TimeoutError when
    it took more than ``timeout`` seconds)."""
    import asyncio

    from distributed.comm.core import connect

    async def ask() -> Any:
        comm = await connect(address, timeout=timeout)  # type: ignore[no-untyped-call]
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    try:
        return asyncio.run(asyncio.wait_for(ask(), timeout))
    except Exception as e:  # TimeoutError, or whatever the peer's bytes made of Dask's reader
        return e
