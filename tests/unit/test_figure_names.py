"""Names reach the supplement's figures as plain text: ``$`` is never mathtext.

Before: a system named ``cost $$`` stopped the supplement with matplotlib's
ParseException, and ``x_$\\alpha^2$`` was typeset as math (a subscript and a Greek
letter). The names here are made up by the test; what is checked is the figure's text
objects after the figure is laid out and saved.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.text import Text

from irtables.stats.meta import MetaAnalysis, Pooled, StudyEffect
from irtables.supplement.analysis import PerQuery, compare_queries
from irtables.supplement.figures import (
    MAX_PANELS,
    Series,
    difference_bars,
    k_curves,
    pr_curves,
    render_all,
)
from irtables.supplement.forest import forest_plot
from tests.conftest import results_from_rows

NAMES = ("cost $$", "x_$\\alpha^2$", "$5 \\$ off")


def _texts(fig: Figure) -> list[Text]:
    """Every text of the figure once saved (tick labels are made as it is drawn)."""
    rendered = render_all(fig)
    assert rendered["png"][:4] == b"\x89PNG" and rendered["pdf"][:5] == b"%PDF-"
    return [t for t in fig.findobj(Text) if t.get_text()]


def _plain(texts: list[Text]) -> list[str]:
    """The texts, each checked to be drawn as written (not parsed as mathtext)."""
    for t in texts:
        assert not t.get_parse_math(), t.get_text()
        assert t._preprocess_math(t.get_text()) == (t.get_text(), False)
    return [t.get_text() for t in texts]


def test_line_plots_show_names_with_dollars_as_written() -> None:
    lines = [Series(n, ((1.0, 0.1 * i), (10.0, 0.2 * i))) for i, n in enumerate(NAMES, 1)]
    k = _plain(_texts(k_curves(NAMES[0], {NAMES[1]: lines})))
    assert [n for n in NAMES if n in k] == list(NAMES)  # legend entries, the title
    assert f"{NAMES[1]}@K" in k
    pr = [Series(s.label, ((0.0, 0.5), (1.0, 0.2))) for s in lines]
    assert set(NAMES) <= set(_plain(_texts(pr_curves(NAMES[2], pr))))


def _per_query(systems: list[str]) -> list[tuple[str, PerQuery]]:
    rng = np.random.default_rng(0)
    rows = [
        ("d", s, f"q{q}", "AP", float(v))
        for s in ["base", *systems]
        for q, v in enumerate(rng.random(6))
    ]
    found = compare_queries(results_from_rows(rows), "d", "AP", ["base", *systems], "base")
    return [(p.system, p) for p in found]


def test_difference_panels_and_map_show_names_with_dollars_as_written() -> None:
    bars = _plain(_texts(difference_bars(NAMES[0], NAMES[1], _per_query(list(NAMES)))))
    for name in NAMES:
        assert sum(t.startswith(f"{name}: ") for t in bars) == 1, bars  # its panel's title
    many = [f"{n} {i}" for i in range(MAX_PANELS) for n in NAMES][: MAX_PANELS + 1]
    heat = _plain(_texts(difference_bars("T", NAMES[1], _per_query(many))))
    assert set(many) <= set(heat)  # the rows of the heat map
    assert f"Δ {NAMES[1]}" in heat


def test_forest_plot_shows_names_with_dollars_as_written() -> None:
    studies = (StudyEffect(NAMES[2], 50, 0.03, 0.3, 0.01, 0.1, 0.5, 1.0),)
    pooled = Pooled(0.3, 0.05, 0.2, 0.4, 2.0, 0.04, 0.001, 1.0, 1, 0.3, 0.2, (1.0,))
    meta = MetaAnalysis(NAMES[1], NAMES[0], "base", studies, pooled)
    texts = _plain(_texts(forest_plot(NAMES[0], [(NAMES[1], [meta])], str, str)))
    assert f"{NAMES[0]} vs base" in texts and f"  {NAMES[2]} (n=50)" in texts
