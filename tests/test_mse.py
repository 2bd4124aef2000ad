"""MSE V1 dumps: checksums, typo reports, conversions, the corpus."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import DATA, REPO, shared_path
from toolchain import mse
from toolchain.cli import main
from toolchain.diagnostics import UserError
from toolchain.disk import Prg

SUPERHIRN_MSE = REPO / "sources" / "superhirn2.mse"


def test_checksum_of_all_66_lines_printed_in_the_seed() -> None:
    seed = shared_path("seeds", "superhirn2-64er.txt").read_text()
    flat = seed[seed.index("3400 : A9") : seed.index("100 sys32768")]
    rows = re.findall(r"([0-9A-F]{4}) : ((?:[0-9A-F]{2} )+?)([0-9A-F]{2})(?= [0-9A-F]{4} :|\s*$)", flat)
    assert len(rows) == 66
    for address, data, printed in rows:
        values = bytes.fromhex(data)
        address_value = int(address, 16)
        values = values[: 0x360C - address_value]  # only the bytes before END count
        assert mse.checksum(address_value, values) == int(printed, 16), address


@pytest.mark.parametrize("line, expected", [
    ("0801: 1c 08 c4 07 8b 20 c2 28", 0x48),  # C64-Wiki examples
    ("0809: 36 35 35 33 34 29 b2 37", 0x53),
])
def test_checksum_of_the_wiki_lines(line: str, expected: int) -> None:
    address, data = line.split(":")
    assert mse.checksum(int(address, 16), bytes.fromhex(data)) == expected


def test_sources_dump_is_the_seed_dump_line_by_line() -> None:
    dump = mse.parse(SUPERHIRN_MSE.read_text(), str(SUPERHIRN_MSE))
    assert (dump.name, dump.start, dump.end, len(dump.lines)) == ("SUPERHIRN II", 0x3400, 0x360C, 66)
    assert mse.check(dump) == []
    assert mse.to_prg(dump).to_bytes() == (DATA / "superhirn2-mse.bin").read_bytes()


def test_a_changed_byte_is_reported_on_its_line_with_the_likely_typo(tmp_path: Path) -> None:
    lines = SUPERHIRN_MSE.read_text().splitlines()
    assert lines[5].startswith("3418 : 03 0A")  # line 6 of the file
    lines[5] = lines[5].replace("3418 : 03 0A", "3418 : 03 0B")
    bad = tmp_path / "bad.mse"
    bad.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(main, ["mse", "check", str(bad)])
    assert result.exit_code == 1
    first = result.output.splitlines()[0]
    assert first.startswith(f"{bad}:6:32: error: checksum ")  # the printed checksum's column
    assert re.search(r"checksum [0-9A-F]{2}, expected B5", first)
    assert "byte 2, 0B should probably be 0A" in first or "byte 2 0B->0A" in first


def test_a_wrong_checksum_has_a_column_as_every_message() -> None:
    """A checksum error was `FILE:LINE: error:`, without the column every other
    message has (editors and scripts parse FILE:LINE:COL); the caret is under the
    printed checksum, also on a short last line."""
    dump = mse.parse("3400 : A9 93 20 D2 FF A9 01 8D 43\n3408 : 3E 03   11\n", "x.mse")
    shown = [d.format().splitlines() for d in mse.check(dump)]
    assert [(lines[0].split(" (")[0], lines[1:]) for lines in shown] == [
        ("x.mse:1:32: error: checksum 42, expected 43",
         ["3400 : A9 93 20 D2 FF A9 01 8D 43", " " * 31 + "^"]),
        (f"x.mse:2:16: error: checksum {mse.checksum(0x3408, bytes([0x3E, 0x03])):02X}, expected 11",
         ["3408 : 3E 03   11", " " * 15 + "^"]),
    ]


def test_unreadable_byte_is_an_error_with_a_suggestion() -> None:
    path = shared_path("corpus", "mse", "printed", "8512_reass_erratum.mse")
    problems = mse.check(mse.parse(path.read_text(), str(path)))
    assert [p.format().splitlines()[0] for p in problems] == [
        f"{path}:2:28: error: 'el' is not a hex byte (did you mean E1? the checksum fits then)"]


def test_corpus_printed_dumps_verify_except_the_transcription_error() -> None:
    folder = shared_path("corpus", "mse", "printed")
    bad_lines = []
    for path in sorted(folder.glob("*.mse")):
        dump = mse.parse(path.read_text(), str(path))
        assert dump.lines, path.name
        bad_lines += [(path.name, p.line) for p in mse.check(dump)]
    assert bad_lines == [("8512_reass_erratum.mse", 2)]


def test_corpus_derived_dumps_convert_to_their_bin() -> None:
    folder = shared_path("corpus", "mse", "derived")
    dumps = sorted(folder.glob("*.mse"))
    assert len(dumps) == 9
    for path in dumps:
        dump = mse.parse(path.read_text(), str(path))
        assert mse.check(dump) == []
        assert mse.to_prg(dump).to_bytes() == path.with_suffix(".bin").read_bytes(), path.name


def test_typed_variations_are_accepted() -> None:
    text = "\n; typed in by hand\nprogramm : test 0801 0811\n\n0801:1c 08 c4 07 8b 20 c2 28 48\n" \
           "0809 :36 35 35 33 34 29 B2 37   53\n"
    dump = mse.parse(text)
    assert mse.check(dump) == []
    assert mse.to_prg(dump).data == bytes.fromhex("1c08c4078b20c228363535333429b237")


def test_round_trip_prg_dump_prg() -> None:
    for data in [bytes(range(256)) * 3, b"\x60", bytes(17)]:
        prg = Prg(0xC000, data)
        assert mse.to_prg(mse.parse(mse.from_prg(prg, "t"))) == prg


def test_a_program_that_reaches_ffff_has_no_dump() -> None:
    """The header's END (exclusive, four hex digits) cannot say $10000: such a dump was
    written with a five-digit END that parse then refused as no MSE line."""
    assert mse.to_prg(mse.parse(mse.from_prg(Prg(0xFFF0, bytes(15)), "t"))) == Prg(0xFFF0, bytes(15))
    with pytest.raises(UserError, match="reaches .FFFF"):
        mse.from_prg(Prg(0xFFF0, bytes(16)), "t", "t.prg")


def test_a_program_of_no_bytes_has_no_dump(tmp_path: Path) -> None:
    """`mse fromprg` of a PRG that is its load address alone wrote the header and no
    line: a dump that check and toprg then refused ("no data lines").  An error now,
    and nothing written."""
    prg = tmp_path / "empty.prg"
    prg.write_bytes(b"\x00\xc0")
    out = tmp_path / "empty.mse"
    result = CliRunner().invoke(main, ["mse", "fromprg", str(prg), "-o", str(out)])
    assert result.exit_code == 1
    assert result.output == (f"{prg}: error: the program is its load address ($C000) alone: no bytes to dump "
                             "(an MSE dump has one data line at least)\n")
    assert not out.exists()



@pytest.mark.parametrize("name", ["", "   "])
def test_an_empty_name_for_the_header_is_an_error_not_the_files_name(tmp_path: Path, name: str) -> None:
    """`--name ""` fell back to the file's name as if --name were not given."""
    prg = tmp_path / "p.prg"
    prg.write_bytes(b"\x00\xc0\x60")
    out = tmp_path / "p.mse"
    result = CliRunner().invoke(main, ["mse", "fromprg", str(prg), "--name", name, "-o", str(out)])
    assert result.exit_code == 1
    assert result.output.startswith("--name: error: an empty program name")
    assert not out.exists()

def test_dump_format_matches_the_corpus_dumps() -> None:
    path = shared_path("corpus", "mse", "derived", "8409_list-stop.mse")
    prg = Prg.from_bytes(path.with_suffix(".bin").read_bytes())
    ours = mse.from_prg(prg, "list-stop").splitlines()
    theirs = path.read_text().splitlines()
    assert ours[0].split() == theirs[0].split()  # same header, up to the name's padding
    assert ours[1:] == theirs[1:]


def test_missing_line_is_an_error() -> None:
    lines = SUPERHIRN_MSE.read_text().splitlines()
    del lines[5]
    with pytest.raises(UserError) as info:
        mse.to_prg(mse.parse("\n".join(lines)))
    assert "line starts at $3420, but $3418 was expected" in info.value.report()


def test_cli_toprg_and_fromprg(tmp_path: Path) -> None:
    out = tmp_path / "sh.prg"
    assert CliRunner().invoke(main, ["mse", "toprg", str(SUPERHIRN_MSE), "-o", str(out)]).exit_code == 0
    assert out.read_bytes() == (DATA / "superhirn2-mse.bin").read_bytes()
    result = CliRunner().invoke(main, ["mse", "fromprg", str(out), "--name", "superhirn ii"])
    assert result.output.splitlines()[2] == "3400 : A9 93 20 D2 FF A9 01 8D   42"


def test_a_dump_past_ffff_is_an_error_not_a_prg(tmp_path: Path) -> None:
    """Issue 21: `mse toprg` wrote a PRG $FFFC-$10003 (one no C64 can load, and that
    Prg.from_bytes refuses) with exit status 0."""
    data = bytes(range(8))
    line = f"FFFC : {' '.join(f'{b:02X}' for b in data)}   {mse.checksum(0xFFFC, data):02X}"
    dump = tmp_path / "past.mse"
    dump.write_text(line + "\n")
    out = tmp_path / "past.prg"
    result = CliRunner().invoke(main, ["mse", "toprg", str(dump), "-o", str(out)])
    assert result.exit_code == 1 and not out.exists()
    assert result.output.startswith(f"{dump}:1:1: error: the line's bytes $FFFC-$10003 run past $FFFF, "
                                    "the end of memory")
    # the last line may end exactly at $FFFF
    ends = tmp_path / "ends.mse"
    ends.write_text(f"FFF8 : {' '.join(f'{b:02X}' for b in data)}   {mse.checksum(0xFFF8, data):02X}\n")
    assert CliRunner().invoke(main, ["mse", "toprg", str(ends), "-o", str(out)]).exit_code == 0
    assert out.read_bytes() == b"\xf8\xff" + data


@pytest.mark.parametrize("text", ["", "\n\n"])
def test_check_refuses_a_dump_without_data_lines_as_toprg_does(tmp_path: Path, text: str) -> None:
    """`mse check` said "0 lines, all checksums correct" of an empty file, which `mse
    toprg` then refused: both say the dump has no data lines, with status 1."""
    dump = tmp_path / "empty.mse"
    dump.write_text(text)
    for command in ("check", "toprg"):
        result = CliRunner().invoke(main, ["mse", command, str(dump), *(["-o", str(tmp_path / "p.prg")]
                                                                     if command == "toprg" else [])])
        assert result.exit_code == 1, (command, result.output)
        assert "error: the dump has no data lines" in result.output, (command, result.output)
