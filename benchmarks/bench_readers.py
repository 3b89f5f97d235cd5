"""Timings of the readers and renderers on large inputs (not part of the test run).

    python benchmarks/bench_readers.py
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np
import perfrigor as pr
from _timing import timed


def main() -> None:
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        values = tmp / "values.txt"
        values.write_text("\n".join(f"{v:.9f}" for v in rng.normal(10, 1, 100_000)))
        timed("values: 100,000 lines", lambda: pr.read(values))

        tidy = tmp / "tidy.csv"
        rows = ["benchmark,system,build,invocation,iteration,time"]
        for b in range(20):
            for s in ("old", "new"):
                for i, v in enumerate(rng.normal(10, 1, 5 * 10 * 50)):
                    rows.append(f"b{b},{s},{i // 500},{i // 50 % 10},{i % 50},{v:.6f}")
        tidy.write_text("\n".join(rows))
        timed(f"tidy CSV: {len(rows) - 1:,} rows, 20 benchmarks x 2 systems x 5x10x50", lambda: pr.read(tidy))

        pyperf = tmp / "pyperf.json"
        doc = {"version": "1.0", "metadata": {"unit": "second"},
               "benchmarks": [{"metadata": {"name": f"b{i}"},
                               "runs": [{"warmups": [[1, 0.1]], "values": rng.random(20).tolist()}
                                        for _ in range(50)]} for i in range(50)]}
        pyperf.write_text(json.dumps(doc, indent=1))
        timed(f"pyperf: 50 benchmarks x 50 runs x 20 values ({pyperf.stat().st_size / 1e6:.1f} MB)",
              lambda: pr.read(pyperf))
        compact = tmp / "pyperf-compact.json"
        compact.write_text(json.dumps(doc))  # as pyperf writes them: one line
        timed(f"pyperf: the same, compact ({compact.stat().st_size / 1e6:.1f} MB)", lambda: pr.read(compact))
        timed("json.loads of the pretty-printed file (reference)", lambda: json.loads(pyperf.read_text()))
        bad = tmp / "bad.json"
        doc["benchmarks"][49]["runs"][49]["values"][19] = "x"
        bad.write_text(json.dumps(doc, indent=1))

        def locate():
            try:
                pr.read(bad)
            except pr.DataError:
                pass

        timed("pyperf: same file, error on the last value (line found)", locate)


if __name__ == "__main__":
    main()
