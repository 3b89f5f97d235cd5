"""Input limits: a file over --max-input-size, or a gzip bomb, is a one-line DataError (exit 2) before it costs memory."""

from __future__ import annotations

import gzip
import json

import perfrigor as pr
import pytest
from perfrigor.cli import main
from perfrigor.readers.limits import DEFAULT_MAX_INPUT_SIZE, RATIO_FLOOR, parse_size


@pytest.mark.parametrize(("text", "size"), [
    (1000, 1000), ("1000", 1000), ("500K", 500 << 10), ("2M", 2 << 20), ("1.5G", 3 << 29), ("2 GB", 2 * 10**9),
    ("3KiB", 3 << 10), ("1t", 1 << 40), ("none", None), (None, None),
])
def test_sizes_read_as_gnu_tools_read_them(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "0", "-5", "12X", "1.5.5M", True, 2.5, "K"])
def test_a_size_that_is_no_size_is_a_config_error(text):
    with pytest.raises(pr.ConfigError, match="is not a size"):
        parse_size(text)


def test_the_default_limit_is_one_gibibyte():
    assert DEFAULT_MAX_INPUT_SIZE == 1 << 30


@pytest.fixture
def values(tmp_path):
    path = tmp_path / "v.txt"
    path.write_text("1.5\n" * 3000)  # 12,000 bytes
    return path


def test_a_file_over_the_limit_is_refused_naming_both_sizes(values):
    with pytest.raises(pr.DataError) as err:
        pr.read(values, max_input_size="10K")
    assert str(err.value).startswith(f"{values}: 11.7 KiB (12,000 bytes) is more than the input size limit of 10 KiB "
                                     "(10,240 bytes); raise it with --max-input-size")
    assert pr.read(values, max_input_size="12K").values.size == 3000
    assert pr.read(values, max_input_size="none").values.size == 3000


def test_the_limit_is_reachable_from_the_cli_and_a_config(values, tmp_path, capsys):
    assert main(["describe", "--max-input-size", "10K", str(values)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "is more than the input size limit of 10 KiB" in err
    config = tmp_path / "c.toml"
    config.write_text('[input]\nmax_input_size = "10K"\n\n[[steps]]\ncomponent = "fieller"\n')
    assert main(["run", "-c", str(config), str(values), str(values)]) == 2
    assert "input size limit of 10 KiB" in capsys.readouterr().err
    assert main(["run", "-c", str(config), "--max-input-size", "1M", str(values), str(values), "-f", "json"]) == 0
    assert main(["describe", "--max-input-size", "12 apples", str(values)]) == 2
    assert "'12 apples' is not a size" in capsys.readouterr().err


def test_a_gzip_bomb_is_refused_before_it_unpacks(tmp_path, capsys):
    bomb = tmp_path / "bomb.json.gz"
    bomb.write_bytes(gzip.compress(b"[" + b"1.0," * (RATIO_FLOOR // 4 + 1_000_000) + b"1.0]", 9))
    assert bomb.stat().st_size < 100_000
    with pytest.raises(pr.DataError, match=r"gzip data unpacks to more than 100 times its size .*decompression bomb"):
        pr.read(bomb)
    assert main(["describe", str(bomb)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    with pytest.raises(pr.DataError, match="gzip data unpacks to more than the input size limit of 1 MiB"):
        pr.read(bomb, max_input_size="1M")


def test_a_small_gzip_file_of_any_ratio_is_read(tmp_path):
    packed = tmp_path / "v.json.gz"
    packed.write_bytes(gzip.compress(json.dumps([1.0] * 200_000).encode(), 9))  # ~1 MB, ratio ~ 300
    assert pr.read(packed).values.size == 200_000


def test_a_damaged_gzip_file_is_named(tmp_path):
    broken = tmp_path / "v.json.gz"
    broken.write_bytes(gzip.compress(b"[1, 2, 3]")[:-6])
    with pytest.raises(pr.DataError, match=r"v.json.gz: damaged gzip file"):
        pr.read(broken, format="json")
