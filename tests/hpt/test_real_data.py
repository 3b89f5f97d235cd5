"""HPT on real measurements: SPEC CPU2006 (ref inputs), gcc -O0 vs -O1, 32 runs each
(shared/data/speedup-test-samples, Mazouz, Touati & Barthou 2010). Skipped when absent."""

from __future__ import annotations

from pathlib import Path

import perfrigor as pr
import pytest
from perfrigor_plugins.hpt import HPT

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "speedup-test-samples" / "SPEC2006"


@pytest.fixture(scope="module")
def spec2006():
    folder = DATA / "inputdata_ref"
    if not folder.is_dir():
        pytest.skip("shared/data/speedup-test-samples is not available")
    base, cand = {}, {}
    for o0 in sorted(folder.glob("*.O0.pl.csv.1")):
        bench = o0.name.split(".O0")[0]
        o1 = folder / f"{bench}.O1.pl.csv.2"
        if o1.exists():
            base[bench], cand[bench] = pr.read(o0), pr.read(o1)
    return base, cand


def test_o1_outperforms_o0_and_the_gm_speedup_overstates_it(spec2006):
    base, cand = spec2006
    res = HPT().compare(base, cand)
    d = res.details
    assert len(base) == 11 and d["wins"] == {"candidate": 11, "baseline": 0, "tie": 0}
    assert all(v["level1_method"] == "normal" for v in d["benchmarks"].values())  # 32 runs >= 12
    assert d["R_B"] == 0 and res.pvalue == pytest.approx(1 / 2 ** 11)  # every d > 0
    # the paper's point (Sec. V-A): the GM-Speedup is well above what HPT supports at 0.95
    assert res.estimate == 1.53  # regression value of this implementation
    assert d["gm_speedup"] == pytest.approx(1.883, abs=5e-4)
    assert d["gm_speedup_confidence"] < 0.5
    assert HPT(speedup=1.53).compare(base, cand).significant
    assert not HPT(speedup=1.54).compare(base, cand).significant
