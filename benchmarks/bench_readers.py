"""Reading speed and peak memory of the readers at real sizes, against numpy and pandas on the same files.

    python benchmarks/bench_readers.py [--mb 100 1000] [--runs 3] [--tmp /tmp] [--only tidy] [--before CHECKOUT]

For each size, writes three files of about that many MB (under ``--tmp``, deleted afterwards):
values (one number per line, as ``numpy.savetxt`` writes them, ``%.18e``), short values
(``%.6f``, as most tools print), a tidy CSV (benchmark, system, invocation, iteration,
time_ms: 20,000 rows per sample, written unit after unit as nested loops write it) and the same
table as tidy JSON (an array of records, one a line), and the short values and tidy CSV
gzipped (level 6; their MB/s count the unpacked bytes). Each file is read in a fresh process by
``pr.read``, by ``numpy.loadtxt`` (values files) and by ``pandas.read_csv`` or
``pandas.read_json``, in turn, ``--runs`` times. A process imports its library first
(perfrigor with pyarrow, numpy, pandas: the import is not the read), then reports the read's
wall-clock and CPU time and how far its resident memory rose while reading (the peak resident
size, reset before the read through ``/proc/self/clear_refs``, minus the resident size before
it: Linux only). Medians are printed as MB/s, and as ratios to the reference measured in the
same run (numpy.loadtxt for values files, pandas for tidy tables: above 1x is faster),
so that a loaded machine still gives usable ratios; CPU MB/s is what one free core would give.
Memory is shown against the numbers' own size (8 bytes each). Issue 23.4 asks for at least
50 MB/s and at most 3x the numbers' own size.

pyarrow's import is measured apart (its time and resident memory, with a first tiny read),
and the end of the run times the small JSON readers (tidy records under 4 MiB, pyperf) against
``json.loads``.
"""

from __future__ import annotations

import argparse
import gzip
import io
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
{imports}

def status(key):
    return int(re.search(key + r":\\s+(\\d+)", open("/proc/self/status").read()).group(1))

path = sys.argv[1]
open("/proc/self/clear_refs", "w").write("5")  # the peak resident size starts again from here (Linux)
before = status("VmRSS")
start, cpu = time.perf_counter(), time.process_time()
result = {call}
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
print(json.dumps({{"seconds": seconds, "cpu": cpu, "peak_kib": status("VmHWM") - before}}))
"""
READERS = {
    "perfrigor": ("import perfrigor as pr; pr.get_registry(); import pyarrow.csv, pyarrow.json, pyarrow.compute",
                  "pr.read(path, max_input_size='none')"),
    "numpy.loadtxt": ("import numpy as np", "np.loadtxt(path)"),
    "pandas.read_csv": ("import pandas as pd", "pd.read_csv(path, header={header})"),
    "pandas.read_json": ("import pandas as pd", "pd.read_json(path, orient='records')"),
}
PYARROW_IMPORT = """
import json, re, time
import perfrigor as pr
pr.get_registry()
def status(key):
    return int(re.search(key + r":\\s+(\\d+)", open("/proc/self/status").read()).group(1))
before, start = status("VmRSS"), time.perf_counter()
from perfrigor.readers import _arrow
_arrow.numbers(b"1\\n2\\n")
_arrow.json_module()
print(json.dumps({"seconds": time.perf_counter() - start, "rss_kib": status("VmRSS") - before}))
"""


def measure(reader: str, path: Path, header: str, before: str | None = None) -> dict[str, float]:
    """One read in a fresh process; ``reader`` "perfrigor (before)" reads with the code under ``before``."""
    imports, call = READERS[reader.removesuffix(" (before)")]
    code = CHILD.format(imports=imports, call=call.format(header=header))
    env = None
    if reader.endswith(" (before)"):  # another checkout's code: its framework/ and plugins/ first on the path
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(Path(before, d)) for d in ("framework", "plugins"))}
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True,
                         env=env).stdout
    return json.loads(out.splitlines()[-1])


def _repeated(path: Path, block: bytes, size: float) -> int:
    """Write ``block`` (whole lines) over and over until the file has about ``size`` bytes; the lines written."""
    times = max(1, round(size / len(block)))
    with path.open("wb") as fh:
        for _ in range(times):
            fh.write(block)
    return times * block.count(b"\n")


def write_files(folder: Path, megabytes: float) -> dict[str, tuple[Path, int, str, list[str]]]:
    """``{label: (path, numbers, pandas header, readers)}``: about ``megabytes`` MB each."""
    rng = np.random.default_rng(0)
    size = megabytes * 1e6
    files = {}
    for label, name, fmt, width in (("values (%.18e)", "values.txt", "%.18e", 25),
                                    ("values (%.6f)", "short.txt", "%.6f", 9)):
        block = io.BytesIO()  # at most 100 MB of numbers, repeated: savetxt writes a few MB/s
        np.savetxt(block, rng.lognormal(0, 0.1, int(min(size, 1e8) / width)), fmt=fmt)
        path = folder / name
        files[label] = (path, _repeated(path, block.getvalue(), size), "None",
                        ["perfrigor", "numpy.loadtxt", "pandas.read_csv"])
    rows_per_pair = 20 * 1000
    line = len("b00,old,19,999,1.234567\n")
    pairs = max(1, int(size / line / rows_per_pair))
    path = folder / "tidy.csv"
    with path.open("w") as fh:
        fh.write("benchmark,system,invocation,iteration,time_ms\n")
        for b in range(pairs // 2 + 1):
            for s in ("old", "new"):
                values = rng.lognormal(0, 0.1, rows_per_pair).tolist()
                fh.writelines(f"b{b:02d},{s},{i // 1000},{i % 1000},{v:.6f}\n" for i, v in enumerate(values))
    files["tidy CSV (5 columns)"] = (path, (pairs // 2 + 1) * 2 * rows_per_pair, "0", ["perfrigor", "pandas.read_csv"])
    record = len('{"benchmark": "b00", "system": "old", "invocation": 19, "iteration": 999, "time_ms": 1.234567},\n')
    pairs = max(1, int(size / record / rows_per_pair))
    path = folder / "tidy.json"
    with path.open("w") as fh:  # one record a line, as json.dumps writes each
        fh.write("[")
        between = "\n"
        for b in range(pairs // 2 + 1):
            for s in ("old", "new"):
                values = rng.lognormal(0, 0.1, rows_per_pair).tolist()
                fh.write(between + ",\n".join(f'{{"benchmark": "b{b:02d}", "system": "{s}", "invocation": {i // 1000}, '
                                               f'"iteration": {i % 1000}, "time_ms": {v:.6f}}}'
                                               for i, v in enumerate(values)))
                between = ",\n"
        fh.write("\n]\n")
    files["tidy JSON (records)"] = (path, (pairs // 2 + 1) * 2 * rows_per_pair, "", ["perfrigor", "pandas.read_json"])
    for label, source in (("values (%.6f), gzip", "values (%.6f)"), ("tidy CSV, gzip", "tidy CSV (5 columns)")):
        plain, n, header, readers = files[source]
        path = plain.with_name(plain.name + ".gz")
        with plain.open("rb") as fh, gzip.open(path, "wb", compresslevel=6) as out:
            while block := fh.read(1 << 24):
                out.write(block)
        files[label] = (path, n, header, readers)
    return files


def pyarrow_import() -> None:
    """What loading pyarrow costs the first large read, once: time and resident memory."""
    runs = [json.loads(subprocess.run([sys.executable, "-c", PYARROW_IMPORT], capture_output=True, text=True,
                                      check=True).stdout.splitlines()[-1]) for _ in range(3)]
    print(f"pyarrow's import and first read (once per process, not counted above): "
          f"{statistics.median(r['seconds'] for r in runs):.2f} s, "
          f"{statistics.median(r['rss_kib'] for r in runs) / 1024:.0f} MiB resident")


def json_readers(folder: Path) -> None:
    """The JSON readers against json.loads (one run each, in this process)."""
    import time

    import perfrigor as pr

    rng = np.random.default_rng(0)
    doc = {"version": "1.0", "metadata": {"unit": "second"},
           "benchmarks": [{"metadata": {"name": f"b{i}"},
                           "runs": [{"warmups": [[1, 0.1]], "values": rng.random(20).tolist()} for _ in range(50)]}
                          for i in range(50)]}
    records = [{"benchmark": f"b{b}", "system": s, "invocation": i // 100, "iteration": i % 100, "time_ms": v}
               for b in range(5) for s in ("old", "new") for i, v in enumerate(rng.random(2000).tolist())]
    for label, text in (("pyperf JSON, pretty-printed", json.dumps(doc, indent=1)),
                        ("pyperf JSON, compact", json.dumps(doc)),
                        ("tidy JSON records", "[\n" + ",\n".join(json.dumps(r) for r in records) + "\n]\n")):
        path = folder / f"{label.replace(' ', '-').replace(',', '')}.json"
        path.write_text(text)
        start = time.perf_counter()
        pr.read(path)
        ours = time.perf_counter() - start
        start = time.perf_counter()
        json.loads(path.read_text())
        reference = time.perf_counter() - start
        size = path.stat().st_size
        print(f"{label} ({size / 1e6:.1f} MB): {size / 1e6 / ours:.1f} MB/s, {ours / reference:.1f}x json.loads")


def run_size(tmp: str | None, megabytes: float, runs: int, only: list[str], before: str | None = None) -> None:
    with tempfile.TemporaryDirectory(dir=tmp) as folder:
        files = write_files(Path(folder), megabytes)
        print(f"\n{'file':<28} {'reader':<16} {'MB/s':>6} {'cpu MB/s':>9} {'speed vs ref':>13} {'cpu vs ref':>11} "
              f"{'peak/numbers':>13}")
        for label, (path, n, header, readers) in files.items():
            if only and not any(word in label for word in only):
                continue
            size = os.path.getsize(path.with_suffix("") if path.suffix == ".gz" else path)  # MB/s of the data, unpacked
            if before:
                readers = [readers[0], *readers[1:], "perfrigor (before)"]
            found: dict[str, list[dict[str, float]]] = {r: [] for r in readers}
            for _ in range(runs):
                for reader in readers:  # in turn, so a drift of the machine's speed hits every reader
                    found[reader].append(measure(reader, path, header, before))
            med = {r: {k: statistics.median(run[k] for run in got) for k in ("seconds", "cpu", "peak_kib")}
                   for r, got in found.items()}
            ref = med[readers[1]]
            for reader in readers:
                m = med[reader]
                print(f"{label + f', {size / 1e6:.0f} MB':<28} {reader:<16} {size / 1e6 / m['seconds']:6.0f} "
                      f"{size / 1e6 / m['cpu']:9.0f} {ref['seconds'] / m['seconds']:12.2f}x "
                      f"{ref['cpu'] / m['cpu']:10.2f}x {m['peak_kib'] * 1024 / (8 * n):12.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=float, nargs="+", default=[100.0], help="size of each file (default 100 MB)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--tmp", default=None, help="where the files are written (default: the system's temporary folder)")
    ap.add_argument("--only", nargs="+", default=[], help="read only the files whose label holds one of these words")
    ap.add_argument("--before", default=None, metavar="CHECKOUT",
                    help="also read each file with the code of another checkout of perfrigor (a worktree of the "
                         "code before a change), in turn with the others: 'perfrigor (before)'")
    args = ap.parse_args()
    for megabytes in args.mb:
        run_size(args.tmp, megabytes, args.runs, args.only, args.before)
    print(f"\n({args.runs} run(s); 'vs ref': speed against numpy.loadtxt for values files, pandas for tidy tables, "
          "on the same file in the same run; above 1x is faster)")
    pyarrow_import()
    with tempfile.TemporaryDirectory(dir=args.tmp) as folder:
        json_readers(Path(folder))


if __name__ == "__main__":
    main()
