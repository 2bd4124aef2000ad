"""COMPUTE!'s MLX listings (toolchain/typein/mlx.py, ``c64tc mlx``): the new MLX's checksum
against MLX II's own routine run on VICE (tests/data/checksums/mlx2.json) and against
rows the magazine printed (mlx-1985-printed.mlx); the rows' reading, the typo hints and
the PRG as MLX saves it, as ``c64tc mse`` does for the 64'er's dumps."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.conftest import DATA, REPO
from toolchain.cli import main
from toolchain.diagnostics import UserError
from toolchain.disk.prg import Prg
from toolchain.inputs import Kind, classify
from toolchain.typein import mlx

SUMS = DATA / "checksums"
PRINTED = SUMS / "mlx-1985-printed.mlx"
DERANDOMIZED = settings(derandomize=True, database=None, deadline=None, max_examples=80)


def _run(*arguments: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(arguments), input=stdin)
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


# -- the checksum ----------------------------------------------------------------------------------------

def test_the_checksum_is_what_mlx_ii_computed_on_vice() -> None:
    rows = json.loads((SUMS / "mlx2.json").read_text())["rows"]
    assert len(rows) == 100
    assert [mlx.checksum(row["address"], row["bytes"]) for row in rows] == [row["checksum"] for row in rows]


def test_every_row_the_magazine_printed_fits() -> None:
    listing = mlx.parse(PRINTED.read_text(), str(PRINTED))
    assert listing.format is mlx.Format.MLX_1985
    assert len(listing.rows) == 66
    assert mlx.check(listing) == []


def test_the_1984_checksum_is_the_address_low_byte_plus_the_bytes() -> None:
    """MLX (1984): CKSUM = AD - INT(AD/256)*256, plus each byte, AND 255 (J. Nebus's
    reading of the listing; no printed rows were to be had to test it against)."""
    assert mlx.checksum(49152, [169, 0, 141, 32, 208, 96], mlx.Format.MLX_1984) == (0 + 646) % 256
    assert mlx.checksum(49407, [1, 0, 0, 0, 0, 0], mlx.Format.MLX_1984) == 0


@DERANDOMIZED
@given(st.integers(0, 0xFFFA), st.lists(st.integers(0, 255), min_size=6, max_size=6), st.integers(0, 4))
@example(0xC000, [169, 0, 141, 32, 208, 96], 0)
def test_the_1984_sum_cannot_see_swapped_bytes(address: int, data: list[int], index: int) -> None:
    """Why the new MLX came (J. Nebus): the 1984 sum does not see two bytes typed the
    wrong way round ..."""
    swapped = list(data)
    swapped[index], swapped[index + 1] = swapped[index + 1], swapped[index]
    old = mlx.Format.MLX_1984
    assert mlx.checksum(address, swapped, old) == mlx.checksum(address, data, old)


def test_the_new_mlx_sees_them() -> None:
    """... and the new one's rotation does (the first row of Space Arena, bytes 3 and 4)."""
    row = [0xA9, 0x37, 0x85, 0xFC, 0xA9, 0xD7, 0x85, 0xFE]
    swapped = [0xA9, 0x37, 0xFC, 0x85, 0xA9, 0xD7, 0x85, 0xFE]
    assert mlx.checksum(0xC000, row) == 0x5B != mlx.checksum(0xC000, swapped)


# -- reading rows, and the typos ---------------------------------------------------------------------------

ROWS = ("C000: A9 37 85 FC A9 D7 85 FE 5B\nC008: A0 00 84 FB 84 FD 78 A5 DC\n"
        "C010: 01 29 FB 85 01 B1 FD 91 90\n")


def _problems(text: str) -> list[str]:
    return [problem.format() for problem in mlx.check(mlx.parse(text, "l.mlx"))]


def test_a_one_digit_typo_is_named() -> None:
    problems = _problems(ROWS.replace("78 A5", "78 A6"))
    assert len(problems) == 1
    assert problems[0].startswith("l.mlx:2:31: error: checksum")
    assert "byte 8 A6->A5)" in problems[0]  # among the one-digit changes that fit


def test_swapped_bytes_and_swapped_digits_are_named() -> None:
    problems = _problems(ROWS.replace("84 FB 84 FD", "FB 84 84 FD"))
    assert "bytes 3 and 4 swapped" in problems[0]
    problems = _problems(ROWS.replace("84 FB 84 FD", "48 FB 84 FD"))
    assert "byte 3 48->84" in problems[0]


def test_a_misread_letter_is_named_with_its_column() -> None:
    problems = _problems(ROWS.replace("85 01 B1", "85 Ol B1"))
    assert problems[0].startswith("l.mlx:3:19: error: 'Ol' is not a hex byte (did you mean 01? the checksum "
                                  "fits")


def test_rows_that_cannot_be_read() -> None:
    problems = _problems("C000: A9 37\nhello\nC008 A0 00\n")
    assert problems[0].startswith("l.mlx:1:6: error: expected 8 bytes and a checksum, found 2 values")
    assert problems[1].startswith("l.mlx:2:1: error: not an MLX row")
    assert len(problems) == 3


def test_the_1984_rows() -> None:
    text = "49152 :169,000,141,032,208,096,134\n49158 : 1, 2 ,3,4,5,6,27\n"
    listing = mlx.parse(text, "o.mlx")
    assert listing.format is mlx.Format.MLX_1984 and mlx.check(listing) == []
    problems = _problems(text.replace("141,032", "141,023"))
    assert "byte 4 023->032" in problems[0]
    problems = _problems(text.replace("208", "298"))
    assert "'298' is not a byte (0-255)" in problems[0]


# -- the PRG, as MLX saves it ------------------------------------------------------------------------

def test_the_ending_address_cuts_the_last_row() -> None:
    two_rows = "".join(ROWS.splitlines(keepends=True)[:2])
    listing = mlx.parse("Starting address: C000\nEnding address: C00A\n" + two_rows, "l.mlx")
    prg = mlx.to_prg(listing)
    assert prg.load_address == 0xC000 and len(prg.data) == 11 and prg.data[-1] == 0x84
    assert mlx.to_prg(listing, end=0xC00F).data[-1] == 0xA5


def test_rows_missing_or_past_the_end_are_errors() -> None:
    with pytest.raises(UserError, match=r"row at \$C010, but \$C008 was expected"):
        mlx.to_prg(mlx.parse(ROWS.splitlines()[0] + "\n" + ROWS.splitlines()[2], "l.mlx"))
    with pytest.raises(UserError, match=r"past the ending address \$C00F"):
        mlx.to_prg(mlx.parse(ROWS, "l.mlx"), end=0xC00F)
    with pytest.raises(UserError, match="before the ending address"):
        mlx.to_prg(mlx.parse(ROWS, "l.mlx"), end=0xC020)
    with pytest.raises(UserError, match="no MLX rows"):
        mlx.to_prg(mlx.parse("; nothing\n", "l.mlx"))


@DERANDOMIZED
@given(st.integers(0, 0xFFFF), st.binary(min_size=1, max_size=100), st.sampled_from(list(mlx.Format)))
@example(0xFFFF, b"\x01", mlx.Format.MLX_1985)
@example(0xC000, bytes(8), mlx.Format.MLX_1985)
@example(0xC000, bytes(range(9)), mlx.Format.MLX_1984)
@example(0xFFF8, b"\xff" * 8, mlx.Format.MLX_1985)
def test_a_listing_made_of_a_prg_gives_the_prg_back(start: int, data: bytes, format: mlx.Format) -> None:
    data = data[: 0x10000 - start]
    prg = Prg(start, data)
    text = mlx.from_prg(prg, format)
    listing = mlx.parse(text, "p.mlx")
    assert listing.format is format
    assert mlx.check(listing) == []
    assert mlx.to_prg(listing) == prg


# -- the commands ------------------------------------------------------------------------------------

def test_mlx_check_and_toprg(tmp_path: Path) -> None:
    listing = tmp_path / "space.mlx"
    listing.write_text("Starting address: C000\nEnding address: C007\n" + ROWS.splitlines()[0] + "\n")
    expected = f"{listing}: 1 row of the new MLX (1985), all checksums correct\n"
    assert _run("mlx", "check", str(listing))[1] == expected
    output = tmp_path / "space.prg"
    status, _, err = _run("mlx", "toprg", str(listing), "-o", str(output))
    assert status == 0 and err == f"{output}: $C000-$C007, 8 bytes (+2 load address)\n"
    assert output.read_bytes() == bytes.fromhex("00C0A93785FCA9D785FE")
    status, out, _ = _run("mlx", "fromprg", str(output))
    assert out.splitlines()[2] == ROWS.splitlines()[0]


@pytest.mark.parametrize(("format", "address"), [("1985", "$C000"), ("1984", "49152")])
def test_a_program_of_no_bytes_has_no_listing(tmp_path: Path, format: str, address: str) -> None:
    """`mlx fromprg` of a PRG that is its load address alone wrote "Ending address: BFFF"
    (before the start) and no row: a listing that check and toprg then refused.  An
    error now, and nothing written."""
    prg = tmp_path / "empty.prg"
    prg.write_bytes(b"\x00\xc0")
    out = tmp_path / "empty.mlx"
    status, _, err = _run("mlx", "fromprg", str(prg), "--format", format, "-o", str(out))
    assert status == 1
    assert err == (f"{prg}: error: the program is its load address ({address}) alone: no bytes to list "
                   "(an MLX listing has one row at least)\n")
    assert not out.exists()


def test_a_bad_row_fails_and_writes_nothing(tmp_path: Path) -> None:
    listing = tmp_path / "bad.mlx"
    listing.write_text(ROWS.replace("5B", "5C"))
    output = tmp_path / "bad.prg"
    output.write_bytes(b"previous")
    status, _, err = _run("mlx", "toprg", str(listing), "-o", str(output))
    assert status == 1 and f"{listing}:1:31: error: checksum 5B, expected 5C" in err
    assert output.read_bytes() == b"previous"


def test_an_mlx_listing_and_an_mse_dump_are_told_apart(tmp_path: Path) -> None:
    assert classify(PRINTED.read_bytes(), "x.mlx").kind is Kind.MLX_LISTING
    assert classify(b"49152 :169,000,141,032,208,096,134\n", "x.mlx").kind is Kind.MLX_LISTING
    dump = REPO / "sources" / "superhirn2.mse"
    assert classify(dump.read_bytes(), "x.mse").kind is Kind.MSE_DUMP
    status, _, err = _run("mse", "check", str(PRINTED))
    assert status == 1
    assert "is an MLX listing (COMPUTE!'s machine-code rows), not an MSE dump: `c64tc mlx check" in err
    status, _, err = _run("mlx", "check", str(dump))
    assert status == 1 and "is an MSE hex dump, not an MLX listing: `c64tc mse check" in err


def test_disasm_reads_an_mlx_listing(tmp_path: Path) -> None:
    listing = tmp_path / "a.mlx"
    listing.write_text(ROWS)
    status, out, _ = _run("disasm", str(listing))
    assert status == 0 and out.splitlines()[0].split()[:4] == [".C:c000", "A9", "37", "LDA"]


def test_a_long_listing_of_bad_rows_is_checked_in_bounded_work() -> None:
    """Hints are looked for in the first hundred bad rows only (a few hundred checksums
    each); every bad row is still reported."""
    rows = []
    for index in range(1500):
        address = 0x1000 + 8 * index
        data = [(index + k) & 0xFF for k in range(8)]
        printed = mlx.checksum(address, data)
        data[7] ^= 0x01  # a one-digit typo in the last byte
        rows.append(f"{address:04X}: " + " ".join(f"{b:02X}" for b in [*data, printed]) + "\n")
    started = time.monotonic()
    problems = mlx.check(mlx.parse("".join(rows), "big.mlx"))
    assert time.monotonic() - started < 20
    assert len(problems) == 1500
    assert sum("(" in problem.message for problem in problems[:100]) > 50
    assert not any("(" in problem.message for problem in problems[100:])
