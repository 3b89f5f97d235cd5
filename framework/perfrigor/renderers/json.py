"""The report as JSON (``Report.to_dict()``)."""

from __future__ import annotations

import json


class JsonRenderer:
    name = "json"
    suffix = ".json"

    def render(self, report) -> str:
        return json.dumps(report.to_dict(), indent=2, allow_nan=False)
