"""Bad input never costs more than reading it (issue 24 §5, issue 23 §2): every input is
checked while it streams (line length, NUL bytes, expansion of compressed data), so a
small pathological file is refused within bounded memory; compressed inputs of every
common format are read like gzip (issue 19 §4). Memory is measured in a child process
(its peak resident size), never time."""

from __future__ import annotations

import bz2
import gzip
import lzma
import re
import subprocess
import sys
import textwrap
import zlib
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest

from irtables.errors import InputError
from irtables.loaders.qrels import read_qrels
from irtables.loaders.source import MAX_LINE_BYTES, open_input, read_bytes
from irtables.loaders.trec_run import read_run
from irtables.model import ResultSet
from tests.conftest import RUNS, peak_memory_of

MIB = 1 << 20
#: Each bomb expands to this: reading it whole would take at least as much memory.
EXPANDED = 256 * MIB
#: The peak a child may reach: imports (pandas, pyarrow) and bounded buffers.
BOUND = 160 * MIB

READERS = {
    "results": "from irtables.loaders import load_results as read",
    "run": "from irtables.loaders.trec_run import read_run as read",
    "qrels": "from irtables.loaders.qrels import read_qrels as read",
}


def _gzip_of(path: Path, chunk: bytes, total: int) -> Path:
    """A gzip file expanding to ``total`` bytes of ``chunk`` repeated (written streaming)."""
    with gzip.open(path, "wb", compresslevel=9) as handle:
        block = chunk * (MIB // len(chunk))
        for _ in range(total // len(block)):
            handle.write(block)
    return path


@pytest.fixture(scope="module")
def bombs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("bombs")
    return {
        "NUL bytes": _gzip_of(folder / "nul.txt.gz", b"\0", EXPANDED),
        "one long line": _gzip_of(folder / "line.txt.gz", b"1", EXPANDED),
        "repeated lines": _gzip_of(folder / "lines.txt.gz", b"map\t1\t0.5\n", EXPANDED),
        # a quarter of the size: still past the expansion allowed (about 22 MiB)
        "blank lines": _gzip_of(folder / "blank.txt.gz", b"\n", EXPANDED // 4),
        "lines of spaces": _gzip_of(folder / "spaces.txt.gz", b"  \t \n", EXPANDED // 4),
    }


def _read_in_child(reader: str, path: Path) -> tuple[int, str]:
    """Peak memory of a child reading ``path`` with ``reader``, and its error text."""
    code = textwrap.dedent(
        f"""
        {READERS[reader]}
        from irtables.errors import InputError
        try:
            read({str(path)!r})
        except InputError as e:
            print("ERROR", e)
        """
    )
    peak, done = peak_memory_of(code)
    errors = [line for line in done.stdout.splitlines() if line.startswith("ERROR ")]
    assert len(errors) == 1, done.stdout + done.stderr
    return peak, errors[0]


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize(
    ("bomb", "expected"),
    [
        ("NUL bytes", ":1: expected text, found a NUL byte"),
        ("one long line", ":1: line longer than 1 MiB"),
        # a run or qrels reader stops at the first line; a per-query file at the limit
        ("repeated lines", r"(gzip data expands more than 100 times|:1: expected \d columns)"),
        # nothing to refuse in a line: read (in bounded memory) up to the expansion allowed
        ("blank lines", "gzip data expands more than 100 times"),
        ("lines of spaces", "gzip data expands more than 100 times"),
    ],
)
def test_a_gzip_bomb_is_refused_in_bounded_memory(
    bombs: dict[str, Path], reader: str, bomb: str, expected: str
) -> None:
    """1 MB gzip files expanding to NULs or one long line took 2.2-3 GB before
    ``expected 6 columns`` on line 1."""
    peak, error = _read_in_child(reader, bombs[bomb])
    assert re.search(expected, error), error
    bound = BOUND
    if "expands more than" in error:  # read up to the expansion allowed, then refused
        bound += 100 * bombs[bomb].stat().st_size + 16 * MIB
    assert bound < EXPANDED  # still less than reading the whole bomb would take
    assert peak < bound, f"peak {peak / MIB:.0f} MiB reading {bomb} as {reader}"


@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_50_mb_line_is_refused_in_bounded_memory(tmp_path: Path, reader: str) -> None:
    path = tmp_path / "long.txt"
    with path.open("wb") as handle:
        handle.write(b"1 Q0 d1 1 1.0 r\n" if reader == "run" else b"")
        for _ in range(50):
            handle.write(b"x" * MIB)
    peak, error = _read_in_child(reader, path)
    line = 2 if reader == "run" else 1
    assert f":{line}: line longer than 1 MiB" in error, error
    assert peak < BOUND, f"peak {peak / MIB:.0f} MiB"


def test_lines_up_to_the_limit_are_read(tmp_path: Path) -> None:
    """The limit is the stated one: a run line of exactly MAX_LINE_BYTES (without its
    newline) is read, one byte more is not, wherever the line starts."""
    doc = "d" * (MAX_LINE_BYTES - len("1 Q0  1 2.5 r"))
    path = tmp_path / "wide.run"
    path.write_text(f"1 Q0 d2 2 1.5 r\n1 Q0 {doc} 1 2.5 r\n1 Q0 d3 3 1.0 r\n")
    assert read_run(path).docid.to_pylist() == ["d2", doc, "d3"]
    path.write_text(f"1 Q0 d2 2 1.5 r\n1 Q0 {doc}x 1 2.5 r\n")
    with pytest.raises(InputError, match=r"wide\.run:2: line longer than 1 MiB"):
        read_run(path)


def test_a_nul_byte_is_named_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "q.qrels"
    path.write_bytes(b"1 0 d1 1\n1 0 d2 0\n1 0 d\x003 1\n")
    with pytest.raises(InputError, match=r"q\.qrels:3: expected text, found a NUL byte"):
        read_qrels(path)


def test_parquet_is_not_read_as_text(tmp_path: Path) -> None:
    """Binary inputs hold NUL bytes and long runs of bytes without a newline."""
    import pyarrow.parquet as pq

    path = tmp_path / "r.parquet"
    table = pa.table({"query": ["1"] * 3, "metric": ["AP"] * 3, "value": [0.0, 0.5, 1.0]})
    pq.write_table(table, path)
    assert read_bytes(path) == path.read_bytes()


COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    "gz": gzip.compress,
    "bz2": bz2.compress,
    "xz": lzma.compress,
    "zst": lambda data: pa.compress(data, codec="zstd", asbytes=True),
}


@pytest.mark.filterwarnings("ignore:.*1 run queries are not in the qrels")
@pytest.mark.parametrize("ext", sorted(COMPRESSORS))
def test_compressed_runs_and_qrels_are_read_like_plain_ones(tmp_path: Path, ext: str) -> None:
    from irtables.evaluator import evaluate

    compress = COMPRESSORS[ext]
    run = tmp_path / f"bm25.run.{ext}"
    qrels = tmp_path / f"tiny.qrels.{ext}"
    run.write_bytes(compress((RUNS / "tiny.run").read_bytes()))
    qrels.write_bytes(compress((RUNS / "tiny.qrels").read_bytes()))
    plain = evaluate(RUNS / "tiny.qrels", RUNS / "tiny.run", ["AP", "P@5"])
    packed = evaluate(qrels, run, ["AP", "P@5"])
    assert packed.systems() == ("bm25",)
    assert packed.frame["value"].tolist() == plain.frame["value"].tolist()
    assert read_run(run).runid == read_run(RUNS / "tiny.run").runid


@pytest.mark.parametrize("ext", sorted(COMPRESSORS))
def test_compressed_per_query_files_are_read_like_plain_ones(tmp_path: Path, ext: str) -> None:
    from irtables.loaders import load_results

    text = b"map\t301\t0.25\nmap\t302\t0.5\nP_10\t301\t0.3\nP_10\t302\t0.1\n"
    folder = tmp_path / "r" / "dl"
    folder.mkdir(parents=True)
    (folder / f"bm25.txt.{ext}").write_bytes(COMPRESSORS[ext](text))
    (folder / "plain.txt").write_bytes(text)
    results = load_results(tmp_path / "r")
    assert results.systems() == ("bm25", "plain")
    frame = results.frame.sort_values(["system", "query", "metric"])
    by_system = frame.groupby("system")["value"].apply(list)
    assert by_system["bm25"] == by_system["plain"]


@pytest.mark.parametrize("ext", sorted(COMPRESSORS))
def test_broken_compressed_data_is_one_input_error(tmp_path: Path, ext: str) -> None:
    data = COMPRESSORS[ext]((RUNS / "tiny.run").read_bytes() * 50)
    path = tmp_path / f"r.run.{ext}"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(InputError, match=r"r\.run\.\w+: (broken or truncated|expected)"):
        read_run(path)


def test_expansion_is_counted_against_the_file_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "x.txt.gz"
    path.write_bytes(gzip.compress(b"map\t1\t0.5\n" * (4 * MIB)))  # 40 MiB from ~40 kB
    with pytest.raises(InputError, match="expands more than 100 times"), open_input(path) as s:
        s.readall()
    assert zlib.decompress(gzip.compress(b"ok"), 31) == b"ok"  # the format is plain gzip


def _count_calls(
    monkeypatch: pytest.MonkeyPatch, owner: object, name: str, counter: dict[str, int]
) -> None:
    original = getattr(owner, name)

    def counted(*args: object, **kwargs: object) -> object:
        counter[name] = counter.get(name, 0) + 1
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)


def test_many_tiny_files_are_each_read_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """1,000 tiny result files: each opened once, each folder listed a bounded number of
    times and its record read once (the work grows with the files, not their square)."""
    import irtables.base.record as record
    import irtables.loaders.source as source
    from irtables.loaders import load_results

    n = 1000
    folder = tmp_path / "r" / "dl"
    folder.mkdir(parents=True)
    for i in range(n):
        (folder / f"s{i:04d}.txt").write_text(f"map\t1\t{i / n}\nmap\t2\t0.25\n")
    counter: dict[str, int] = {}
    _count_calls(monkeypatch, source, "open_input", counter)
    _count_calls(monkeypatch, record, "read_record", counter)
    _count_calls(monkeypatch, Path, "iterdir", counter)
    assert len(load_results(tmp_path / "r").systems()) == n
    assert counter["open_input"] == n
    assert counter["read_record"] <= 2  # r/ and r/dl/: records above r/ are not read
    assert counter["iterdir"] <= 2 * 4  # each of the two folders listed at most four times


def _listings_of_nested(root: Path, where: str, depth: int, mp: pytest.MonkeyPatch) -> int:
    """How many folder listings discovery makes when a folder ``depth`` levels deep
    sits at ``where``."""
    from irtables.loaders import load_results

    results = root / "r"
    (results / "dl").mkdir(parents=True)
    (results / "dl" / "bm25.txt").write_text("map\t1\t0.5\n")
    top = {"system folder": results / "dl" / "deep", "dataset folder": results / "deep"}
    deep = top.get(where, results / ".deep")
    for _ in range(depth):
        deep = deep / "n"
    deep.mkdir(parents=True)
    (deep / "x.txt").write_text("map\t1\t0.5\n")
    counter: dict[str, int] = {}
    with mp.context() as patch:
        _count_calls(patch, Path, "iterdir", counter)
        if where == "hidden":
            assert load_results(results).systems() == ("bm25",)
        else:
            with pytest.raises(InputError, match="unexpected folder 'n'"):
                load_results(results)
    return counter["iterdir"]


@pytest.mark.parametrize("where", ["system folder", "dataset folder", "hidden"])
def test_deeply_nested_folders_cost_what_the_top_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """A folder nested 300 levels deep is refused (or skipped) after listing as many
    folders as one nested 5 levels: discovery never descends past a run's folder."""
    shallow = _listings_of_nested(tmp_path / "a", where, 5, monkeypatch)
    deep = _listings_of_nested(tmp_path / "b", where, 300, monkeypatch)
    assert deep == shallow <= 40


def _parquet_bomb(path: Path, rows: int, columns: dict[str, object]) -> None:
    """A Parquet file of ``rows`` rows of constant values: a few kB on disk."""
    import pyarrow.parquet as pq

    block = 1 << 20
    table = pa.table({name: pa.array([value] * block) for name, value in columns.items()})
    with pq.ParquetWriter(path, table.schema, compression="zstd") as writer:
        for _ in range(rows // block):
            writer.write_table(table)


@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_parquet_bomb_is_refused_from_its_footer(tmp_path: Path, reader: str) -> None:
    """Parquet is compressed data too: 16 million constant rows in a few hundred kB."""
    columns: dict[str, dict[str, object]] = {
        "results": {"query": "1", "metric": "AP", "value": 0.5},
        "run": {"query": "1", "docid": "d1", "score": 1.0},
        "qrels": {"query": "1", "docid": "d1", "relevance": 1},
    }
    path = tmp_path / "bomb.parquet"
    _parquet_bomb(path, 16 << 20, columns[reader])
    assert path.stat().st_size < 2 * MIB
    peak, error = _read_in_child(reader, path)
    assert "Parquet data of 16777216 rows expands more than 100 times" in error, error
    assert peak < BOUND, f"peak {peak / MIB:.0f} MiB"


def test_a_real_parquet_file_is_read(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    from irtables.loaders import load_results

    path = tmp_path / "dl" / "bm25.parquet"
    path.parent.mkdir()
    n = 5000
    table = pa.table(
        {
            "query": [str(q) for q in range(n)],
            "metric": ["AP"] * n,
            "value": [q / n for q in range(n)],
        }
    )
    pq.write_table(table, path)
    assert len(load_results(tmp_path).frame) == n


def test_many_metric_names_are_merged_in_linear_time(tmp_path: Path) -> None:
    """Raw metric names become canonical ones in one pass: 200,000 distinct names (a wide
    file with a column per metric) in a child process given 60 s. The old merge looked
    each name up in a list (``list.index``), 2e10 comparisons here: a 1 MB file of
    60,000 columns took 28 s to lint."""
    code = textwrap.dedent(
        """
        from types import SimpleNamespace

        import numpy as np
        from irtables.loaders import normalize
        from irtables.model.factor import Factor

        n = 200_000
        spelled = [f"P@{i + 1}" for i in range(n)] + ["P_1"]  # two spellings of P@1
        canonical = {"P_1": "P@1"}  # (parsing itself is not what is measured)
        normalize.parse_measure = lambda raw: SimpleNamespace(name=canonical.get(raw, raw))
        factor = Factor(tuple(spelled), np.arange(n + 1, dtype=np.int32))
        merged, measures = normalize._canonical(factor, "x", None)
        print(len(merged.categories), len(measures), merged.codes[-1])
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["200000", "200000", "0"], done.stderr


def test_the_columns_of_a_large_sweep_are_found_in_linear_time() -> None:
    """Every system's column of a sweep of 100,000 systems, in a child process given 60 s
    (each looked up in the list of systems before: 5e9 comparisons)."""
    code = textwrap.dedent(
        """
        import numpy as np
        from irtables.model.results import Aligned

        n = 100_000
        systems = tuple(f"run{i}" for i in range(n))
        aligned = Aligned(queries=("q1", "q2"), systems=systems, matrix=np.ones((2, n)))
        print(sum(float(aligned.column(s).sum()) for s in systems))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["200000.0"], done.stderr


def test_the_systems_of_a_large_sweep_are_filtered_in_linear_time() -> None:
    """Table S1 keeps the systems of each dataset that it shows, and a table's seed counts
    those of the systems it shows: 200,000 systems in a child process given 60 s (each
    was looked up in a tuple of every system before: 2e10 comparisons each)."""
    code = textwrap.dedent(
        """
        from irtables.config import Config
        from irtables.config.tables import default_tables
        from irtables.tables.layouts import Means, build_k_breakdown
        from irtables.tables.metrics import MetricIndex

        n = 200_000
        names = tuple(f"run{i}" for i in range(n))
        runs = {("d", names[-1]): 3}
        m = Means({}, {}, {}, ("d",), {"d": names}, MetricIndex({}), runs=runs)
        spec = next(t for t in default_tables() if t.name == "k_breakdown")
        print(len(build_k_breakdown(Config(), spec, m)), m.runs_in(("d",), Config(), names))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["0", "{'run199999':", "3}"], done.stderr


def test_the_configured_order_of_a_large_sweep_is_found_in_linear_time() -> None:
    """The display order of 200,000 systems that ``[[systems]]`` lists (in reverse), as
    the tables and the supplement ask it, in a child process given 60 s (each id was
    looked up in a list before: 2e10 comparisons)."""
    code = textwrap.dedent(
        """
        from irtables.config import Config, Named

        n = 200_000
        names = tuple(f"run{i}" for i in range(n))
        config = Config(systems=tuple(Named(s, s) for s in reversed(names[1:])))
        ordered = config.systems_in_order(names)
        print(ordered[0], ordered[-1], len(ordered))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["run199999", "run0", "200000"], done.stderr


def test_the_systems_named_for_a_comparison_are_checked_in_linear_time() -> None:
    """``compare(systems=...)`` naming 200,000 systems, in a child process given 60 s
    (each name was looked up in the tuple of the results' systems before, once to check
    it and once per dataset: 2e10 comparisons each). Only the dataset with a baseline is
    tested, so the check is what is measured."""
    code = textwrap.dedent(
        """
        import pandas as pd
        from irtables.model import ResultSet
        from irtables.stats.compare import compare

        n = 200_000
        names = [f"run{i}" for i in range(n)]
        rows = {
            "dataset": ["sweep"] * n + ["dl", "dl"],
            "system": names + ["bm25", "dense"],
            "query": ["q1"] * n + ["q1", "q1"],
            "metric": ["AP"] * (n + 2),
            "value": [0.5] * n + [0.2, 0.4],
        }
        results = ResultSet.from_frame(pd.DataFrame(rows))
        wanted = ["dense", "bm25", *reversed(names)]
        c = compare(results, systems=wanted, baseline={"dl": "bm25"}, metrics=["AP"])
        print(len(c.results), [d for d, _ in c.without_baseline])
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["1", "['sweep']"], done.stderr


def test_the_rows_of_many_interleaved_datasets_are_grouped_in_linear_time() -> None:
    """The rows of each of 400,000 datasets whose rows interleave (2,000,000 rows), in a
    child process given 60 s (each dataset's rows were found by a scan of every row
    before: 8e11 comparisons)."""
    code = textwrap.dedent(
        """
        import numpy as np
        import pandas as pd
        from irtables.model import ResultSet

        datasets, queries = 400_000, 5
        n = datasets * queries
        names = [f"d{i}" for i in range(datasets)]
        frame = pd.DataFrame(
            {
                "dataset": pd.Categorical.from_codes(np.arange(n) % datasets, names),
                "system": "bm25",
                "query": pd.Categorical.from_codes(np.arange(n) // datasets, list("abcde")),
                "metric": "AP",
                "value": 0.5,
            }
        )
        results = ResultSet.from_frame(frame)
        print(*results.systems("d0"), *results.systems(names[-1]))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["bm25", "bm25"], done.stderr


class _CountedName(str):
    """A name that counts the comparisons made with it (a set lookup makes about one)."""

    compared = 0

    def __eq__(self, other: object) -> bool:
        type(self).compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def _many_metrics(n: int) -> ResultSet:
    """Two systems on two queries of one dataset, on ``n`` metrics."""
    rows = [
        (
            "d",
            system,
            query,
            f"P@{k + 1}",
            0.1 * (k % 7) + 0.2 * (system == "b") + 0.05 * int(query),
        )
        for k in range(n)
        for system in ("a", "b")
        for query in ("1", "2", "3")
    ]
    return ResultSet.from_frame(
        pd.DataFrame(rows, columns=["dataset", "system", "query", "metric", "value"])
    )


def test_the_metrics_named_for_the_statistics_are_looked_up_in_a_set() -> None:
    """ANOVA, topic-set sizes and meta-analyses of 2,000 named metrics compare each name
    about once, not once per metric of the results (2e6 comparisons each before)."""
    from irtables.stats import PairedTestResult
    from irtables.stats.anova import anova_tables
    from irtables.stats.comparisons import Comparisons
    from irtables.stats.meta import meta_analyse
    from irtables.stats.topicset import topic_set_sizes

    n = 2000
    results = _many_metrics(n)
    named = [_CountedName(m) for m in reversed(results.metrics())]
    _CountedName.compared = 0
    assert len(anova_tables(results, metrics=named)) == n
    assert len(topic_set_sizes(results, metrics=named)) == n
    rows = tuple(
        PairedTestResult(
            test="t",
            method="t",
            n=50,
            mean_diff=0.02,
            statistic=1,
            pvalue=0.1,
            effect_size=0.3,
            dataset=d,
            metric=m,
            system="b",
            baseline="a",
        )
        for m in results.metrics()
        for d in ("d1", "d2")
    )
    assert len(meta_analyse(Comparisons(rows, "t", "holm", "metric", 0.05), metrics=named)) == n
    assert _CountedName.compared <= 3 * 4 * n


def test_the_display_names_of_a_large_sweep_are_found_in_linear_time() -> None:
    """The display name of each of 200,000 systems that ``[[systems]]`` lists, in a child
    process given 60 s (each was searched for in the list of systems before: 2e10 steps;
    Table 1 of 16,000 configured systems took 5 s for it)."""
    code = textwrap.dedent(
        """
        from irtables.config import Config, Named

        n = 200_000
        ids = [f"run{i}" for i in range(n)]
        config = Config(systems=tuple(Named(s, s.upper()) for s in ids))
        shown = [config.system_name(s) for s in ids]
        print(shown[0], shown[-1], config.system_name("other"), config.dataset_name("dl"))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["RUN0", "RUN199999", "other", "dl"], done.stderr


def test_many_measures_are_listed_once_each_in_linear_time() -> None:
    """100,000 measures to compute (one of them named twice) are listed once each, in a
    child process given 60 s (each was compared with every measure listed before it:
    5e9 comparisons; 8,000 took 6.6 s)."""
    code = textwrap.dedent(
        """
        from irtables.evaluator.values import check_options

        n = 100_000
        options = check_options([f"P@{k + 1}" for k in range(n)] + ["P_1"])
        print(len(options.measures), options.measures[0].name, options.measures[-1].name)
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["100000", "P@1", "P@100000"], done.stderr
