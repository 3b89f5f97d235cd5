"""Reading speed and peak memory of the readers at real sizes, against numpy and pandas on the same files.

    python benchmarks/bench_readers.py [--mb 100] [--runs 3]

Writes three files of about ``--mb`` MB each: values (one number per line, as ``numpy.savetxt``
writes them, ``%.18e``), short values (``%.6f``, as most tools print), and a tidy CSV (benchmark,
system, invocation, iteration, time_ms). Each file is read in a fresh process by ``pr.read``,
by ``numpy.loadtxt`` (values files) and by ``pandas.read_csv`` (all), in turn, ``--runs`` times;
a process reports its reading time and how far its resident memory rose while reading (the
peak resident size, reset before the read through ``/proc/self/clear_refs``, minus the resident
size before it: Linux only). Medians are printed as MB/s, and as ratios
to the references measured in the same run, so that a loaded machine still gives usable ratios.
Memory is shown against the file's size and against the numbers' own size (8 bytes each).
Issue 23.4 asks for at least 50 MB/s and at most 3x the numbers' own size.

The end of the run times the JSON readers (pyperf) as before, against ``json.loads``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

CHILD = """
import json, re, sys, time
import numpy as np
{imports}

def status(key):
    return int(re.search(key + r":\\s+(\\d+)", open("/proc/self/status").read()).group(1))

path = sys.argv[1]
open("/proc/self/clear_refs", "w").write("5")  # the peak resident size starts again from here (Linux)
before = status("VmRSS")
start = time.perf_counter()
result = {call}
seconds = time.perf_counter() - start
print(json.dumps({{"seconds": seconds, "peak_kib": status("VmHWM") - before}}))
"""
READERS = {
    "perfrigor": ("import perfrigor as pr; pr.get_registry()", "pr.read(path, max_input_size='none')"),
    "numpy.loadtxt": ("", "np.loadtxt(path)"),
    "pandas.read_csv": ("import pandas as pd", "pd.read_csv(path, header={header})"),
}


def measure(reader: str, path: Path, header: str) -> dict[str, float]:
    imports, call = READERS[reader]
    code = CHILD.format(imports=imports, call=call.format(header=header))
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True).stdout
    return json.loads(out.splitlines()[-1])


def write_files(folder: Path, megabytes: float) -> dict[str, tuple[Path, int, str, list[str]]]:
    """``{label: (path, numbers, pandas header, readers)}``."""
    rng = np.random.default_rng(0)
    files = {}
    n = int(megabytes * 1e6 / 25)
    path = folder / "values.txt"
    np.savetxt(path, rng.lognormal(0, 0.1, n))  # '%.18e': 25 bytes a line
    files["values (%.18e)"] = (path, n, "None", ["perfrigor", "numpy.loadtxt", "pandas.read_csv"])
    n = int(megabytes * 1e6 / 9)
    path = folder / "short.txt"
    np.savetxt(path, rng.lognormal(0, 0.1, n), fmt="%.6f")
    files["values (%.6f)"] = (path, n, "None", ["perfrigor", "numpy.loadtxt", "pandas.read_csv"])
    rows_per_pair = 20 * 1000
    line = len("b00,old,19,999,1.234567\n")
    pairs = max(1, int(megabytes * 1e6 / line / rows_per_pair))
    path = folder / "tidy.csv"
    with path.open("w") as fh:
        fh.write("benchmark,system,invocation,iteration,time_ms\n")
        for b in range(pairs // 2 + 1):
            for s in ("old", "new"):
                values = rng.lognormal(0, 0.1, rows_per_pair)
                fh.writelines(f"b{b:02d},{s},{i // 1000},{i % 1000},{v:.6f}\n" for i, v in enumerate(values))
    files["tidy CSV (5 columns)"] = (path, (pairs // 2 + 1) * 2 * rows_per_pair, "0", ["perfrigor", "pandas.read_csv"])
    return files


def json_readers(folder: Path) -> None:
    """The JSON readers against json.loads (one run each, in this process)."""
    import time

    import perfrigor as pr

    rng = np.random.default_rng(0)
    doc = {"version": "1.0", "metadata": {"unit": "second"},
           "benchmarks": [{"metadata": {"name": f"b{i}"},
                           "runs": [{"warmups": [[1, 0.1]], "values": rng.random(20).tolist()} for _ in range(50)]}
                          for i in range(50)]}
    for label, text in (("pretty-printed", json.dumps(doc, indent=1)), ("compact", json.dumps(doc))):
        path = folder / f"pyperf-{label}.json"
        path.write_text(text)
        start = time.perf_counter()
        pr.read(path)
        ours = time.perf_counter() - start
        start = time.perf_counter()
        json.loads(path.read_text())
        reference = time.perf_counter() - start
        print(f"pyperf JSON, {label} ({path.stat().st_size / 1e6:.1f} MB): {ours / reference:.1f}x json.loads")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=float, default=100.0, help="size of each file (default 100 MB)")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = write_files(folder, args.mb)
        print(f"{'file':<22} {'reader':<16} {'MB/s':>6} {'time vs ref':>12} {'peak/file':>10} {'peak/numbers':>13} "
              f"{'peak vs ref':>12}")
        for label, (path, n, header, readers) in files.items():
            size = os.path.getsize(path)
            runs: dict[str, list[dict[str, float]]] = {r: [] for r in readers}
            for _ in range(args.runs):
                for reader in readers:  # in turn, so a drift of the machine's speed hits every reader
                    runs[reader].append(measure(reader, path, header))
            med = {r: {k: statistics.median(run[k] for run in found) for k in ("seconds", "peak_kib")}
                   for r, found in runs.items()}
            reference = "numpy.loadtxt" if "numpy.loadtxt" in readers else "pandas.read_csv"
            for reader in readers:
                m = med[reader]
                peak = m["peak_kib"] * 1024
                versus = [f"{med[r]['seconds'] / m['seconds']:.2f}x {r.split('.')[0]}" for r in readers if r != reader]
                print(f"{label:<22} {reader:<16} {size / 1e6 / m['seconds']:6.0f} "
                      f"{m['seconds'] / med[reference]['seconds']:11.2f}x {peak / size:9.2f}x {peak / (8 * n):12.2f}x "
                      f"{peak / max(med[reference]['peak_kib'] * 1024, 1):11.2f}x"
                      + ("   (" + ", ".join(versus) + " faster)" if reader == "perfrigor" else ""))
        print(f"({args.runs} runs; time vs ref and peak vs ref: against {', '.join(sorted({r for _, _, _, rs in files.values() for r in rs} - {'perfrigor'}))} "
              "on the same file: numpy.loadtxt for values files, pandas.read_csv for the tidy CSV)")
        json_readers(folder)


if __name__ == "__main__":
    main()
