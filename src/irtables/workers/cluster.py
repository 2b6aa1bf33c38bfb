"""Work on a Dask cluster: ``--scheduler tcp://host:8786`` (or ``IRTABLES_SCHEDULER``).

The jobs that a local pool would run (:mod:`irtables.workers.executor`) go to the cluster's
workers through ``distributed.Client.get_executor()``, a
:class:`concurrent.futures.Executor` like the pool. A job whose worker died is run again
by Dask on another worker (``distributed.scheduler.allowed-failures`` times; then it
is one error line here).
Jobs name their files by path: the workers must see them at the same paths (a shared
filesystem), and a worker that cannot read one fails with the same one-line error as
here. Dask (the ``irtables[dask]`` extra) is imported only when a scheduler is given.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from irtables.errors import InputError

if TYPE_CHECKING:
    from concurrent.futures import Executor

#: The environment variable naming the scheduler when no option does (read by the commands).
SCHEDULER_ENV = "IRTABLES_SCHEDULER"
#: Seconds to wait for the scheduler before giving up.
CONNECT_TIMEOUT = 10.0


@contextmanager
def cluster_executor(address: str, *, timeout: float = CONNECT_TIMEOUT) -> Iterator[Executor]:
    """An executor whose jobs run on the Dask cluster of the scheduler at ``address``.

    Raises :class:`~irtables.errors.InputError` when Dask is not installed, nothing
    listens at the address (at once: no wait), or the scheduler does not answer within
    ``timeout`` seconds.
    """
    try:
        from distributed import Client, KilledWorker
    except ImportError:
        raise InputError(
            f"--scheduler {address}: Dask is not installed (pip install 'irtables[dask]')"
        ) from None
    refused = _refused(address, timeout)
    if refused is not None:
        raise InputError(f"cannot reach the Dask scheduler at {address} ({refused})")
    try:
        client = Client(address, timeout=f"{timeout}s", set_as_default=False)  # type: ignore[no-untyped-call]
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
