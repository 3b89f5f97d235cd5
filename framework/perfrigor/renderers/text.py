"""The report as plain text for a terminal."""

from __future__ import annotations


class TextRenderer:
    name = "text"
    suffix = ".txt"

    def render(self, report) -> str:
        lines = [f"perfrigor report: pipeline {report.pipeline!r}, {report.baseline} vs {report.candidate}"]
        for bench, step, key, res in report.iter_results():
            where = f"[{bench}] " if bench else "[suite] "
            verdict = getattr(res, "verdict", None) or getattr(res, "text", None) or ""
            lines.append(f"{where}{step} {key or ''}: {verdict}".rstrip())
        for w in report.warnings:
            lines.append(f"warning [{w['benchmark']}] {w['step']}: {w['message']}")
        return "\n".join(lines) + "\n"
