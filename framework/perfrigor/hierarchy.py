"""Hierarchical (multi-level) samples: level means and variances, hierarchical resampling.

Shared by the random-effects and ratio plugins, and public for third-party plugins.
"""

from __future__ import annotations
