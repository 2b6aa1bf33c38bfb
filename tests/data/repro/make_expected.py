"""Write the test study of tests/data/repro and the numbers repro_eval gives on it.

Not run by the test suite: it needs repro_eval 0.5.0 (irgroup/repro_eval, MIT, commit
63b5d8c), which is no dependency of irtables. To run it, outside the repository::

    python3 -m venv /tmp/re-venv
    /tmp/re-venv/bin/pip install numpy scipy tqdm pytrec-eval-terrier ir-measures pandas \
        ruamel.yaml GitPython py-cpuinfo
    /tmp/re-venv/bin/pip install --no-deps -e PATH/TO/repro_eval   # checkout of 63b5d8c
    /tmp/re-venv/bin/python tests/data/repro/make_expected.py

It writes (deterministically, seed 30) the runs and qrels of one original study
(``orig/``: a baseline and an advanced run on collection A), a reproduction on the same
collection (``rpd/``) and a replication on collection B (``rpl/``); scores have one
decimal, so that many documents tie, and runs are written in score order, ties in file
order shuffled. Then ``expected.json``: every measure of repro_eval at every cutoff.
The versions it ran with are recorded in the file.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CUTOFFS = (5, 10, 20, 50, 100, 1000)
MEASURES = ("AP", "nDCG@10", "P@10", "RR")
REPRO_EVAL_COMMIT = "63b5d8c"


def _qrels(rng: random.Random, topics: list[str]) -> str:
    lines = []
    for t in topics:
        for d in range(80):
            grade = rng.choices([0, 1, 2], weights=[6, 3, 1])[0]
            if rng.random() < 0.7:
                lines.append(f"{t} 0 d{d:03d} {grade}")
    return "\n".join(lines) + "\n"


def _ranking(
    rng: random.Random, pool: list[str], length: int, boost: set[str]
) -> list[tuple[str, float]]:
    scored = []
    for doc in rng.sample(pool, length):
        s = rng.random() * 10 + (3 if doc in boost else 0)
        scored.append((doc, round(s, 1)))
    scored.sort(key=lambda x: -x[1])  # score order; equal scores stay in sampled order
    return scored


def _perturb(
    rng: random.Random, ranking: list[tuple[str, float]], pool: list[str]
) -> list[tuple[str, float]]:
    """A reproduction: the same length, some documents replaced, scores jittered."""
    have = {d for d, _ in ranking}
    out = []
    for doc, s in ranking:
        if rng.random() < 0.2:
            doc = rng.choice([p for p in pool if p not in have])
            have.add(doc)
        out.append((doc, round(max(0.0, s + rng.choice([-0.3, -0.1, 0.0, 0.0, 0.1, 0.2])), 1)))
    out.sort(key=lambda x: -x[1])
    return out


def _write_run(path: Path, runs: dict[str, list[tuple[str, float]]], tag: str) -> None:
    lines = []
    for topic, ranking in runs.items():
        lines += [f"{topic} Q0 {d} {i + 1} {s:.1f} {tag}" for i, (d, s) in enumerate(ranking)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_study() -> None:
    """The runs and qrels, written under HERE."""
    rng = random.Random(30)
    topics_a = [str(t) for t in range(301, 313)]
    topics_b = [str(t) for t in range(401, 415)]
    pool = [f"d{d:03d}" for d in range(300)]
    for name in ("orig", "rpd", "rpl"):
        (HERE / name).mkdir(exist_ok=True)
    qrels_a = _qrels(rng, topics_a)
    qrels_b = _qrels(rng, topics_b)
    for name, q in (("orig", qrels_a), ("rpd", qrels_a), ("rpl", qrels_b)):
        (HERE / name / "qrels.txt").write_text(q, encoding="utf-8")
    rel_a = _relevant(qrels_a)
    rel_b = _relevant(qrels_b)
    lengths = {t: rng.randint(25, 120) for t in topics_a}
    orig_b = {t: _ranking(rng, pool, lengths[t], set()) for t in topics_a}
    orig_a = {t: _ranking(rng, pool, lengths[t], rel_a.get(t, set())) for t in topics_a}
    rpd_b = {t: _perturb(rng, r, pool) for t, r in orig_b.items()}
    rpd_a = {t: _perturb(rng, r, pool) for t, r in orig_a.items()}
    rpl_b = {t: _ranking(rng, pool, rng.randint(25, 120), set()) for t in topics_b}
    rpl_a = {t: _ranking(rng, pool, rng.randint(25, 120), rel_b.get(t, set())) for t in topics_b}
    for folder, base, adv in (
        ("orig", orig_b, orig_a),
        ("rpd", rpd_b, rpd_a),
        ("rpl", rpl_b, rpl_a),
    ):
        _write_run(HERE / folder / "bm25.run", base, "bm25")
        _write_run(HERE / folder / "rm3.run", adv, "rm3")


def _relevant(qrels: str) -> dict[str, set[str]]:
    rel: dict[str, set[str]] = {}
    for line in qrels.splitlines():
        t, _, d, g = line.split()
        if int(g) >= 1:
            rel.setdefault(t, set()).add(d)
    return rel


def _paths(kind: str) -> dict[str, str]:
    paths = {
        "qrels_orig_path": str(HERE / "orig" / "qrels.txt"),
        "run_b_orig_path": str(HERE / "orig" / "bm25.run"),
        "run_a_orig_path": str(HERE / "orig" / "rm3.run"),
        "run_b_rep_path": str(HERE / kind / "bm25.run"),
        "run_a_rep_path": str(HERE / kind / "rm3.run"),
    }
    if kind == "rpl":
        paths["qrels_rpl_path"] = str(HERE / "rpl" / "qrels.txt")
    return paths


def _pick(scores: dict[str, float]) -> dict[str, float]:
    return {m: float(scores[m]) for m in MEASURES}


def _means(per_topic: dict[str, dict[str, float]]) -> dict[str, float]:
    return {m: sum(v[m] for v in per_topic.values()) / len(per_topic) for m in MEASURES}


def expected() -> dict[str, object]:
    """Every measure repro_eval computes on the study, keyed as the tests read them."""
    from repro_eval.Evaluator import RpdEvaluator, RplEvaluator

    out: dict[str, object] = {}
    order: dict[str, dict[str, dict[str, float]]] = {"ktu": {}, "rbo": {}}
    for k in CUTOFFS:
        rpd = RpdEvaluator(**_paths("rpd"))
        rpd.trim(k)
        ktu = rpd.ktu()
        rbo = rpd.rbo()
        for system, key in (("bm25", "baseline"), ("rm3", "advanced")):
            order["ktu"].setdefault(system, {})[str(k)] = float(ktu[key])
            order["rbo"].setdefault(system, {})[str(k)] = float(rbo[key])
    rpd = RpdEvaluator(**_paths("rpd"))
    rpd.trim()
    rpd.evaluate()
    out["reproducibility"] = {
        **order,
        "rmse": {s: _pick(v) for s, v in _by_system(rpd.rmse()).items()},
        "nrmse": {s: _pick(v) for s, v in _by_system(rpd.nrmse()).items()},
        "er": _pick(rpd.er()),
        "delta_ri": _pick(rpd.dri()),
        "pvalue": {s: _pick(v) for s, v in _by_system(rpd.ttest()).items()},
        "original_mean": {
            "bm25": _means(rpd.run_b_orig_score),
            "rm3": _means(rpd.run_a_orig_score),
        },
        "reproduced_mean": {
            "bm25": _means(rpd.run_b_rep_score),
            "rm3": _means(rpd.run_a_rep_score),
        },
    }
    rpl = RplEvaluator(**_paths("rpl"))
    rpl.trim()
    rpl.evaluate()
    out["replicability"] = {
        "er": _pick(rpl.er()),
        "delta_ri": _pick(rpl.dri()),
        "pvalue": {s: _pick(v) for s, v in _by_system(rpl.ttest()).items()},
        "original_mean": {
            "bm25": _means(rpl.run_b_orig_score),
            "rm3": _means(rpl.run_a_orig_score),
        },
        "reproduced_mean": {
            "bm25": _means(rpl.run_b_rep_score),
            "rm3": _means(rpl.run_a_rep_score),
        },
    }
    return out


def _by_system(result: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    return {"bm25": result["baseline"], "rm3": result["advanced"]}


def main() -> None:
    """Write the study and expected.json."""
    import numpy
    import scipy

    write_study()
    data = {
        "generated_by": "tests/data/repro/make_expected.py",
        "repro_eval": {"version": "0.5.0", "commit": REPRO_EVAL_COMMIT},
        "python": sys.version.split()[0],
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
        "cutoffs": list(CUTOFFS),
        "measures": list(MEASURES),
        "rbo": {"p": 0.95, "depth": 1000},
        **expected(),
    }
    (HERE / "expected.json").write_text(
        json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
