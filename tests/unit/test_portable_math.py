"""Values written at full precision do not depend on the processor.

The portable functions equal the C library's scalar ones (Python's :mod:`math`); the
stored Gauss nodes equal numpy's; and the bootstrap's intervals and Dunnett's p-values
are the same bits under every BLAS kernel OpenBLAS can select on this machine (a
product ``w @ d`` adds in the kernel's order: Haswell, Sandybridge and Prescott kernels
give three different last bits for the same product).
"""

from __future__ import annotations

import math
import os
import platform
import subprocess
import sys

import numpy as np
import pytest

from irtables.base import portable_math
from irtables.stats import gauss_nodes
from tests.conftest import REPO


def test_log2_and_discounts_are_the_c_librarys() -> None:
    ranks = np.array([1, 2, 3, 7, 1000, 5000, 70_000])
    assert portable_math.log2_of_next(ranks).tolist() == [math.log2(r + 1.0) for r in ranks]
    assert portable_math.rank_discounts(ranks).tolist() == [1.0 / math.log2(r + 1.0) for r in ranks]
    with pytest.raises(ValueError, match="rank of 1 or more"):
        portable_math.rank_discounts(np.array([0, 1]))


def test_powers_are_the_c_librarys_and_exact_for_two() -> None:
    exponents = np.array([0, 1, 2, 9, 999, 4096])
    assert portable_math.integer_powers(0.8, exponents).tolist() == [
        math.pow(0.8, float(e)) for e in exponents
    ]
    assert portable_math.powers_of_two(np.array([-2.0, 0.0, 4.0, 60.0])).tolist() == [
        0.25,
        1.0,
        16.0,
        float(2**60),
    ]
    with pytest.raises(ValueError, match="integer-valued"):
        portable_math.powers_of_two(np.array([0.5]))


def test_elementwise_functions_are_the_c_librarys() -> None:
    x = np.random.default_rng(3).uniform(0.01, 5.0, size=(4, 5))
    assert portable_math.exp(x).tolist() == [[math.exp(v) for v in row] for row in x]
    assert portable_math.log(x).tolist() == [[math.log(v) for v in row] for row in x]
    assert portable_math.log1p(-x / 10).tolist() == [
        [math.log1p(-v / 10) for v in row] for row in x
    ]
    assert portable_math.exp(np.zeros(0)).shape == (0,)


def test_stored_gauss_nodes_are_numpys() -> None:
    u, w = np.polynomial.legendre.leggauss(96)
    y, v = np.polynomial.hermite_e.hermegauss(96)
    np.testing.assert_allclose(gauss_nodes.LEGENDRE_NODES, u, rtol=0, atol=1e-14)
    np.testing.assert_allclose(gauss_nodes.LEGENDRE_WEIGHTS, w, rtol=1e-13, atol=1e-16)
    np.testing.assert_allclose(gauss_nodes.HERMITE_E_NODES, y, rtol=0, atol=1e-12)
    np.testing.assert_allclose(gauss_nodes.HERMITE_E_WEIGHTS, v, rtol=1e-11, atol=1e-300)


_STATISTICS = """
import numpy as np
from irtables.stats.many_to_one import dunnett
from irtables.stats.paired import bootstrap_many

rng = np.random.default_rng(7)
a, b = rng.random((83, 6)), rng.random((83, 6))
out = []
for r in bootstrap_many(a, b, n_resamples=3000, rng=11):
    out += [r.pvalue, r.ci_bootstrap.low, r.ci_bootstrap.high]
matrix = np.column_stack([b[:, 0], a[:, :4]])
for pair in dunnett(matrix, baseline=0).pairs:
    out += [pair.pvalue, pair.ci.low, pair.ci.high]
print(" ".join(float(x).hex() for x in out))
"""


def _statistics_in_child(**env_vars: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENBLAS_", "NPY_"))}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), str(REPO)])
    env.update(env_vars)
    done = subprocess.run(
        [sys.executable, "-c", _STATISTICS],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


@pytest.mark.skipif(platform.machine() not in {"x86_64", "AMD64"}, reason="x86 BLAS kernels")
def test_bootstrap_and_dunnett_bits_do_not_depend_on_the_blas_kernel() -> None:
    from numpy._core._multiarray_umath import __cpu_features__ as has

    kernels = ["Prescott"] + ["Sandybridge"] * bool(has.get("AVX"))
    kernels += ["Haswell"] * bool(has.get("AVX2") and has.get("FMA3"))
    found = {kernel: _statistics_in_child(OPENBLAS_CORETYPE=kernel) for kernel in kernels}
    assert len(set(found.values())) == 1, found
