"""The Speedup-Test ``.cfg`` reader under an oracle (issues 16 and 18): at least 2,000 generated configurations,
each with one targeted mutation whose outcome is known beforehand -- read exactly, or a one-line DataError naming
the right file and line. Sample files outside the cfg's folder are refused, and an unreadable line of a sample
file is never shown.
"""

from __future__ import annotations

from pathlib import Path

import perfrigor as pr
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ..io.test_io_fuzz import ERROR, TEXT_TOKENS

CFG_FILES = 2000
SECRET = "root:x:0:0:SECRET"
HEADER = "Name,Sample1,Sample2,ConfLevel,Coef\n"
#: a ConfLevel field -> read (True) or refused (False)
LEVELS = {"NA": True, "": True, "0.95": True, ".9": True, "9.5e-1": True, "1_0": False, "inf": False,
          "0x1": False, "1.5": False, "0": False, "\u0660.9": False, "nan": False}
#: a Sample1 path -> read (True) or refused (False); {dir} is the cfg's folder
PATHS = {"{dir}/s0a.txt": True, "sub/../s0a.txt": True, "./s0a.txt": True, "../outside.txt": False,
         "/etc/passwd": False, "../secret.txt": False, "link.txt": False, "s0a\x00.txt": False, "missing.txt": False}

times = st.lists(st.floats(min_value=1e-6, max_value=1e6, allow_nan=False), min_size=2, max_size=4)
rows = st.lists(st.tuples(times, times), min_size=1, max_size=3)


def write(path: Path, text: str) -> None:
    path.unlink(missing_ok=True)  # a new file: rewriting one in place costs a flush on some file systems
    path.write_bytes(text.encode("utf-8", errors="surrogatepass"))


def build(folder: Path, data) -> tuple[list[str], dict[str, list[float]]]:
    """Sample files and cfg rows for ``data``; ``{file name: values}``."""
    lines, files = [], {}
    for i, (a, b) in enumerate(data):
        for tag, vals in (("a", a), ("b", b)):
            name = f"s{i}{tag}.txt"
            write(folder / name, "".join(f"{v!r}\n" for v in vals))
            files[name] = list(vals)
        lines.append(f"bench{i},s{i}a.txt,s{i}b.txt,NA,NA\n")
    return lines, files


def check(cfg: Path, want_values, error_at: tuple[Path, int] | None, **options) -> None:
    """Read ``cfg``: exactly ``want_values`` ({benchmark: (initial, optimised)}) or a DataError at ``error_at``."""
    try:
        suite = pr.read(cfg, format="speedup-test-config", **options)
    except pr.DataError as exc:
        msg = str(exc)
        assert want_values is None, f"refused a readable cfg: {msg}"
        assert "\n" not in msg and SECRET not in msg and "root:x" not in msg, msg
        file, line = error_at
        assert msg.startswith(f"{file}, line {line}:") if line else msg.startswith(str(file)), (error_at, msg)
        return
    assert want_values is not None, f"read a cfg that must be refused ({error_at})"
    got = {b: (suite[b]["initial"].values.tolist(), suite[b]["optimised"].values.tolist()) for b in suite.benchmarks}
    assert got == want_values


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=rows, k=st.integers(0, 20))
def _cfg_oracle(tmp_path, counter, data, k):
    folder = tmp_path / "cfg"
    (folder / "sub").mkdir(parents=True, exist_ok=True)
    write(tmp_path / "outside.txt", "1.0\n2.0\n")
    write(tmp_path / "secret.txt", SECRET + "\n")
    if not (folder / "link.txt").is_symlink():
        (folder / "link.txt").symlink_to(tmp_path / "outside.txt")
    lines, files = build(folder, data)
    cfg = folder / "bench.cfg"
    want = {f"bench{i}": (list(a), list(b)) for i, (a, b) in enumerate(data)}
    write(cfg, HEADER + "".join(lines))
    check(cfg, want, None)
    counter.append(1)
    # a token in place of one value of the first sample file
    target = folder / "s0a.txt"
    j = k % len(files["s0a.txt"])
    for token, expected in TEXT_TOKENS.items():
        vals = [repr(v) for v in files["s0a.txt"]]
        vals[j] = token
        write(target, "\n".join(vals) + "\n")
        if expected is ERROR:
            check(cfg, None, (target, j + 1))
        else:
            changed = {**want, "bench0": ([*files["s0a.txt"][:j], expected, *files["s0a.txt"][j + 1:]], want["bench0"][1])}
            check(cfg, changed, None)
        counter.append(1)
    write(target, "".join(f"{v!r}\n" for v in files["s0a.txt"]))
    # the first row's ConfLevel
    for level, ok in LEVELS.items():
        row = lines[0].replace(",NA,NA", f",{level},NA")
        write(cfg, HEADER + row + "".join(lines[1:]))
        check(cfg, want if ok else None, (cfg, 2))
        counter.append(1)
    # the first row's Sample1 path
    for rel, ok in PATHS.items():
        row = lines[0].replace("s0a.txt", rel.format(dir=folder), 1)
        write(cfg, HEADER + row + "".join(lines[1:]))
        check(cfg, want if ok else None, (cfg, 2))
        counter.append(1)
    # outside allowed: read, and a non-measurement file is never shown
    row = lines[0].replace("s0a.txt", "../outside.txt", 1)
    write(cfg, HEADER + row + "".join(lines[1:]))
    check(cfg, {**want, "bench0": ([1.0, 2.0], want["bench0"][1])}, None, allow_outside=True)
    row = lines[0].replace("s0a.txt", "../secret.txt", 1)
    write(cfg, HEADER + row + "".join(lines[1:]))
    check(cfg, None, (tmp_path / "secret.txt", 1), allow_outside=True)
    # a NUL byte anywhere in the cfg's rows
    text = HEADER + "".join(lines)
    at = len(HEADER) + k % (len(text) - len(HEADER))
    write(cfg, text[:at] + "\x00" + text[at:])
    check(cfg, None, (cfg, text.count("\n", 0, at) + 1))
    counter.append(3)


def test_cfg_oracle_every_mutated_configuration_reads_as_it_should(tmp_path):
    counter: list[int] = []
    _cfg_oracle(tmp_path, counter)
    assert sum(counter) >= CFG_FILES, sum(counter)
