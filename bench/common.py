"""Shared by the benchmark scripts: child processes with their peak memory, the real
trec_eval binary, and Markdown tables.

Every measurement runs a fresh child process and takes its wall time (as a user waits)
and its peak resident memory (``os.wait4``: that child and its waited-for children,
such as worker processes). Nothing here is a test: the numbers depend on the machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
OUT = HERE / "out"
PYTHON = sys.executable
IRTABLES = [PYTHON, "-m", "irtables"]
STAMP_NAME = ".complete.json"  # written last: a partial generation is redone


@dataclass(frozen=True)
class Timing:
    """Wall seconds (median of the repeats), peak resident memory (MiB, the largest) and
    CPU seconds (user + system, of the run with the median wall time)."""

    seconds: float
    peak_mib: float
    cpu: float = 0.0


class BenchError(RuntimeError):
    """A measured command failed."""


def run_child(argv: Sequence[str], *, cwd: Path = REPO) -> tuple[float, float, float]:
    """Run ``argv``; return (wall seconds, peak MiB, CPU seconds). A failure raises.

    Peak memory is the largest total resident set of the process and all its descendants
    (sampled every 10 ms from /proc: worker processes of a pool are not waited for by the
    child itself, so its own rusage would miss them), and at least the child's own
    ``ru_maxrss``. CPU seconds are user + system time of the child and of the
    descendants it waited for.
    """
    with tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            list(argv), cwd=cwd, stdout=subprocess.DEVNULL, stderr=err, text=True
        )
        peak_kib, tree_cpu = 0, {}
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            kib, cpu = _tree_usage(proc.pid)
            peak_kib = max(peak_kib, kib)
            tree_cpu.update(cpu)
            time.sleep(0.01)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read()
    if proc.returncode != 0:
        raise BenchError(f"{' '.join(argv[:4])} ... exited {proc.returncode}:\n{stderr[-2000:]}")
    own = usage.ru_utime + usage.ru_stime
    others = sum(t for p, t in tree_cpu.items() if p != proc.pid)
    return seconds, max(peak_kib, usage.ru_maxrss) / 1024.0, own + others


@dataclass(frozen=True)
class Waited:
    """A child process run to its end: exit status, wall seconds, peak resident MiB, CPU
    seconds (user + system), its standard output (when kept) and standard error."""

    code: int
    seconds: float
    peak_mib: float
    cpu: float
    stdout: str
    stderr: str


def wait_child(argv: Sequence[str], *, cwd: Path = REPO, keep_stdout: bool = False) -> Waited:
    """Run ``argv`` to its end, without sampling its descendants (see :func:`run_child`).

    ``os.wait4`` gives the rusage of the child and of the processes it waited for (the
    supplement's pdflatex, say, but not a pool's workers): CPU time is their sum, peak
    memory the largest of them. A failure is returned, not raised.
    """
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        stdout = out if keep_stdout else subprocess.DEVNULL
        proc = subprocess.Popen(list(argv), cwd=cwd, stdout=stdout, stderr=err, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: tell Popen
        out.seek(0)
        err.seek(0)
        return Waited(
            proc.returncode,
            seconds,
            usage.ru_maxrss / 1024.0,  # Linux reports KiB
            usage.ru_utime + usage.ru_stime,
            out.read(),
            err.read(),
        )


_TICK = os.sysconf("SC_CLK_TCK")


def _tree_usage(root: int) -> tuple[int, dict[int, float]]:
    """Resident KiB of ``root`` and its descendants, and each one's CPU seconds so far."""
    children: dict[int, list[int]] = {}
    stats: dict[int, tuple[int, float]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, parent = int(entry), int(fields[1])
        children.setdefault(parent, []).append(pid)
        cpu = (int(fields[11]) + int(fields[12])) / _TICK
        stats[pid] = (int(fields[21]) * os.sysconf("SC_PAGE_SIZE") // 1024, cpu)
    total, cpu_of, todo = 0, {}, [root]
    while todo:
        pid = todo.pop()
        if pid in stats:
            total += stats[pid][0]
            cpu_of[pid] = stats[pid][1]
        todo.extend(children.get(pid, []))
    return total, cpu_of


def precompile() -> None:
    """Compile irtables' modules to bytecode, as installing the package does (with
    ``PYTHONDONTWRITEBYTECODE`` set, an editable install would compile them from source
    in every measured process)."""
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("irtables")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        compileall.compile_dir(folder, quiet=1)


def measure(argv: Sequence[str], *, repeat: int = 1, cwd: Path = REPO) -> Timing:
    """Median wall time and largest peak memory of ``repeat`` runs of ``argv``."""
    runs = sorted((run_child(argv, cwd=cwd) for _ in range(max(repeat, 1))), key=lambda r: r[0])
    middle = runs[len(runs) // 2]
    return Timing(middle[0], max(r[1] for r in runs), middle[2])


def measure_sequence(commands: Sequence[Sequence[str]]) -> Timing:
    """Total wall time of commands run one after the other (as a shell loop would), and
    the largest peak memory among them."""
    total, peak, cpu = 0.0, 0.0, 0.0
    for argv in commands:
        seconds, mib, used = run_child(argv)
        total, peak, cpu = total + seconds, max(peak, mib), cpu + used
    return Timing(total, peak, cpu)


def generate(shape: object, folder: Path, runs: int) -> tuple[Path, list[Path]]:
    """Qrels and ``runs`` runs of a :class:`make_runs.Shape` in ``folder``, generated by
    ``make_runs.py`` in a child process (once: a stamp records what is there).

    In a child, so that this process stays small: a child's peak memory as the kernel
    reports it starts from its parent's size at the fork.
    """
    from dataclasses import asdict

    params = asdict(shape)  # type: ignore[call-overload]
    argv = [PYTHON, str(HERE / "make_runs.py"), str(folder), "--runs", str(runs)]
    argv += ["--name", params["name"], "--topics", str(params["topics"])]
    argv += ["--depth", str(params["depth"]), "--judged", repr(params["judged"])]
    argv += ["--relevant", repr(params["relevant"])]
    argv += [] if params["string_ids"] else ["--integer-ids"]
    argv += ["--graded"] if params["graded"] else []
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    return folder / "qrels.txt", [folder / f"run{i + 1:02d}.txt" for i in range(runs)]


def ensure_synthetic(folder: Path, datasets: int, systems: int, queries: int) -> None:
    """Generate a synthetic study with ``bench/make_synthetic.py`` (seed 0) into ``folder``
    unless a complete one with the same parameters is there (a stamp, written last,
    records it)."""
    params = {"datasets": datasets, "systems": systems, "queries": queries}
    stamp = folder / STAMP_NAME
    if stamp.is_file() and json.loads(stamp.read_text()) == params:
        return
    sys.path.insert(0, str(HERE))
    from make_synthetic import generate

    print(
        f"generating {datasets} datasets x {systems} systems x {queries:,} queries "
        f"in {folder.relative_to(REPO)} ...",
        flush=True,
    )
    start = time.perf_counter()
    if stamp.exists():
        stamp.unlink()
    for old in folder.glob("*/*.tsv"):
        old.unlink()
    rows = generate(folder, datasets, systems, queries, seed=0)
    stamp.write_text(json.dumps(params))
    print(f"  {rows:,} rows in {time.perf_counter() - start:.1f} s", flush=True)


def trec_eval_binary() -> Path:
    """The real trec_eval 9.0.8, built from ../shared/tools (once, cached)."""
    sys.path.insert(0, str(REPO / "tests"))
    from trec_eval_binary import build_trec_eval

    return build_trec_eval("9.0.8")


def have_pytrec_eval() -> bool:
    """Whether pytrec_eval (pytrec-eval-terrier) is installed here."""
    import importlib.util

    return importlib.util.find_spec("pytrec_eval") is not None


# Runs in a child: pytrec_eval on a qrels file and runs, as a user's script would
# (its own parsers, one evaluator for all runs); prints nothing, writes the means.
PYTREC_EVAL = """
import sys, pytrec_eval
qrels_path, measures, *runs = sys.argv[1:]
with open(qrels_path) as f:
    qrels = pytrec_eval.parse_qrel(f)
evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(measures.split(",")))
for path in runs:
    with open(path) as f:
        run = pytrec_eval.parse_run(f)
    per_query = evaluator.evaluate(run)
    del run, per_query
"""


def markdown(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table; numbers right-aligned."""

    def cell(x: object) -> str:
        return f"{x:.2f}" if isinstance(x, float) else str(x)

    lines = ["| " + " | ".join(header) + " |"]
    lines.append("| " + " | ".join("---:" if i else "---" for i in range(len(header))) + " |")
    lines += ["| " + " | ".join(cell(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)


def verdict(ok: bool) -> str:
    """``met`` or ``MISSED``."""
    return "met" if ok else "MISSED"
