"""Hierarchical resampling (bootstrap) of balanced multi-level samples.

Shared by the random-effects (CI of a mean) and ratio (CI of a ratio of means) plugins,
and public for third-party plugins.
"""

from __future__ import annotations
