"""R-compatible statistical primitives shared by several plugins (written once, here).

Rank-sum (Wilcoxon-Mann-Whitney) and signed-rank exact null distributions,
and the tests as R's ``wilcox.test`` computes them.
"""

from __future__ import annotations
