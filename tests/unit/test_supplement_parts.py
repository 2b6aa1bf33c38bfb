"""The pure parts of the supplement: analysis, methods model, bibliography, figures, manifest."""

from __future__ import annotations

import pytest

from irtables.config import parse_config
from irtables.model import ResultSet
from irtables.supplement.analysis import compare_queries
from irtables.supplement.bibliography import REFERENCES, bibtex, cited
from irtables.supplement.figures import Series, k_curves, pr_curves, render_all
from irtables.supplement.manifest import Manifest
from irtables.supplement.methods import methods_model
from irtables.supplement.report import change_rows, wtl_rows


def test_wins_ties_losses(tiny_results: ResultSet) -> None:
    (ap, ndcg) = (
        compare_queries(tiny_results, "toy", m, ["bm25", "dense"], "bm25")[0]
        for m in ("AP", "nDCG@10")
    )
    assert (ap.wins, ap.ties, ap.losses, ap.n) == (3, 0, 0, 3)
    assert (ndcg.wins, ndcg.ties, ndcg.losses) == (0, 3, 0)
    assert [c.query for c in ap.top_gains(2)] == ["q1", "q2"]  # equal gains: query order
    assert ap.top_losses(5) == () and ndcg.top_gains(5) == ()


def test_largest_losses_worst_first_equal_drops_in_query_order() -> None:
    from tests.conftest import results_from_rows

    drops = {"q5": -0.5, "q3": -0.2, "q1": -0.2, "q4": -0.2, "q2": 0.1, "q6": 0.0, "q7": -0.1}
    rows = [("d", "base", q, "AP", 0.6) for q in drops]
    rows += [("d", "x", q, "AP", 0.6 + d) for q, d in drops.items()]
    (pq,) = compare_queries(results_from_rows(rows), "d", "AP", ["base", "x"], "base")
    assert (pq.wins, pq.ties, pq.losses) == (1, 1, 5)
    assert [c.query for c in pq.top_losses(3)] == ["q5", "q1", "q3"]  # q4 ties q3: cut
    assert [c.query for c in pq.top_losses(9)] == ["q5", "q1", "q3", "q4", "q7"]
    assert [c.query for c in pq.top_gains(9)] == ["q2"]
    assert pq.top_losses(0) == ()
    (worst,) = pq.top_losses(1)
    assert (worst.baseline, worst.system) == (0.6, 0.6 - 0.5)


def test_report_rows_use_display_names(tiny_results: ResultSet) -> None:
    pq = compare_queries(tiny_results, "toy", "AP", ["bm25", "dense"], "bm25")
    rows = wtl_rows(pq, str.upper, str.title)
    assert rows == [["TOY", "MAP", "Dense", "Bm25", "3", "3", "0", "0"]]
    gains = change_rows(pq, 1, str, str)
    assert gains == [["toy", "MAP", "dense", "gain", "q1", "0.2000", "0.3000", "0.1000"]]


def test_methods_model_reports_what_was_computed() -> None:
    config = parse_config({"datasets": [{"id": "d", "name": "D"}]})
    used = {"d": ["nDCG@10", "nDCG@5", "AP(rel=2)", "RR(rel=2)@10", "RR(rel=2)"]}
    m = methods_model(config, used, {"d": 7}, None)
    assert [(e.family, e.ks, e.whole) for e in m.metrics] == [
        ("nDCG", (5, 10), False),
        ("RR", (10,), True),
        ("AP", (), True),
    ]
    assert m.ks == (5, 10)
    assert [(d.name, d.queries, d.relevance) for d in m.datasets] == [("D", 7, 2)]
    assert m.test is None and m.effect_cites == ()
    keys = {r.key for r in m.references}
    assert keys == {"jarvelin2002", "voorhees1999", "buckley2000", "keen1968"}


def test_bibtex_cites_only_what_is_asked() -> None:
    text = bibtex(cited(["holm1979", "unknown", "jarvelin2002"]))
    assert text.count("@") == 2
    assert 'J{\\"a}rvelin' in text and "@article{holm1979," in text
    assert all(r.fields and r.short and r.text for r in REFERENCES.values())


def test_figures_are_byte_identical() -> None:
    lines = [Series("a", ((1.0, 0.2), (10.0, 0.4))), Series("b_&", ((1.0, 0.3), (10.0, 0.5)))]
    first = render_all(k_curves("T", {"NDCG": lines}))
    second = render_all(k_curves("T", {"NDCG": lines}))
    assert first == second
    assert first["pdf"].startswith(b"%PDF") and first["png"].startswith(b"\x89PNG")
    for marker in (b"CreationDate", b"ModDate", b"Producer", b"Matplotlib"):
        assert marker not in first["pdf"]
    assert b"Software" not in first["png"]
    pr = render_all(pr_curves("PR", [Series("a", ((0.0, 1.0), (0.5, 0.5), (1.0, 0.1)))]))
    assert set(pr) == {"pdf", "png"}


def test_manifest_is_stable_json() -> None:
    settings = {"z": 1, "a": [1]}
    h1, h2, h3 = "ab" * 32, "12" * 32, "ef" * 32
    m = Manifest("0.1.0", "..", "../irtables.toml", h1, settings, {"../b": h2}, {"a": h3})
    text = m.to_json()
    assert text == Manifest.from_json(text).to_json()
    assert text.index('"config"') < text.index('"inputs"') < text.index('"outputs"')
    assert "date" not in text.lower()


@pytest.mark.parametrize("bad", ["{}", "not json", '{"irtables": 1}'])
def test_bad_manifest_is_an_input_error(bad: str) -> None:
    from irtables.errors import InputError

    with pytest.raises(InputError, match="not an irtables manifest"):
        Manifest.from_json(bad)
