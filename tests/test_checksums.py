"""The BASIC type-in checkers (toolchain/typein): every value against what the real
checker showed on VICE (tests/data/checksums/*.json, measured by scripts/checkers-vs-vice)
or what the magazine printed (printed.json), VICE's petcat as a peer where it has the
checker, and ``c64tc tok --checksums`` as a reader uses it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.conftest import DATA
from toolchain.basic import tokenize_text
from toolchain.cli import main
from toolchain.typein import (
    CHECKERS,
    checker_named,
    choose_checker,
    compare,
    line_values,
    read_listing,
    typed_line,
)
from toolchain.typein.checkers import checksummer_v1, checksummer_v3, proofreader_1986

SUMS = DATA / "checksums"
DERANDOMIZED = settings(derandomize=True, database=None, deadline=None, max_examples=60)


def _measured(name: str) -> dict:
    return json.loads((SUMS / f"{name}.json").read_text(encoding="utf-8"))


# -- against the real checkers on VICE -----------------------------------------------------------------

@pytest.mark.parametrize(("measurement", "kind"), [("checksummer-v1", "64er"), ("checksummer-v2", "64er"),
                                                   ("proofreader-1986", "proofreader-1986")])
def test_every_line_shows_what_the_real_checker_showed_on_vice(measurement: str, kind: str) -> None:
    data = _measured(measurement)
    checker = CHECKERS[kind]
    assert len(data["lines"]) >= 30
    wrong = [(line["typed"], line["shown"], checker.value(typed_line(line["typed"])))
             for line in data["lines"] if checker.value(typed_line(line["typed"])) != line["shown"]]
    assert not wrong


def test_the_measured_lines_cover_the_quirks() -> None:
    """What the measurement is for: the line-number bytes of $20 and $00 left out (line 32,
    8224: V1 shows what it shows for line 0), '?' the same as PRINT, a deleted line
    showing nothing, the New Proofreader seeing '?' and PRINT apart and showing a value
    for a deletion too."""
    v1 = {line["typed"]: line["shown"] for line in _measured("checksummer-v1")["lines"]}
    assert v1["32 a=1"] == v1["8224 a=1"] == v1["0 a=1"] != v1["256 a=1"]
    assert v1['10 print"hello world"'] == v1['10 ?"hello world"'] == v1['10 print "hello  world"']
    assert v1["15"] is None and v1["10"] is None
    assert typed_line('130 a$="{SHIFT-A}":b{SHIFT-B}=1:data x{SHIFT-C}y').stored.count(0xC1) == 1
    assert typed_line("129 rem {SHIFT-A}x{CBM-Z} Ab").stored.count(0xC1) == 2
    new = {line["typed"]: line["shown"] for line in _measured("proofreader-1986")["lines"]}
    assert new['10 print"hello world"'] != new['10 ?"hello world"']
    assert new['10 print"hello world"'] != new['10 print "hello  world"']  # spaces in quotes count
    assert new["20 fori=1to10:printi:next"] == new["20 for i = 1 to 10 : print i : next"]
    assert new["15"] is not None


@pytest.mark.parametrize("measurement", ["checksummer-v1", "checksummer-v2"])
def test_the_program_the_c64_stored_is_the_typed_lines_as_c64tc_crunches_them(measurement: str) -> None:
    """After the test lines, VICE's program (read back from $0801) is the lines as
    typed_line stores them: '?' as PRINT, shifted and C= characters kept in quotes and
    REM and dropped elsewhere (DATA too), abbreviations as keywords, the replaced and
    deleted lines gone.  So the Checksummer's bytes are c64tc's."""
    data = _measured(measurement)
    program: dict[int, bytes] = {}
    for line in data["lines"]:
        typed = typed_line(line["typed"])
        if typed.deletes:
            program.pop(typed.number, None)
        else:
            program[typed.number] = typed.stored
    stored = bytearray()
    address = 0x0801
    for number in sorted(program):
        address += 5 + len(program[number])
        stored += address.to_bytes(2, "little") + number.to_bytes(2, "little") + program[number] + b"\x00"
    stored += b"\x00\x00"
    assert stored.hex() == data["program_after"]


# -- against what the magazines printed ----------------------------------------------------------------

PRINTED = json.loads((SUMS / "printed.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("kind", ["proofreader", "64er-v3", "proofreader-1986"])
def test_the_values_the_magazine_printed(kind: str) -> None:
    checker = CHECKERS[kind]
    for line in PRINTED[kind]["lines"]:
        assert checker.value(typed_line(line["typed"])) == line["printed"], line["typed"]


# -- VICE's petcat as a peer (it lists a PRG with the 64'er's checksums) --------------------------------

LINE_TEXT = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789 :,;+-*/=<>()$\"?.", min_size=1,
                    max_size=60).filter(lambda text: text.strip() != "")


def _petcat_sums(kind: str, lines: list[str], tmp_path: Path) -> list[str]:
    """petcat's checksums for the program the lines make (as typed on a C64)."""
    program = tmp_path / "p.prg"
    address = 0x0801
    stored = bytearray()
    for line in lines:
        typed = typed_line(line)
        address += 5 + len(typed.stored)
        stored += address.to_bytes(2, "little") + typed.number.to_bytes(2, "little") + typed.stored + b"\x00"
    program.write_bytes(b"\x01\x08" + stored + b"\x00\x00")
    petcat = shutil.which("petcat")
    assert petcat is not None
    listed = subprocess.run([petcat, f"-C{kind}", "-2", "--", str(program)], capture_output=True, text=True,
                            check=True).stdout
    return [str(int(value)) for value in re.findall(r"\|\| <(\d+)>", listed)]


@pytest.mark.skipif(shutil.which("petcat") is None, reason="VICE's petcat is not on the PATH")
@pytest.mark.parametrize(("petcat_kind", "ours"), [("64er-v1", checksummer_v1), ("64er-v3", checksummer_v3)])
@DERANDOMIZED
@given(st.lists(st.tuples(st.integers(0, 63999), LINE_TEXT), min_size=1, max_size=12,
                unique_by=lambda pair: pair[0]))
@example([(32, "a=1"), (8224, "rem"), (0, "print"), (63999, "end"), (256, "?"), (8192, '"  "')])
def test_petcat_lists_the_same_64er_checksums(petcat_kind: str, ours: object,
                                              tmp_path_factory: pytest.TempPathFactory,
                                              lines: list[tuple[int, str]]) -> None:
    texts = [f"{number} {text}" for number, text in sorted(lines) if typed_line(f"{number} {text}").stored]
    if not texts:
        return
    expected = _petcat_sums(petcat_kind, texts, tmp_path_factory.mktemp("petcat"))
    assert [ours(typed_line(text)) for text in texts] == expected  # type: ignore[operator]


# -- what the magazines said about their checkers ------------------------------------------------------

@DERANDOMIZED
@given(st.integers(1, 63999), st.lists(st.integers(0, 255), min_size=2, max_size=6))
@example(50, [2, 3, 0])
@example(8224, [1, 2])
def test_the_64er_checksummer_v1_does_not_see_swapped_digits(number: int, digits: list[int]) -> None:
    """'Zahlendreher werden allerdings nicht erkannt. Eine 320 in der DATA-Zeile ergibt also
    dieselbe Pruefsumme wie 230!' (64'er 4/85): a sum does not see the order."""
    numbers = ",".join(map(str, digits))
    swapped = ",".join(map(str, reversed(digits)))
    assert checksummer_v1(typed_line(f"{number} data {numbers}")) == \
        checksummer_v1(typed_line(f"{number} data {swapped}"))


@DERANDOMIZED
@given(st.integers(0, 63999), st.lists(st.sampled_from(["a=1", "print x", "goto 10", "poke 1,2", "rem x"]),
                                       min_size=1, max_size=4), st.integers(0, 5))
@example(10, ["print x"], 3)
def test_spaces_outside_quotes_change_no_checker(number: int, statements: list[str], extra: int) -> None:
    """'Die Leerzeichen zwischen den einzelnen Basic-Befehlen koennen beim Abtippen entfallen'
    (64'er), and both Proofreaders skip spaces outside quotes."""
    tight = f"{number} " + ":".join(statements)
    loose = f"{number} " + (" " * extra + ":" + " " * extra).join(statements) + " " * extra
    for checker in CHECKERS.values():
        assert checker.value(typed_line(tight)) == checker.value(typed_line(loose)), checker.name


def test_the_new_proofreader_sees_a_space_inside_quotes() -> None:
    assert proofreader_1986(typed_line('10 print"a b"')) != proofreader_1986(typed_line('10 print"ab"'))


def test_aliases_name_the_same_checkers() -> None:
    assert checker_named("64er-v1") is checker_named("64er-v2") is CHECKERS["64er"]
    assert checker_named("NEW-PROOFREADER") is CHECKERS["proofreader-1986"]
    with pytest.raises(KeyError):
        checker_named("ahoy")


# -- the listing with its printed values -----------------------------------------------------------------

PLAIN = '10 print"hello world"\n20 fori=1to10:printi:next\n32 a=1\n'


def _printed_in(kind: str, text: str) -> str:
    """The listing as the magazine printed it, with ``kind``'s values (c64tc's own)."""
    checker = CHECKERS[kind]
    lines = []
    for line in text.splitlines():
        value = checker.value(typed_line(line))
        assert value is not None
        if kind == "proofreader-1986":
            lines.append(f"{value} {line}")
        elif kind == "proofreader":
            lines.append(f"{line} :rem {value}")
        else:
            lines.append(f"{line}   <{value}>")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("kind", sorted(CHECKERS))
def test_the_printed_values_are_found_and_the_checker_chosen(kind: str) -> None:
    listing = read_listing(_printed_in(kind, PLAIN), "l.bas")
    assert len(listing.printed) == 3
    assert listing.text == PLAIN
    chosen, why = choose_checker(listing)
    assert chosen is CHECKERS[kind], why


@DERANDOMIZED
@given(st.lists(st.tuples(st.integers(0, 63999), LINE_TEXT), min_size=1, max_size=8,
                unique_by=lambda pair: pair[0]), st.sampled_from(sorted(CHECKERS)))
@example([(10, 'print"<1>"'), (20, "a=b<1"), (30, "rem 5")], "64er")
def test_leaving_the_printed_values_out_gives_petcats_bytes(lines: list[tuple[int, str]], kind: str) -> None:
    """tok --checksums writes the program petcat makes of the listing without the
    printed values: the values are taken out and nothing else."""
    text = "\n".join(f"{number} {body.strip() or 'rem'}" for number, body in lines) + "\n"
    try:
        expected = tokenize_text(text)
    except Exception:  # a line no tokenizer takes (an unterminated brace...): not this test's business
        return
    printed = _printed_in(kind, text)
    assert tokenize_text(read_listing(printed, "l.bas", None).text) == expected


@DERANDOMIZED
@given(st.lists(st.sampled_from([*"0123456789 <>:remEMQSXab\"{}\n\t;$~", "{clr}", "{$", "\x00", ":rem "]),
               max_size=120).map("".join), st.sampled_from(sorted(CHECKERS)))
@example("10 a <999>\nEM\n  XX 20\n30 :rem\n40 print XX\n", "64er")
@example("99999999999999999999 print <1>\n10 a <2>\n", "64er-v3")
def test_any_text_is_read_and_compared_without_an_exception(text: str, kind: str) -> None:
    listing = read_listing(text, "t.bas")
    checker = CHECKERS[kind]
    compare(listing, checker, line_values(listing, checker))
    choose_checker(listing)


# -- c64tc tok --checksums -----------------------------------------------------------------------------------

def _tok(tmp_path: Path, text: str, *options: str) -> tuple[int, str, str, Path]:
    listing = tmp_path / "listing.bas"
    listing.write_text(text)
    output = tmp_path / "out.prg"
    result = CliRunner().invoke(main, ["tok", str(listing), "-o", str(output), *options])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr, output


def test_tok_lists_each_line_with_its_checksum(tmp_path: Path) -> None:
    status, out, err, output = _tok(tmp_path, PLAIN, "--checksums")
    assert status == 0
    assert out.splitlines() == ['    <227>  10 print"hello world"', "    <158>  20 fori=1to10:printi:next",
                                "     <36>  32 a=1"]
    assert "prints no checksums" in err
    assert output.read_bytes() == tokenize_text(PLAIN).to_bytes()


def test_a_mismatch_names_the_line_with_the_typo(tmp_path: Path) -> None:
    text = '10 print"hello world" <227>\n20 fori=1to10:printi:nxt <158>\n30 data 1,2,3 <143>\n'
    output = tmp_path / "out.prg"
    output.write_bytes(b"previous")
    status, _, err, _ = _tok(tmp_path, text, "--checksums")
    assert status == 1
    listing = tmp_path / "listing.bas"
    assert f"{listing}:2:1: error: checksum 22, the magazine printed 158 (line 20)" in err
    assert ":3:1:" not in err and ":1:1:" not in err
    assert output.read_bytes() == b"previous"  # no program from a listing with typos


def test_a_missing_character_is_named_for_a_plain_sum(tmp_path: Path) -> None:
    # ',' (44) left out of the DATA line: the 64'er's sum is 44 short
    status, _, err, _ = _tok(tmp_path, "30 data 1,23 <143>\n", "--checksums=64er")
    assert status == 1
    assert "checksum 99, the magazine printed 143 (a ',' missing?)" in err


def test_the_proofreaders_rem_is_left_out_and_said_so(tmp_path: Path) -> None:
    text = _printed_in("proofreader", PLAIN)
    status, out, err, output = _tok(tmp_path, text, "--checksums")
    assert status == 0, err
    assert output.read_bytes() == tokenize_text(PLAIN).to_bytes()
    assert "':rem NNN' at the end of 3 lines is the magazine's checksum, which the reader does not " \
        "type: left out of the program" in err
    assert out.splitlines()[0].split() == [":rem", "46", '10', 'print"hello', 'world"']


@pytest.mark.parametrize("case", [str.upper, str.lower])
def test_the_new_proofreaders_letters_before_the_line(tmp_path: Path, case: object) -> None:
    """The code the magazine printed before the line number, in either case (a reader
    keeping petcat text may write it in lower case)."""
    text = "".join(case(line[:2]) + line[2:] + "\n"  # type: ignore[operator]
                   for line in _printed_in("proofreader-1986", PLAIN).splitlines())
    status, out, err, output = _tok(tmp_path, text, "--checksums")
    assert status == 0, err
    assert output.read_bytes() == tokenize_text(PLAIN).to_bytes()
    assert "New Automatic Proofreader" in err
    first = PLAIN.splitlines()[0]
    assert out.splitlines()[0] == f"       {proofreader_1986(typed_line(first))}  {first}"


def test_the_new_proofreaders_letters_after_the_line(tmp_path: Path) -> None:
    printed = _printed_in("proofreader-1986", PLAIN).splitlines()
    text = "".join(f"{line[3:]}   {line[:2]}\n" for line in printed)
    status, _, err, output = _tok(tmp_path, text, "--checksums")
    assert status == 0, err
    assert output.read_bytes() == tokenize_text(PLAIN).to_bytes()


def test_without_the_option_tok_keeps_petcats_bytes_and_hints(tmp_path: Path) -> None:
    text = _printed_in("64er", PLAIN)
    status, _, err, output = _tok(tmp_path, text)
    assert status == 0
    assert output.read_bytes() == tokenize_text(text).to_bytes()  # petcat's bytes: the <n> typed in
    assert "3 of 3 lines carry a magazine's checksum" in err and "--checksums" in err


def test_a_deleted_line_shows_nothing_on_the_checksummer(tmp_path: Path) -> None:
    status, out, _, _ = _tok(tmp_path, "10 print\n10\n", "--checksums=64er")
    assert status == 0
    assert out.splitlines()[1] == "        -  10"


def test_checksums_before_the_listing_and_unknown_kinds(tmp_path: Path) -> None:
    listing = tmp_path / "l.bas"
    listing.write_text(PLAIN)
    result = CliRunner().invoke(main, ["tok", "--checksums", str(listing), "-o", str(tmp_path / "o.prg")])
    assert result.exit_code == 0 and "<227>" in result.stdout
    result = CliRunner().invoke(main, ["tok", str(listing), "--checksums=ahoy"])
    assert result.exit_code == 2 and "'ahoy' is no checker" in result.output
    result = CliRunner().invoke(main, ["tok", "--checksums"])
    assert result.exit_code == 2 and "Missing argument" in result.output
    errata = tmp_path / "e.bas"
    errata.write_text("20 print\"errata\"\n")
    result = CliRunner().invoke(main, ["tok", "--checksums", str(listing), str(errata), "-o", "-"])
    assert result.exit_code == 0
    corrected = PLAIN.replace("fori=1to10:printi:next", 'print"errata"')
    assert result.stdout_bytes == tokenize_text(corrected).to_bytes()
    result = CliRunner().invoke(main, ["tok", "--checksums", "proofreader", str(listing), "-o", "-"])
    assert result.exit_code == 0 and ":rem 46" in result.stderr


def test_the_table_goes_to_standard_error_when_the_program_goes_to_standard_output(tmp_path: Path) -> None:
    listing = tmp_path / "l.bas"
    listing.write_text(PLAIN)
    result = CliRunner().invoke(main, ["tok", str(listing), "--checksums", "-o", "-"])
    assert result.exit_code == 0
    assert result.stdout_bytes == tokenize_text(PLAIN).to_bytes()
    assert "<227>" in result.stderr


def test_a_programs_own_rem_is_no_proofreader_value(tmp_path: Path) -> None:
    text = "10 gosub 100:rem 5\n20 print\"a\"\n30 end\n100 return\n"
    status, out, err, output = _tok(tmp_path, text, "--checksums")
    assert status == 0 and "prints no checksums" in err
    assert output.read_bytes() == tokenize_text(text).to_bytes()
    assert out.splitlines()[0] == "     <38>  10 gosub 100:rem 5"


def test_v3_is_chosen_when_its_values_fit(tmp_path: Path) -> None:
    status, _, err, _ = _tok(tmp_path, _printed_in("64er-v3", PLAIN), "--checksums")
    assert status == 0
    assert "checking with 64'er Checksummer 64 V3 (1986): its values fit 3 lines" in err
