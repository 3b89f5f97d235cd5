"""Collect the bundled example data sets by timing real programs on this machine.

    python benchmarks/collect_examples.py [--out framework/perfrigor/examples] [--quick]

Writes, under ``framework/perfrigor/examples/``:

- ``two-versions/``: one C program built twice (``gcc -O1``: baseline, ``gcc -O2``:
  candidate), 40 runs each, one value per line (``baseline.txt``, ``candidate.txt``).
- ``multimodal/``: a pointer-chasing program whose memory layout is drawn at random
  in each process (sequential, block-shuffled or shuffled nodes), as allocators, ASLR
  and link order do in real programs; two builds (O1, O2), 60 runs each.
- ``hierarchical/``: a build x invocation x iteration experiment (Kalibera & Jones):
  every build links the same objects in a random order with random code and data padding;
  every invocation is a fresh process; iterations are repeated in-process after one
  warm-up. Two systems (O1, O2) in one tidy CSV: system, build, invocation, iteration, time.
- ``suite/``: 14 small kernels x 2 systems (O1, O2), 10 runs each, as a tidy CSV:
  benchmark, system, run, time.

Every time is measured by the program itself with ``clock_gettime(CLOCK_MONOTONIC)``
around the kernel only (not process start-up), in seconds. Runs of the systems are
interleaved in a seeded random order, so slow drifts of the machine hit both alike.
Each folder gets a README.md saying what, how, when and on which machine.
The whole collection takes about 1-3 minutes on 2 busy cores.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "framework" / "perfrigor" / "examples"
SEED = 20261122

# ----------------------------------------------------------------------------- C sources

MAIN_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double run_kernel(const char *name, unsigned seed);   /* kernels.c */
extern volatile double sink;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* usage: prog KERNEL ITERATIONS WARMUP SEED  -> one time (s) per measured iteration */
int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: %s kernel iterations warmup seed\n", argv[0]); return 2; }
    int iterations = atoi(argv[2]), warmup = atoi(argv[3]);
    unsigned seed = (unsigned)strtoul(argv[4], NULL, 10);
    for (int i = 0; i < warmup + iterations; i++) {
        double t0 = now();
        double r = run_kernel(argv[1], seed);
        double t1 = now();
        if (r != r) { fprintf(stderr, "unknown kernel %s\n", argv[1]); return 2; }
        sink += r;
        if (i >= warmup) printf("%.9f\n", t1 - t0);
    }
    return 0;
}
"""

KERNELS_C = r"""
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

volatile double sink;

static uint64_t rng_state;
static uint64_t rnd(void) {            /* xorshift64*: deterministic inputs */
    rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

static double matmul(void) {
    enum { N = 200 };
    static double a[N][N], b[N][N], c[N][N];
    for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) { a[i][j] = i + j; b[i][j] = i - j; c[i][j] = 0; }
    for (int i = 0; i < N; i++) for (int k = 0; k < N; k++) for (int j = 0; j < N; j++) c[i][j] += a[i][k] * b[k][j];
    return c[N / 2][N / 3];
}

static double sieve(void) {
    enum { N = 3000000 };
    static char comp[N];
    memset(comp, 0, N);
    int count = 0;
    for (long i = 2; i < N; i++) if (!comp[i]) { count++; for (long j = i * i; j < N; j += i) comp[j] = 1; }
    return count;
}

static int cmp_int(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }
static double sort(void) {
    enum { N = 150000 };
    static int v[N];
    rng_state = 88172645463325252ULL;
    for (int i = 0; i < N; i++) v[i] = (int)(rnd() >> 33);
    qsort(v, N, sizeof v[0], cmp_int);
    return v[N / 2];
}

static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static double fibonacci(void) { return (double)fib(30); }

static double nbody(void) {
    enum { B = 5 };
    double x[B], y[B], z[B], vx[B], vy[B], vz[B], m[B];
    for (int i = 0; i < B; i++) { x[i] = i; y[i] = 2 * i % 3; z[i] = i % 2; vx[i] = vy[i] = vz[i] = 0; m[i] = 1 + i; }
    for (int step = 0; step < 120000; step++) {
        for (int i = 0; i < B; i++) for (int j = i + 1; j < B; j++) {
            double dx = x[i] - x[j], dy = y[i] - y[j], dz = z[i] - z[j];
            double d2 = dx * dx + dy * dy + dz * dz + 0.01, mag = 0.001 / (d2 * sqrt(d2));
            vx[i] -= dx * m[j] * mag; vy[i] -= dy * m[j] * mag; vz[i] -= dz * m[j] * mag;
            vx[j] += dx * m[i] * mag; vy[j] += dy * m[i] * mag; vz[j] += dz * m[i] * mag;
        }
        for (int i = 0; i < B; i++) { x[i] += 0.001 * vx[i]; y[i] += 0.001 * vy[i]; z[i] += 0.001 * vz[i]; }
    }
    return x[0] + y[1] + z[2];
}

static double crc32(void) {
    enum { N = 1 << 20 };
    static unsigned char buf[N];
    for (int i = 0; i < N; i++) buf[i] = (unsigned char)(i * 31 + 7);
    uint32_t crc = 0xFFFFFFFFu;
    for (int i = 0; i < N; i++) { crc ^= buf[i]; for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1)); }
    return ~crc;
}

static double mandelbrot(void) {
    int inside = 0;
    for (int py = 0; py < 160; py++) for (int px = 0; px < 160; px++) {
        double cr = -2.0 + 2.5 * px / 160, ci = -1.25 + 2.5 * py / 160, zr = 0, zi = 0;
        int it = 0;
        while (it < 200 && zr * zr + zi * zi < 4) { double t = zr * zr - zi * zi + cr; zi = 2 * zr * zi + ci; zr = t; it++; }
        inside += it == 200;
    }
    return inside;
}

typedef struct node { struct node *next; double payload[3]; } node;
/* layout 0: nodes in order; 1: shuffled within blocks of 64; 2: fully shuffled */
static double walk(int n, int layout, unsigned seed, int passes) {
    node *pool = malloc(sizeof(node) * n);
    int *order = malloc(sizeof(int) * n);
    for (int i = 0; i < n; i++) order[i] = i;
    rng_state = 0x9E3779B97F4A7C15ULL ^ seed;
    int block = layout == 0 ? 1 : layout == 1 ? 64 : n;
    for (int start = 0; start < n; start += block) {
        int end = start + block < n ? start + block : n;
        for (int i = end - 1; i > start; i--) { int j = start + (int)(rnd() % (uint64_t)(i - start + 1)); int t = order[i]; order[i] = order[j]; order[j] = t; }
    }
    for (int i = 0; i < n; i++) { pool[order[i]].next = i + 1 < n ? &pool[order[i + 1]] : NULL; pool[order[i]].payload[0] = i; }
    double s = 0;
    for (int p = 0; p < passes; p++) for (node *q = &pool[order[0]]; q; q = q->next) s += q->payload[0];
    free(pool); free(order);
    return s;
}
static double listwalk(void) { return walk(100000, 2, 1, 4); }

static double strhash(void) {
    char word[32];
    uint64_t total = 0;
    for (int i = 0; i < 300000; i++) {
        int len = 0, v = i;
        do { word[len++] = (char)('a' + v % 26); v /= 26; } while (v);
        uint64_t h = 1469598103934665603ULL;
        for (int k = 0; k < len; k++) { h ^= (unsigned char)word[k]; h *= 1099511628211ULL; }
        total += h >> 60;
    }
    return (double)total;
}

static double bubble(void) {
    enum { N = 2500 };
    static int v[N];
    for (int i = 0; i < N; i++) v[i] = (i * 7919) % N;
    for (int i = 0; i < N; i++) for (int j = 0; j + 1 < N - i; j++) if (v[j] > v[j + 1]) { int t = v[j]; v[j] = v[j + 1]; v[j + 1] = t; }
    return v[N / 2];
}

static double histogram(void) {
    enum { N = 1 << 22 };
    static unsigned char data[N];
    static long bins[256];
    rng_state = 2463534242ULL;
    for (int i = 0; i < N; i += 8) { uint64_t r = rnd(); memcpy(data + i, &r, 8); }
    memset(bins, 0, sizeof bins);
    for (int i = 0; i < N; i++) bins[data[i]]++;
    return bins[17];
}

static double prefix(void) {
    enum { N = 1 << 20 };
    static double v[N];
    for (int i = 0; i < N; i++) v[i] = (i & 15) * 0.5;
    for (int r = 0; r < 6; r++) for (int i = 1; i < N; i++) v[i] = v[i] * 0.5 + v[i - 1] * 0.5;
    return v[N - 1];
}

static double knapsack(void) {
    enum { ITEMS = 250, CAP = 20000 };
    static int best[CAP + 1];
    memset(best, 0, sizeof best);
    for (int i = 0; i < ITEMS; i++) {
        int w = 37 + (i * 53) % 211, val = 11 + (i * 97) % 389;
        for (int c = CAP; c >= w; c--) if (best[c - w] + val > best[c]) best[c] = best[c - w] + val;
    }
    return best[CAP];
}

static double saxpy(void) {
    enum { N = 1 << 18 };
    static float x[N], y[N];
    for (int i = 0; i < N; i++) { x[i] = i * 0.001f; y[i] = 1.0f; }
    for (int r = 0; r < 40; r++) for (int i = 0; i < N; i++) y[i] = 1.0001f * x[i] + y[i];
    return y[N / 2];
}

/* the multimodal program: the layout is drawn at random in each process (from the seed) */
static double layout(unsigned seed) {
    uint64_t s = seed * 2654435761ULL + 12345; s ^= s >> 17;
    int u = (int)(s % 100);
    int lay = u < 55 ? 0 : u < 85 ? 1 : 2;
    return walk(400000, lay, seed, 3);
}

double run_kernel(const char *name, unsigned seed) {
    if (!strcmp(name, "matmul")) return matmul();
    if (!strcmp(name, "sieve")) return sieve();
    if (!strcmp(name, "qsort")) return sort();
    if (!strcmp(name, "fib")) return fibonacci();
    if (!strcmp(name, "nbody")) return nbody();
    if (!strcmp(name, "crc32")) return crc32();
    if (!strcmp(name, "mandelbrot")) return mandelbrot();
    if (!strcmp(name, "listwalk")) return listwalk();
    if (!strcmp(name, "strhash")) return strhash();
    if (!strcmp(name, "bubble")) return bubble();
    if (!strcmp(name, "histogram")) return histogram();
    if (!strcmp(name, "prefix")) return prefix();
    if (!strcmp(name, "knapsack")) return knapsack();
    if (!strcmp(name, "saxpy")) return saxpy();
    if (!strcmp(name, "layout")) return layout(seed);
    return NAN;
}
"""

PAD_C = r"""
/* code and data padding: shifts the alignment of everything linked after it */
__attribute__((used)) static volatile char pad_data[PAD_DATA + 1];
__attribute__((used, noinline)) void pad_code(void) { __asm__ volatile(".skip " PAD_CODE_STR ", 0x90"); pad_data[0]++; }
"""

SUITE_KERNELS = ["matmul", "sieve", "qsort", "fib", "nbody", "crc32", "mandelbrot", "listwalk", "strhash",
                 "bubble", "histogram", "prefix", "knapsack", "saxpy"]
SYSTEMS = {"O1": "-O1", "O2": "-O2"}


# ----------------------------------------------------------------------------- building and running


class Builder:
    """Compiles the program into a scratch directory: one binary per (flags, padding, link order)."""

    def __init__(self, workdir: Path) -> None:
        self.dir = workdir.resolve()
        for name, text in (("main.c", MAIN_C), ("kernels.c", KERNELS_C), ("pad.c", PAD_C)):
            (self.dir / name).write_text(text)
        self.count = 0

    def build(self, flags: str, pad_code: int = 0, pad_data: int = 0, order: tuple[str, ...] = ("main", "kernels", "pad")
              ) -> Path:
        self.count += 1
        tag = f"b{self.count}"
        objs = []
        for unit in order:
            obj = self.dir / f"{unit}-{tag}.o"
            defs = [f"-DPAD_DATA={pad_data}", f'-DPAD_CODE_STR="{pad_code + 1}"'] if unit == "pad" else []
            subprocess.run(["gcc", *flags.split(), "-std=c11", "-D_POSIX_C_SOURCE=199309L", *defs, "-c",
                            str(self.dir / f"{unit}.c"), "-o", str(obj)], check=True)
            objs.append(str(obj))
        exe = self.dir / f"prog-{tag}"
        subprocess.run(["gcc", *flags.split(), *objs, "-o", str(exe), "-lm"], check=True)
        return exe


def run(exe: Path, kernel: str, iterations: int = 1, warmup: int = 0, seed: int = 0) -> list[float]:
    """One process invocation: the kernel's times (s) for each measured iteration."""
    out = subprocess.run([str(exe), kernel, str(iterations), str(warmup), str(seed)], check=True,
                         capture_output=True, text=True).stdout
    return [float(line) for line in out.split()]


def interleaved(jobs: list, rng: random.Random) -> list:
    """Jobs in a random order (seeded), so drifts of the machine hit every system alike."""
    jobs = list(jobs)
    rng.shuffle(jobs)
    return jobs


# ----------------------------------------------------------------------------- the data sets


def machine() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if line.startswith("Model name"):
                cpu = line.split(":", 1)[1].strip()
    except OSError:
        pass
    gcc = subprocess.run(["gcc", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{cpu}, {os.cpu_count()} logical CPU(s) shared with other jobs (load average {load} at the start); "
            f"{platform.system()} {platform.release()}; {gcc}; Python {platform.python_version()}")


def write_readme(folder: Path, title: str, body: str, info: str, seconds: float) -> None:
    when = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    (folder / "README.md").write_text(
        f"# {title}\n\n{body.strip()}\n\n"
        f"- Collected: {when}, in {seconds:.0f} s, by `benchmarks/collect_examples.py` (seed {SEED}).\n"
        f"- Machine: {info}.\n"
        "- Times are measured by the program itself (`clock_gettime(CLOCK_MONOTONIC)` around the kernel only), "
        "in seconds; every run is a separate process unless stated otherwise. Nothing is synthetic: the values "
        "are real measurements, rounded to the nanosecond.\n")


def collect_two_versions(b: Builder, out: Path, info: str, runs: int, rng: random.Random) -> None:
    start = time.perf_counter()
    exes = {name: b.build(flags) for name, flags in SYSTEMS.items()}
    times: dict[str, list[float]] = {name: [] for name in exes}
    for name, i in interleaved([(n, i) for n in exes for i in range(runs)], rng):
        times[name] += run(exes[name], "nbody", seed=i)
    out.mkdir(parents=True, exist_ok=True)
    for name, fname in (("O1", "baseline.txt"), ("O2", "candidate.txt")):
        (out / fname).write_text("".join(f"{t:.9f}\n" for t in times[name]))
    write_readme(out, "two-versions: one program, two builds", f"""
An n-body simulation (5 bodies, 120,000 steps; `nbody` in the script) built twice from the same
source: `baseline.txt` with `gcc -O1`, `candidate.txt` with `gcc -O2`. {runs} runs each, one
process per run, runs of the two versions interleaved in random order; one value per line
(seconds). Is -O2 faster, by how much, and is that real given the noise?

    perfrigor compare baseline.txt candidate.txt
""", info, time.perf_counter() - start)


def collect_multimodal(b: Builder, out: Path, info: str, runs: int, rng: random.Random) -> None:
    start = time.perf_counter()
    exes = {name: b.build(flags) for name, flags in SYSTEMS.items()}
    times: dict[str, list[float]] = {name: [] for name in exes}
    for name, _ in interleaved([(n, i) for n in exes for i in range(runs)], rng):
        # the minimum of 3 in-process repetitions (same layout) damps the scheduling noise of a
        # busy machine, leaving the modes that the layouts cause
        times[name].append(min(run(exes[name], "layout", iterations=3, seed=rng.randrange(1, 2**31))))
    out.mkdir(parents=True, exist_ok=True)
    for name, fname in (("O1", "baseline.txt"), ("O2", "candidate.txt")):
        (out / fname).write_text("".join(f"{t:.9f}\n" for t in times[name]))
    write_readme(out, "multimodal: execution times with several modes", f"""
A pointer-chasing program (3 passes over a linked list of 400,000 nodes; `layout` in the script)
whose memory layout is drawn at random in each process: nodes in order (probability 0.55),
shuffled within blocks of 64 (0.30) or shuffled across the whole list (0.15). Real programs get
such layout changes from the allocator, ASLR, environment size or link order, and their times
then cluster in modes. The multimodality is induced by the program's own random choice of
layout; the times themselves are real. `baseline.txt` is built with `gcc -O1`, `candidate.txt`
with `gcc -O2`, {runs} runs each (one process per run, interleaved), one value per line. Each
value is the minimum of 3 repetitions of the walk inside the process (same layout), which damps
the scheduling noise of the busy machine but not the modes the layouts cause.

    perfrigor describe baseline.txt          # mixture fit: how many modes?
    perfrigor compare baseline.txt candidate.txt --pipeline gmm
""", info, time.perf_counter() - start)


def collect_hierarchical(b: Builder, out: Path, info: str, builds: int, invocations: int, iterations: int,
                         rng: random.Random) -> None:
    start = time.perf_counter()
    exes: dict[tuple[str, int], Path] = {}
    recipes = []
    for name, flags in SYSTEMS.items():
        for k in range(1, builds + 1):
            order = tuple(rng.sample(["main", "kernels", "pad"], 3))
            pad_code, pad_data = rng.randrange(0, 4096, 16), rng.randrange(0, 4096, 8)
            exes[name, k] = b.build(flags, pad_code, pad_data, order)
            recipes.append(f"| {name} | {k} | {' '.join(order)} | {pad_code + 1} | {pad_data} |")
    rows = []
    jobs = [(name, k, j) for (name, k) in exes for j in range(1, invocations + 1)]
    for name, k, j in interleaved(jobs, rng):
        for i, t in enumerate(run(exes[name, k], "matmul", iterations, warmup=1), 1):
            rows.append((name, k, j, i, t))
    rows.sort()
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "experiment.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["system", "build", "invocation", "iteration", "time"])
        w.writerows((s, k, j, i, f"{t:.9f}") for s, k, j, i, t in rows)
    table = "\n".join(recipes)
    write_readme(out, "hierarchical: builds x invocations x iterations", f"""
A three-level experiment in the sense of Kalibera & Jones: a naive 200x200 matrix product
(`matmul` in the script), for two systems (`gcc -O1` and `gcc -O2`). Each system is compiled
{builds} times ("build"), each build linking the same three objects in a random order with
random code padding (`.skip` bytes in a function placed in the link order) and random data
padding, so code and data alignment differ between builds as they do between real compilations.
Each build is run in {invocations} fresh processes ("invocation"); each process runs the kernel
{iterations} times ("iteration") after one unrecorded warm-up iteration. Processes of all builds
and systems are interleaved in random order.

`experiment.csv` is tidy: columns system, build, invocation, iteration, time (seconds); one row
per measurement ({len(rows)} rows).

    perfrigor run --pipeline kalibera-jones experiment.csv

The builds:

| system | build | link order | code padding (bytes) | data padding (bytes) |
|---|---|---|---|---|
{table}
""", info, time.perf_counter() - start)


def collect_suite(b: Builder, out: Path, info: str, runs: int, rng: random.Random) -> None:
    start = time.perf_counter()
    exes = {name: b.build(flags) for name, flags in SYSTEMS.items()}
    rows = []
    jobs = [(k, s, r) for k in SUITE_KERNELS for s in exes for r in range(1, runs + 1)]
    for kernel, name, r in interleaved(jobs, rng):
        rows.append((kernel, name, r, run(exes[name], kernel, seed=r)[0]))
    rows.sort(key=lambda row: (SUITE_KERNELS.index(row[0]), row[1], row[2]))
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "suite.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["benchmark", "system", "run", "time"])
        w.writerows((k, s, r, f"{t:.9f}") for k, s, r, t in rows)
    write_readme(out, "suite: 14 benchmarks x 2 systems", f"""
{len(SUITE_KERNELS)} small C kernels ({", ".join(SUITE_KERNELS)}), each compiled as one program with
`gcc -O1` (system O1) and `gcc -O2` (system O2). {runs} runs of every benchmark on every system,
one process per run, all runs of the suite interleaved in random order. Some kernels gain from
-O2, some do not: a suite where "is O2 faster?" needs an answer across benchmarks (HPT, the
proportion of accelerated benchmarks).

`suite.csv` is tidy: columns benchmark, system, run, time (seconds), one row per measurement.

    perfrigor run --pipeline hpt suite.csv
""", info, time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder of the example data sets")
    ap.add_argument("--quick", action="store_true", help="fewer runs (to try the script)")
    ap.add_argument("--only", nargs="*", default=None, help="data sets to collect (default: all)")
    args = ap.parse_args(argv)
    if shutil.which("gcc") is None:
        print("collect_examples: gcc is needed", file=sys.stderr)
        return 2
    q = args.quick
    info = machine()
    wanted = set(args.only or ["two-versions", "multimodal", "hierarchical", "suite"])
    with tempfile.TemporaryDirectory(prefix="perfrigor-examples-") as tmp:
        b = Builder(Path(tmp))
        steps = {
            "two-versions": lambda rng: collect_two_versions(b, args.out / "two-versions", info, 8 if q else 40, rng),
            "multimodal": lambda rng: collect_multimodal(b, args.out / "multimodal", info, 10 if q else 60, rng),
            "hierarchical": lambda rng: collect_hierarchical(b, args.out / "hierarchical", info, 2 if q else 6,
                                                             2 if q else 5, 3 if q else 8, rng),
            "suite": lambda rng: collect_suite(b, args.out / "suite", info, 2 if q else 10, rng),
        }
        for name, step in steps.items():
            if name in wanted:
                t0 = time.perf_counter()
                step(random.Random(f"{SEED}-{name}"))  # each data set its own seeded order, whatever is collected
                print(f"{name}: {time.perf_counter() - t0:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
