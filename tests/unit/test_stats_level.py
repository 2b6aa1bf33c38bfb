"""Every test holds its level: under the null hypothesis it rejects about alpha of the time.

Each case draws ``REPLICATES`` independent studies in which the systems do not differ
(the scores of a topic are exchangeable between systems: a topic effect plus noise),
runs the test at alpha = 0.05 and counts rejections. With 2,000 replicates the standard
error of a 5% rate is 0.49%, so [3.5%, 6.5%] is about three standard errors either side:
a test at 5% passes, one at 7.2% or 9.2% (the shift-method bootstrap with 20 and 10
topics) fails. Tests whose p-values are discrete (sign, Wilcoxon exact, enumerated
randomization) cannot reach exactly 5% at every n: the sign test is checked against its
exact attainable size instead (below 5%, by the binomial distribution).

The studentized bootstrap is slightly conservative with few topics on these symmetric
differences (4.0% at n = 10 over 100,000 studies, docs/scripts/bootstrap_level.py; on
skewed differences its level exceeds 5% at n <= 20, as the t-test's does): its case here
runs 10,000 studies (standard error 0.2%), in blocks of 200
that share one set of 999 resamples (one matrix product per block, a seed per block),
and so does the randomization test. Run time: about two minutes on one core (marked
slow).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from irtables.stats import dunnett, randomized_tukey_hsd, sign_test, tukey_hsd, wilcoxon
from irtables.stats.anova import two_way_anova
from irtables.stats.paired import bootstrap_many, randomization_many
from irtables.stats.tukey import _q_critical
from irtables.stats.vectorised import t_test_many

pytestmark = pytest.mark.slow
ALPHA = 0.05
REPLICATES = 2_000
BLOCKS, BLOCK = 50, 200  # the resampling tests: 10,000 studies
LOW, HIGH = 0.035, 0.065
SIZES = (10, 20, 50)


def null_scores(n: int, k: int, seed: int) -> np.ndarray:
    """``REPLICATES`` studies of ``k`` systems on ``n`` topics with no system effect:
    shape (REPLICATES, n, k)."""
    rng = np.random.default_rng(seed)
    topic = rng.beta(2, 5, (REPLICATES, n, 1))
    return topic + rng.normal(0.0, 0.1, (REPLICATES, n, k))


def paired(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(n x REPLICATES) matrices of a system and a baseline, one column per study."""
    x = null_scores(n, 2, seed)
    return np.ascontiguousarray(x[:, :, 1].T), np.ascontiguousarray(x[:, :, 0].T)


def rate(pvalues: list[float] | np.ndarray) -> float:
    return float(np.mean(np.asarray(pvalues) <= ALPHA))


@pytest.mark.parametrize("n", SIZES)
def test_t_test_level(n: int) -> None:
    a, b = paired(n, 1 + n)
    assert LOW <= rate([r.pvalue for r in t_test_many(a, b)]) <= HIGH


def blocks(n: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """``BLOCKS`` pairs of (n x BLOCK) matrices: independent studies under the null."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(BLOCKS):
        x = rng.beta(2, 5, (n, BLOCK))[:, :, None] + rng.normal(0.0, 0.1, (n, BLOCK, 2))
        out.append((np.ascontiguousarray(x[:, :, 1]), np.ascontiguousarray(x[:, :, 0])))
    return out


@pytest.mark.parametrize("n", SIZES)
def test_studentized_bootstrap_level(n: int) -> None:
    found = [
        r.pvalue
        for i, (a, b) in enumerate(blocks(n, 2 + n))
        for r in bootstrap_many(a, b, n_resamples=999, rng=i)
    ]
    assert len(found) == 10_000 and LOW <= rate(found) <= HIGH


@pytest.mark.parametrize("n", SIZES)
def test_randomization_level(n: int) -> None:
    found = [
        r.pvalue
        for i, (a, b) in enumerate(blocks(n, 3 + n))
        for r in randomization_many(a, b, n_resamples=999, rng=i, exact_threshold=10)
    ]  # n = 10 enumerates the 1,024 sign patterns; n = 20 and 50 draw 999 of them
    assert len(found) == 10_000 and LOW <= rate(found) <= HIGH


@pytest.mark.parametrize("n", SIZES)
def test_wilcoxon_level(n: int) -> None:
    a, b = paired(n, 4 + n)
    found = [wilcoxon(a[:, j], b[:, j]).pvalue for j in range(REPLICATES)]
    assert LOW <= rate(found) <= HIGH


@pytest.mark.parametrize("n", SIZES)
def test_sign_test_level_is_its_exact_attainable_size(n: int) -> None:
    a, b = paired(n, 5 + n)
    found = rate([sign_test(a[:, j], b[:, j]).pvalue for j in range(REPLICATES)])
    # the largest w with P(W <= w) <= alpha/2, W ~ Binomial(n, 1/2): the exact size
    w = int(stats.binom.ppf(ALPHA / 2, n, 0.5))
    w -= stats.binom.cdf(w, n, 0.5) > ALPHA / 2
    size = 2 * stats.binom.cdf(w, n, 0.5)
    se = (size * (1 - size) / REPLICATES) ** 0.5
    assert size <= ALPHA and abs(found - size) <= 3 * se


@pytest.mark.parametrize("n", SIZES)
def test_tukey_hsd_family_wise_level(n: int) -> None:
    """Family-wise: a study rejects when any of the three pairs is significant. The
    decision is read from the studentized range (as tukey_hsd's p-values, checked on the
    first studies) to keep the simulation fast."""
    x = null_scores(n, 3, 6 + n)
    df = 2 * (n - 1)
    critical = _q_critical(1 - ALPHA, 3, df)
    rejected = []
    for i, study in enumerate(x):
        a = two_way_anova(study)
        spread = max(a.means) - min(a.means)
        reject = spread / np.sqrt(a.residual_variance / n) >= critical
        if i < 20:
            assert reject == (min(p.pvalue for p in tukey_hsd(study).pairs) <= ALPHA)
        rejected.append(reject)
    assert LOW <= float(np.mean(rejected)) <= HIGH


@pytest.mark.parametrize(
    ("n", "alternative"), [(10, "two-sided"), (20, "two-sided"), (50, "two-sided"), (10, "greater")]
)
def test_dunnett_family_wise_level(n: int, alternative: str) -> None:
    x = null_scores(n, 3, 7 + n)
    found = [min(p.pvalue for p in dunnett(s, alternative=alternative).pairs) for s in x]
    assert LOW <= rate(found) <= HIGH


@pytest.mark.parametrize("n", SIZES)
def test_randomized_tukey_family_wise_level(n: int) -> None:
    x = null_scores(n, 3, 8 + n)
    found = [
        min(p.pvalue for p in randomized_tukey_hsd(s, n_resamples=199, rng=i).pairs)
        for i, s in enumerate(x)
    ]
    assert LOW <= rate(found) <= HIGH
