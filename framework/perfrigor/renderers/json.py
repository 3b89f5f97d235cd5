"""The report as strict JSON (``Report.to_dict()``; NaN and infinities become null)."""

from __future__ import annotations

import json


class JsonRenderer:
    """Strict JSON: the report's ``to_dict()``, for programs (raw numbers in the samples' units)."""

    name = "json"
    suffix = ".json"

    def render(self, report, *, verbose: bool = False) -> str:
        # verbose changes nothing: the JSON report always holds every parameter
        return json.dumps(report.to_dict(), indent=2, allow_nan=False) + "\n"
