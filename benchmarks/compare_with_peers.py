"""Side by side: what the peer tools say about their own files, and what perfrigor says.

    python benchmarks/compare_with_peers.py            # print the tables (Markdown)
    python benchmarks/compare_with_peers.py --write    # put them into docs/comparison-with-peers.md
    python benchmarks/compare_with_peers.py --check    # exit 1 when the page's tables are out of date

Every input is a committed fixture (tests/fixtures/<peer>/, see each ORIGIN.md). The peers' answers come
from their own golden outputs (benchstat's .stdout files, criterion's console), from their documentation
(pyperf's compare_to tables), or are recomputed by their documented rules (Google Benchmark's compare.py
change, pyperf's t-test, JMH's Score ± Error, pytest-benchmark's ratios). perfrigor's answer is the
verdict of the default pipeline (``report.verdicts``), next to the Fieller interval of the speedup.
Speedups are > 1 when the candidate is better, whatever the metric's direction.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import perfrigor as pr
from perfrigor.cli import load_inputs
from scipy import stats

ROOT = Path(__file__).resolve().parents[1]
PEERS = ROOT / "tests" / "fixtures"
DOC = ROOT / "docs" / "comparison-with-peers.md"
START, END = "<!-- tables: start (benchmarks/compare_with_peers.py --write) -->", "<!-- tables: end -->"

#: what pyperf's documentation prints for `pyperf compare_to` on its mult_list files (doc/cli.rst)
PYPERF_DOC = {
    ("mult_list_py36.json", "mult_list_py37.json"): {
        "[1]*1000": "1.02x faster", "[1,2]*1000": "1.42x slower", "[1,2,3]*1000": "1.31x slower"},
    ("mult_list_py36.json", "mult_list_py38.json"): {
        "[1]*1000": "not significant", "[1,2]*1000": "1.16x faster", "[1,2,3]*1000": "1.11x faster"},
}


# ---------------------------------------------------------------- perfrigor's side


def perfrigor(baseline: Path | str, candidate: Path | str | None = None, pipeline: str = "default",
              **options: Any) -> pr.Report:
    """The report of ``pipeline`` on two files (or one file of several systems), read as the CLI reads them."""
    paths = [str(baseline)] + ([str(candidate)] if candidate is not None else [])
    return pr.pipeline(pipeline).run(*load_inputs(paths, options))


def answer(report: pr.Report, bench: str) -> dict[str, Any]:
    """perfrigor's verdict on one benchmark, and the Fieller interval of its speedup (None where absent)."""
    out: dict[str, Any] = {"outcome": None, "speedup": None, "ci": None, "reasons": (), "fieller": None,
                           "fieller_ci": None, "fieller_significant": None}
    verdict = report.verdicts.get(bench)
    if verdict is not None:
        out.update(outcome=verdict.outcome, speedup=verdict.speedup, reasons=tuple(verdict.reasons),
                   ci=None if verdict.ci_low is None else (verdict.ci_low, verdict.ci_high))
    for step in report.steps:
        if step.component == "fieller":
            found = report.benchmark_results.get(bench, {}).get(step.id)
            if found:
                res = next(iter(found.values()))
                out.update(fieller=res.estimate, fieller_ci=(res.ci_low, res.ci_high),
                           fieller_significant=res.significant)
    return out


def direction(speedup: float | None, significant: bool | None = True) -> str:
    if speedup is None or not significant:
        return "none"
    return "faster" if speedup > 1 else "slower" if speedup < 1 else "none"


def perfrigor_direction(a: dict[str, Any]) -> str:
    """The verdict's direction ("faster", "slower", "none"); Fieller's when there is no verdict step."""
    if a["outcome"] is not None:
        return a["outcome"] if a["outcome"] in ("faster", "slower") else "none"
    return direction(a["fieller"], a["fieller_significant"])


# ---------------------------------------------------------------- the peers' side


def benchstat_text(path: Path) -> dict[str, dict[str, dict[str, Any]]]:
    """benchstat's text table: ``{metric: {benchmark: {"old", "new", "delta" (None for ~), "p", "n"}}}``."""
    tables: dict[str, dict[str, dict[str, Any]]] = {}
    metric = None
    row = re.compile(r"^(?P<name>\S+)\s+(?P<old>\S+) ± \S+\s+(?P<new>\S+) ± \S+\s+(?P<delta>[+-][\d.]+%|~)\s+"
                     r"\(p=(?P<p>[\d.]+) n=(?P<n>\d+)\)")
    for line in path.read_text(encoding="utf-8").splitlines():
        head = re.search(r"│\s+(\S+)\s+│\s+\S+\s+vs base", line)
        if head:
            metric = head.group(1)
            tables[metric] = {}
            continue
        m = row.match(line)
        if m and metric:
            delta = None if m["delta"] == "~" else float(m["delta"].rstrip("%")) / 100
            tables[metric][m["name"]] = {"old": m["old"], "new": m["new"], "delta": delta, "p": float(m["p"]),
                                         "n": int(m["n"])}
    return tables


def benchstat_csv(path: Path) -> dict[str, dict[str, Any]]:
    """benchstat's -format csv output: ``{benchmark: {"old", "new", "delta", "p", "n"}}``."""
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.count(",") >= 5]
    out = {}
    for cells in csv.reader(io.StringIO("\n".join(lines[2:]))):
        if cells[0] == "geomean":
            continue
        p, n = re.match(r"p=([\d.]+) n=(\d+)", cells[6]).groups()
        delta = None if cells[5] == "~" else float(cells[5].rstrip("%")) / 100
        out[cells[0]] = {"old": float(cells[1]), "new": float(cells[3]), "delta": delta, "p": float(p), "n": int(n)}
    return out


def criterion_console(path: Path) -> dict[str, dict[str, Any]]:
    """criterion's printed comparison: ``{benchmark: {"change": (low, estimate, high), "p", "says"}}``."""
    out: dict[str, dict[str, Any]] = {}
    name = None
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^(\S.*?)\s+time:\s+\[", line)
        if m:
            name = m.group(1)
            continue
        m = re.search(r"change: \[(\S+)% (\S+)% (\S+)%\] \(p = ([\d.]+)", line)
        if m and name:
            out[name] = {"change": tuple(float(x) / 100 for x in m.groups()[:3]), "p": float(m.group(4))}
            continue
        m = re.match(r"^\s+(Performance has (?:improved|regressed)\.|No change in performance detected\.|"
                     r"Change within noise threshold\.)", line)
        if m and name in out:
            out[name]["says"] = m.group(1)
    return out


def compare_py_change(old: float, new: float) -> float:
    """Google Benchmark's compare.py: the relative change (new - old) / |old| of one benchmark."""
    return (new - old) / abs(old)


def pyperf_rule(old: np.ndarray, new: np.ndarray) -> tuple[float, bool]:
    """pyperf compare_to: the ratio of the means of all values, and its Student t test (pooled variance,
    two-sided, 95%) on all values of all runs together, as pyperf computes them."""
    ratio = float(np.mean(old) / np.mean(new))
    t = stats.ttest_ind(old.reshape(-1), new.reshape(-1), equal_var=True)
    return ratio, bool(t.pvalue < 0.05)


# ---------------------------------------------------------------- formatting


def fmt_speedup(s: float | None, ci: tuple[float, float] | None = None) -> str:
    if s is None or not math.isfinite(s):
        return "–"
    text = f"{s:.3g}x"
    if ci and ci[0] is not None and math.isfinite(ci[0]) and math.isfinite(ci[1]):
        text += f" [{ci[0]:.3g}, {ci[1]:.3g}]"
    return text


def fmt_verdict(a: dict[str, Any]) -> str:
    if a["outcome"] is None:
        return "(no verdict step)"
    return f"{a['outcome']} {fmt_speedup(a['speedup'], a['ci'])}"


def fmt_fieller(a: dict[str, Any]) -> str:
    if a["fieller"] is None:
        return "–"
    mark = "" if a["fieller_significant"] else " (n.s.)"
    return fmt_speedup(a["fieller"], a["fieller_ci"]) + mark


def agreement(peer: str, ours: str) -> str:
    if peer == ours:
        return "same" if peer != "none" else "same (no change shown)"
    if "none" in (peer, ours):
        return "peer only" if ours == "none" else "perfrigor only"
    return "**opposite**"


def table(headers: list[str], rows: Iterable[list[str]]) -> str:
    rows = list(rows)
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


# ---------------------------------------------------------------- the sections


def section_benchstat() -> tuple[str, list[dict[str, Any]]]:
    out, facts = [], []
    golden = benchstat_csv(PEERS / "benchstat" / "csvOldNew.stdout")
    report = perfrigor(PEERS / "benchstat" / "old.txt", PEERS / "benchstat" / "new.txt")
    rows = []
    for bench, peer in golden.items():
        a = answer(report, bench)
        peer_dir = "none" if peer["delta"] is None else ("faster" if peer["delta"] < 0 else "slower")
        facts.append({"case": "benchstat old/new", "benchmark": bench, "peer": peer_dir,
                      "peer_speedup": peer["old"] / peer["new"], **a})
        delta = "~" if peer["delta"] is None else f"{peer['delta']:+.2%}"
        rows.append([bench, f"{delta} (p={peer['p']:.3f} n={peer['n']})", fmt_speedup(peer["old"] / peer["new"]),
                     fmt_verdict(a), fmt_fieller(a), agreement(peer_dir, perfrigor_direction(a))])
    out.append("### benchstat: `old.txt` vs `new.txt` (sec/op)\n")
    out.append(table(["benchmark", "benchstat (vs base)", "median ratio", "perfrigor verdict",
                      "Fieller 95%", "agreement"], rows))
    for metric, option in (("sec/op", {}), ("B/s", {"metric": "B/s"})):
        golden_t = benchstat_text(PEERS / "benchstat" / "crcIgnore.stdout")[metric]
        report = perfrigor(PEERS / "benchstat" / "crc-old.txt", PEERS / "benchstat" / "crc-new.txt", **option)
        rows = []
        for bench, peer in golden_t.items():
            a = answer(report, bench)
            better = (peer["delta"] is not None) and ((peer["delta"] < 0) == (metric == "sec/op"))
            peer_dir = "none" if peer["delta"] is None else ("faster" if better else "slower")
            ratio = None if peer["delta"] is None else (1 / (1 + peer["delta"]) if metric == "sec/op"
                                                        else 1 + peer["delta"])
            facts.append({"case": f"benchstat crc {metric}", "benchmark": bench, "peer": peer_dir,
                          "peer_speedup": ratio, **a})
            delta = "~" if peer["delta"] is None else f"{peer['delta']:+.2%}"
            rows.append([bench, f"{delta} (p={peer['p']:.3f})", fmt_verdict(a), fmt_fieller(a),
                         agreement(peer_dir, perfrigor_direction(a))])
        out.append(f"\n### benchstat: `crc-old.txt` vs `crc-new.txt` ({metric}"
                   + (", `--metric B/s`" if option else "") + ")\n")
        out.append(table(["benchmark", "benchstat (vs base)", "perfrigor verdict", "Fieller 95%", "agreement"],
                         rows))
    return "\n".join(out), facts


def section_google_benchmark() -> tuple[str, list[dict[str, Any]]]:
    base, cand = PEERS / "google-benchmark" / "test1_run1.json", PEERS / "google-benchmark" / "test1_run2.json"
    docs = [json.loads(p.read_text()) for p in (base, cand)]
    entries = [{e["name"]: e for e in d["benchmarks"] if e.get("run_type") != "aggregate"} for d in docs]
    report = perfrigor(base, cand)
    rows, facts = [], []
    for bench, old in entries[0].items():
        new = entries[1].get(bench)
        a = answer(report, bench)
        if new is None:
            continue
        if old["time_unit"] != new["time_unit"]:
            peer = f"not shown ({old['time_unit']} vs {new['time_unit']})"
            peer_dir, ratio = "none", None
        else:
            change = compare_py_change(old["real_time"], new["real_time"])
            ratio = old["real_time"] / new["real_time"]
            peer = f"{change:+.4f}"
            peer_dir = "none" if change == 0 else ("faster" if change < 0 else "slower")
        facts.append({"case": "compare.py test1", "benchmark": bench, "peer": peer_dir, "peer_speedup": ratio, **a})
        rows.append([bench, peer, fmt_verdict(a), agreement(peer_dir, perfrigor_direction(a))])
    text = ("### Google Benchmark `compare.py`: `test1_run1.json` vs `test1_run2.json` (real_time, one "
            "repetition each)\n\n" + table(["benchmark", "compare.py change", "perfrigor verdict", "agreement"], rows))
    t3 = perfrigor(PEERS / "google-benchmark" / "test3_run0.json", PEERS / "google-benchmark" / "test3_run1.json",
                   pipeline="default")
    text += ("\n\n`test3_run0.json` vs `test3_run1.json`: perfrigor compares "
             + ", ".join(f"`{b}`" for b in t3.benchmarks) + "; only in one file: "
             + "; ".join(f"{s}: " + ", ".join(f"`{b}`" for b in bs) for s, bs in t3.only_in.items()) + ".")
    return text, facts


def section_pyperf() -> tuple[str, list[dict[str, Any]]]:
    rows, facts = [], []
    for (a_name, b_name), documented in PYPERF_DOC.items():
        a_path, b_path = PEERS / "pyperf" / a_name, PEERS / "pyperf" / b_name
        report = perfrigor(a_path, b_path)
        old, new = pr.read(a_path), pr.read(b_path)
        for bench, says in documented.items():
            ratio, significant = pyperf_rule(old[bench][a_name].values, new[bench][b_name].values)
            peer_dir = ("none" if says == "not significant" else "faster" if "faster" in says else "slower")
            a = answer(report, bench)
            facts.append({"case": f"pyperf {a_name} -> {b_name}", "benchmark": bench, "peer": peer_dir,
                          "peer_speedup": ratio, **a})
            runs = old[bench][a_name].shape[0]
            rows.append([f"{a_name.removesuffix('.json')} → {b_name.removesuffix('.json')}", bench, says,
                         f"{ratio:.3f}x, t test {'significant' if significant else 'n.s.'}", fmt_verdict(a),
                         fmt_fieller(a), f"{runs} runs", agreement(peer_dir, perfrigor_direction(a))])
    py2, py3 = PEERS / "pyperf" / "py2.json.gz", PEERS / "pyperf" / "py3.json.gz"
    report = perfrigor(py2, py3)
    ratio, significant = pyperf_rule(pr.read(py2).values, pr.read(py3).values)
    a = answer(report, "timeit")
    peer_dir = direction(ratio, significant)
    facts.append({"case": "pyperf py2 -> py3", "benchmark": "timeit", "peer": peer_dir, "peer_speedup": ratio, **a})
    rows.append(["py2 → py3", "timeit", "–", f"{ratio:.3f}x, t test {'significant' if significant else 'n.s.'}",
                 fmt_verdict(a), fmt_fieller(a), "20 runs", agreement(peer_dir, perfrigor_direction(a))])
    return ("### pyperf `compare_to`\n\n"
            + table(["files", "benchmark", "pyperf's documentation", "pyperf's rule, recomputed", "perfrigor verdict",
                     "Fieller 95%", "runs x values", "agreement"], rows)), facts


def section_criterion() -> tuple[str, list[dict[str, Any]]]:
    said = criterion_console(PEERS / "criterion" / "console_run2.txt")
    report = perfrigor(PEERS / "criterion" / "criterion")
    rows, facts = [], []
    for bench, peer in said.items():
        low, est, high = peer["change"]
        says = peer.get("says", "")
        peer_dir = "faster" if "improved" in says else "slower" if "regressed" in says else "none"
        a = answer(report, bench)
        facts.append({"case": "criterion", "benchmark": bench, "peer": peer_dir, "peer_speedup": 1 / (1 + est), **a})
        rows.append([bench, f"{est:+.2%} [{low:+.2%}, {high:+.2%}], {says}", fmt_speedup(1 / (1 + est)),
                     fmt_verdict(a), fmt_fieller(a), agreement(peer_dir, perfrigor_direction(a))])
    return ("### criterion.rs: `before` vs `new` (`target/criterion`)\n\n"
            + table(["benchmark", "criterion (change of the mean time)", "as a speedup", "perfrigor verdict",
                     "Fieller 95%", "agreement"], rows)), facts


def section_jmh() -> tuple[str, list[dict[str, Any]]]:
    base, cand = PEERS / "jmh" / "jcasbin_run0.json", PEERS / "jmh" / "jcasbin_run1.json"
    report = perfrigor(base, cand)
    old, new = pr.read(base), pr.read(cand)
    rows, facts = [], []
    for bench in report.benchmarks:
        o, n = old[bench][base.name], new[bench][cand.name]
        so, eo = o.metadata["jmh_score"], o.metadata.get("jmh_score_error", float("nan"))
        sn, en = n.metadata["jmh_score"], n.metadata.get("jmh_score_error", float("nan"))
        overlap = not (so - eo > sn + en or sn - en > so + eo) if math.isfinite(eo + en) else True
        ratio = (sn / so) if not o.lower_is_better else (so / sn)
        peer_dir = "none" if overlap else ("faster" if ratio > 1 else "slower")
        a = answer(report, bench)
        facts.append({"case": "jmh", "benchmark": bench, "peer": peer_dir, "peer_speedup": ratio, **a})
        short = bench.replace("org.casbin.jcasbin.main.benchmark.", "")
        rows.append([short, f"{so:.4g} ± {eo:.3g} → {sn:.4g} ± {en:.3g} {o.unit}",
                     "overlap" if overlap else "apart", fmt_verdict(a), fmt_fieller(a),
                     agreement(peer_dir, perfrigor_direction(a))])
    only = "; ".join(f"{s}: {len(b)}" for s, b in report.only_in.items())
    return ("### JMH: jcasbin's two runs (1 fork x 3 iterations each)\n\n"
            + table(["benchmark (org.casbin.jcasbin.main.benchmark.)", "JMH Score ± Error (99.9%)",
                     "99.9% intervals", "perfrigor verdict", "Fieller 95%", "agreement"], rows)
            + f"\n\nBenchmarks in one run only (listed, not compared): {only}."), facts


def section_pytest_benchmark() -> tuple[str, list[dict[str, Any]]]:
    base = PEERS / "pytest-benchmark" / "strings_old.json"
    cand = PEERS / "pytest-benchmark" / "strings_new.json"
    report = perfrigor(base, cand)
    old, new = pr.read(base), pr.read(cand)
    rows, facts = [], []
    for bench in report.benchmarks:
        mo, mn = float(np.median(old[bench][base.name].values)), float(np.median(new[bench][cand.name].values))
        a = answer(report, bench)
        facts.append({"case": "pytest-benchmark", "benchmark": bench, "peer": "none", "peer_speedup": mo / mn, **a})
        rows.append([bench, f"{mo * 1e6:.4g} µs → {mn * 1e6:.4g} µs ({mo / mn:.3g}x)", fmt_verdict(a),
                     fmt_fieller(a), agreement("none", perfrigor_direction(a))])
    only = "; ".join(f"{s}: " + ", ".join(f"`{b}`" for b in bs) for s, bs in report.only_in.items())
    return ("### pytest-benchmark: `strings_old.json` vs `strings_new.json`\n\n"
            + table(["benchmark", "pytest-benchmark --benchmark-compare (median)", "perfrigor verdict",
                     "Fieller 95%", "agreement"], rows)
            + f"\n\nOnly in one file (listed, not compared): {only}."), facts


SECTIONS = [section_benchstat, section_google_benchmark, section_pyperf, section_criterion, section_jmh,
            section_pytest_benchmark]


def build() -> tuple[str, list[dict[str, Any]]]:
    """All the tables (Markdown) and the facts behind them (one dict per compared benchmark)."""
    parts, facts = [], []
    for section in SECTIONS:
        text, rows = section()
        parts.append(text)
        facts += rows
    return "\n\n".join(parts) + "\n", facts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"replace the tables in {DOC.relative_to(ROOT)}")
    parser.add_argument("--check", action="store_true", help="exit 1 when the page's tables are out of date")
    args = parser.parse_args(argv)
    tables, _ = build()
    if not (args.write or args.check):
        sys.stdout.write(tables)
        return 0
    page = DOC.read_text(encoding="utf-8")
    head, _, rest = page.partition(START)
    _, _, tail = rest.partition(END)
    updated = f"{head}{START}\n\n{tables}\n{END}{tail}"
    if args.check:
        if updated != page:
            print(f"{DOC.relative_to(ROOT)}: the tables are out of date; run {Path(__file__).name} --write")
            return 1
        return 0
    DOC.write_text(updated, encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
