"""BASIC V2 tokenizer, detokenizer, errata merge and LIST."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import DATA, REPO, shared_path
from toolchain.basic import detokenize, list_prg, tokenize, tokenize_text
from toolchain.cli import main
from toolchain.diagnostics import UserError
from toolchain.disk import Prg
from toolchain.petscii import BYTE_TEXT, CODE_NAMES, text_to_petscii

SOURCES = REPO / "sources"


def body(line: str) -> bytes:
    """The tokenized text of a one-line program (after link and line number)."""
    data = tokenize_text(line).data
    return data[4 : data.index(0, 4)]


# -- Nikolaus, against petcat (VICE 3.10) ----------------------------------------------------

def test_nikolaus_with_erratum_is_identical_to_petcat() -> None:
    sources = [SOURCES / "nikolaus.bas", SOURCES / "nikolaus-errata.bas"]
    prg, events = tokenize([(str(p), p.read_text()) for p in sources])
    assert prg.to_bytes() == (DATA / "nikolaus.petcat.prg").read_bytes()
    assert [(e.number, e.action) for e in events] == [(270, "replaced")]


def test_nikolaus_as_printed_is_identical_to_petcat() -> None:
    prg = tokenize_text((SOURCES / "nikolaus.bas").read_text())
    assert prg.to_bytes() == (DATA / "nikolaus-printed.petcat.prg").read_bytes()


def test_nikolaus_source_is_the_printed_listing() -> None:
    seed = shared_path("seeds", "nikolaus-c64-basic.txt").read_text().splitlines()
    printed = [line for line in seed if re.match(r"\d{3} ", line)][:43]
    assert (SOURCES / "nikolaus.bas").read_text().splitlines() == printed
    assert "270 for k=2311111 to 5535554" in printed
    assert (SOURCES / "nikolaus-errata.bas").read_text() == "270 for k=2311111 to 4555554\n"


# -- crunching as the ROM does --------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("10 fori=1to7", b"\x81I\xb21\xa47"),  # FOR I = 1 TO 7
    ("10 input#1,a", b"\x84" + b"1,A"),  # INPUT#, not INPUT and #
    ("10 print#4,a", b"\x98" + b"4,A"),
    ("10 ato", b"A\xa4"),  # A TO
    ("10 ta", b"TA"),  # no keyword: TAB( and TAN need more letters
    ("10 ifa=bthen", b"\x8bA\xb2B\xa7"),  # IF A = B THEN
    ("10 score=1", b"SC\xb0E\xb21"),  # the famous OR inside SCORE
    ("10 goto10:gosub20:go", b"\x8910:\x8d20:\xcb"),
    ("10 pO1,2", b"\x971,2"),  # abbreviation: p + shifted O is POKE
    ("10 pR", b"\x98"),  # the ROM's first match: PRINT# comes before PRINT
    ("10 ?", b"?"),  # petcat's text format does not turn ? into PRINT
    ('10 print"for to{clr}"', b'\x99"FOR TO\x93"'),  # nothing is crunched inside quotes
    ("10 data for,\"a:b\",to:for", b"\x83 FOR,\"A:B\",TO:\x81"),  # DATA to the next colon
    ("10 rem for to:print", b"\x8f FOR TO:PRINT"),  # REM to the end of the line
    ("10    print  x", b"\x99  X"),  # spaces after the line number dropped, others kept
    ("10 a=~", b"A\xb2\xff"),  # pi
    ("10 {t}o", b"TO"),  # a brace code is a character, never part of a keyword
    ("10 a$=\"\\^_\"", b'A$\xb2"\x5c\x5e\x5f"'),
])
def test_crunching(text: str, expected: bytes) -> None:
    assert body(text) == expected


def test_links_and_end_marker_and_load_address() -> None:
    prg = tokenize([("t", "10 a\n20 b\n")], load_address=0x1001)[0]
    assert prg.load_address == 0x1001
    assert prg.data == bytes([0x07, 0x10, 10, 0, 0x41, 0, 0x0D, 0x10, 20, 0, 0x42, 0, 0, 0])


# -- control codes ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(set(CODE_NAMES) - {"$00"}))
def test_every_control_code_name(name: str) -> None:
    code = CODE_NAMES[name]
    assert body(f'10 print"{{{name}}}"') == b'\x99"' + bytes([code]) + b'"'


def test_what_petcat_writes_for_each_byte_reads_back() -> None:
    for code in range(1, 256):
        assert text_to_petscii(BYTE_TEXT[code]) == bytes([code]), BYTE_TEXT[code]
    assert [BYTE_TEXT[c] for c in (0x93, 0x1D, 0x9D, 0x12, 0xB2, 0xC0, 0x05, 0x81, 0x11)] == [
        "{clr}", "{rght}", "{left}", "{rvon}", "{CBM-R}", "{SHIFT-*}", "{wht}", "{orng}", "{down}"]


def test_repeats_and_numeric_codes() -> None:
    assert body('10 "{3 down}{rght*2}{147}{$0d}"') == b'"\x11\x11\x11\x1d\x1d\x93\x0d"'


@pytest.mark.parametrize(("code", "expected"), [
    # petcat 3.10 reads the numbers with strtol, which skips white space before them
    # (measured: petcat -w2 writes these bytes)
    ("{ 3 down}", b"\x11\x11\x11"), ("{ 65}", b"A"), ("{down* 2}", b"\x11\x11"),
    # and refuses the rest, as c64tc does
    ("{3  down}", None), ("{ down}", None), ("{down }", None), ("{ clr }", None),
])
def test_white_space_in_brace_codes_as_petcat_reads_it(code: str, expected: bytes | None) -> None:
    text = f'10 print"{code}"'
    if expected is None:
        with pytest.raises(UserError):
            body(text)
    else:
        assert body(text) == b'\x99"' + expected + b'"'


# -- merging errata -------------------------------------------------------------------------

def test_merge_replaces_and_deletes_in_line_order() -> None:
    prg, events = tokenize([("a", "10 a\n20 b\n30 c\n"), ("b", "30 z\n20\n5 y\n")])
    assert detokenize(prg).splitlines() == ["    5 y", "   10 a", "   30 z"]
    assert [(e.number, e.action, e.by.path) for e in events] == [(30, "replaced", "b"), (20, "deleted", "b")]


def test_cli_tok_verbose_names_replaced_lines(tmp_path: Path) -> None:
    out = tmp_path / "n.prg"
    result = CliRunner().invoke(main, ["tok", "-v", str(SOURCES / "nikolaus.bas"),
                                       str(SOURCES / "nikolaus-errata.bas"), "-o", str(out)])
    assert result.exit_code == 0
    assert "nikolaus-errata.bas:1: line 270 replaced" in result.output
    assert out.read_bytes() == (DATA / "nikolaus.petcat.prg").read_bytes()


# -- detokenizing and LIST --------------------------------------------------------------------

def test_detokenize_writes_petcats_text() -> None:
    prg = Prg.from_bytes((DATA / "nikolaus.petcat.prg").read_bytes())
    text = detokenize(prg, "nikolaus.prg")
    assert text.startswith("\n\n;nikolaus.prg ==0801==\n  100 rem *** das haus vom nikolaus ***\n")
    assert '  500 print "loesung"c"{left}:";\n' in text
    assert tokenize_text(text).to_bytes() == prg.to_bytes()


def test_detokenize_escapes_letters_that_would_crunch() -> None:
    for raw in [b"TO", b"SCORE", b"\xcbTO", b"\xcb\xa4", b"\x85#", b"F\xb0", b" 5", b"A\x0dB",
                b"\xffO\xcb\xd4 "]:  # GO then shifted T would read as the GOTO abbreviation
        link = 0x0801 + 5 + len(raw)
        prg = Prg(0x0801, link.to_bytes(2, "little") + bytes([10, 0]) + raw + b"\x00\x00\x00")
        text = detokenize(prg)
        assert tokenize_text(text).data[4:-3] == raw, text


def test_list_shows_what_the_c64_shows() -> None:
    prg = Prg.from_bytes((DATA / "nikolaus.petcat.prg").read_bytes())
    listing = list_prg(prg).splitlines()
    assert listing[17] == "270 FOR K=2311111 TO 4555554"
    assert listing[-3] == '500 PRINT "LOESUNG"C"{left}:";'


def test_list_spells_out_tokens_after_rem_and_in_data() -> None:
    """The ROM's LIST tracks only quotes (QPLOP, $A71A): a token byte after REM or in
    DATA (a shifted letter typed there, $C1) lists as its keyword, as petcat -2 (VICE
    3.10) writes it: tests/data/basic/rem-data-tokens.petcat.txt."""
    prg = Prg.from_bytes((BASIC_DATA / "rem-data-tokens.prg").read_bytes())
    petcat = (BASIC_DATA / "rem-data-tokens.petcat.txt").read_text()
    assert list_prg(prg).splitlines() == ['10 REM PRINTATN"{lgrn}"', '20 DATA ATN,"{lgrn}",PRINT:PRINT']
    assert [line.split(" ", 1)[1].upper() for line in list_prg(prg).splitlines()] == \
        [line.lstrip().split(" ", 1)[1].upper() for line in petcat.splitlines()]
    # detok keeps its text, which reads back to the same bytes
    assert tokenize_text(detokenize(prg)).to_bytes() == prg.to_bytes()


@pytest.mark.parametrize("lines", [["*ab"], ["print 1", "*ab"], ["*  2", "*(a)"]])
def test_detok_output_of_lines_starting_with_the_times_token_goes_back_through_tok(
        tmp_path: Path, lines: list[str]) -> None:
    """A line whose text starts with the `*` token ($AC; nonsense BASIC, but a program
    can hold it) detokenizes to `10 *ab`, as petcat writes it; tok refused that file as
    Profi-Ass source (`*` was taken for an origin, `*= $c000`).  petcat -w2 reads it
    back, and so does tok now, to the same bytes."""
    program = tokenize_text("".join(f"{10 * (n + 1)} {line}\n" for n, line in enumerate(lines)))
    assert 0xAC in program.data and b"*" not in program.data  # the token, not the character
    prg, listing, again = tmp_path / "p.prg", tmp_path / "p.bas", tmp_path / "again.prg"
    prg.write_bytes(program.to_bytes())
    assert CliRunner().invoke(main, ["detok", str(prg), "-o", str(listing)]).exit_code == 0
    assert re.search(r"^ +\d+ \*", listing.read_text(), re.MULTILINE)  # a line starts with it
    result = CliRunner().invoke(main, ["tok", str(listing), "-o", str(again)])
    assert result.exit_code == 0, result.output
    assert again.read_bytes() == prg.read_bytes()


# hypothesis: any program a C64 could hold (non-zero bytes in each line) survives the round trip
# any non-zero byte, with a bias to the bytes that interact: quotes, colons, spaces, the
# DATA/REM/GO/TO/GOTO/OR tokens, letters that spell keywords, shifted letters, pi
_INTERESTING = [0x22, 0x3A, 0x20, 0x83, 0x8F, 0xCB, 0xA4, 0x89, 0xB0, 0x54, 0x4F, 0x47, 0x46, 0x53,
                0xC1, 0xCF, 0xD4, 0xFF, 0x23, 0x24, 0x28]
line_bodies = st.lists(st.one_of(st.integers(1, 255), st.sampled_from(_INTERESTING)), min_size=1,
                       max_size=40).map(bytes)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 63999), line_bodies), min_size=1, max_size=6,
                unique_by=lambda t: t[0]))
def test_detokenize_then_tokenize_gives_the_same_bytes(lines: list[tuple[int, bytes]]) -> None:
    data = bytearray()
    address = 0x0801
    for number, text in sorted(lines):
        address += 5 + len(text)
        data += address.to_bytes(2, "little") + number.to_bytes(2, "little") + text + b"\x00"
    prg = Prg(0x0801, bytes(data) + b"\x00\x00")
    assert tokenize_text(detokenize(prg, "x.prg")).to_bytes() == prg.to_bytes()


def test_tokenize_then_detokenize_is_stable_for_generated_text() -> None:
    for text in ["10 fori=1to7:printi;:next", '20 ifa$="x"thengosub100', "30 data 1,for,to:rem x"]:
        prg = tokenize_text(text)
        assert tokenize_text(detokenize(prg)).to_bytes() == prg.to_bytes()


# -- the 64'er corpus -------------------------------------------------------------------------

def _corpus() -> list[Path]:
    folder = shared_path("corpus", "basic")
    return sorted(folder.glob("*.txt"))


def test_corpus_every_listing_tokenizes_and_round_trips() -> None:
    files = _corpus()
    assert len(files) == 60
    for path in files:
        prg = tokenize_text(path.read_text(encoding="latin-1"), str(path))
        again = tokenize_text(detokenize(prg, path.name), str(path))
        assert again.to_bytes() == prg.to_bytes(), path.name


# -- errors -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    ("print 1\n", "t.bas:1:1: error: missing line number"),
    ("64000 print\n", "t.bas:1:1: error: line number 64000 is out of range (0-63999)"),
    ('10 print "{bogus}"\n', "t.bas:1:11: error: unknown control code name {bogus} (line 10)"),
    ("10 print \"{clr\n", "t.bas:1:11: error: unterminated '{'"),
    ("10 rem " + "x" * 248 + "\n" + "20 rem " + "x" * 249 + "\n",
     "t.bas:2:1: error: line too long: 251 bytes after tokenizing; a C64 holds at most 250"),
    ('10 print "{$00}"\n', "t.bas:1:11: error: a 0 byte cannot be part of a BASIC line"),
])
def test_tokenizer_errors(text: str, message: str) -> None:
    with pytest.raises(UserError) as info:
        tokenize_text(text, "t.bas")
    assert info.value.report().startswith(message)


# -- lines longer than a C64 user can type ------------------------------------------------------

BASIC_DATA = Path(__file__).parent / "data" / "basic"


def test_long_lines_are_petcats_bytes_with_a_warning_each(tmp_path: Path) -> None:
    """Lines of up to 250 bytes after tokenizing (what a C64 holds) come out as petcat
    writes them (tests/data/basic/long-lines.petcat.prg, VICE 3.10's petcat -w2); each
    one that takes more than 80 characters with its number gets a warning (no C64 user
    could type it), the others none."""
    output = tmp_path / "long.prg"
    result = CliRunner().invoke(main, ["tok", str(BASIC_DATA / "long-lines.bas"), "-o", str(output)])
    assert result.exit_code == 0, result.output
    assert output.read_bytes() == (BASIC_DATA / "long-lines.petcat.prg").read_bytes()
    warned = [line.split(":")[1] for line in result.output.splitlines() if ": warning: " in line]
    assert warned == ["1", "2", "3", "5", "6", "7"]  # 40 REM with 76 z's: 78 bytes and "40", 80
    assert "long-lines.bas:2:1: warning: this line cannot be typed on a C64 as it stands: with its " \
           "number it takes 82 characters at least (80 bytes after tokenizing)" in result.output


@pytest.mark.parametrize(("digits", "message"), [
    ("9" * 5000, "line number of 5,000 digits is out of range (0-63999)"),
    ("1" + "0" * 30, "line number of 31 digits is out of range (0-63999)"),
    ("99999", "line number 99999 is out of range (0-63999)"),
])
def test_a_line_number_of_thousands_of_digits_is_an_error(tmp_path: Path, digits: str, message: str) -> None:
    """Python's int() refuses texts of more than 4,300 digits: the tokenizer must not
    ask it (issue 21); the message stays short, the work bounded."""
    (tmp_path / "t.bas").write_text(f"{digits} print 1\n")
    result = CliRunner().invoke(main, ["tok", str(tmp_path / "t.bas"), "-o", str(tmp_path / "t.prg")])
    assert result.exit_code == 1
    assert f"t.bas:1:1: error: {message}" in result.output and "Traceback" not in result.output
    assert len(result.output) < 1000


def test_leading_zeros_of_a_line_number_count_for_nothing() -> None:
    """petcat reads the number with strtol (measured: 5,000 zeros then 10 is line 10)."""
    assert tokenize_text("0" * 5000 + "10 print 1\n").data == tokenize_text("10 print 1\n").data


def test_all_tokenizer_errors_are_reported() -> None:
    with pytest.raises(UserError) as info:
        tokenize_text('10 "{xx}"\nabc\n20 ok\n70000\n', "t.bas")
    assert [d.line for d in info.value.diagnostics] == [1, 2, 4]


@pytest.mark.parametrize("raw, message", [
    (b"\x01", "not a PRG file: 1 byte"),
    (b"\x01\x08\x07\x08\x0a", "line at byte offset 2 is cut off"),
    (b"\x01\x08\x07\x08\x0a\x00\x41", "line 10 at byte offset 2 has no terminating 0 byte"),
    (b"\x01\x08\x09\x08\x0a\x00\x41\x00\x00\x00", "broken link at byte offset 2 (line 10): $0809"),
    (b"\x01\x08\x07\x08\x0a\x00\x41\x00", "it ends at byte offset 8 without the two 0 bytes"),
])
def test_unreadable_prg_names_the_byte_offset(tmp_path: Path, raw: bytes, message: str) -> None:
    path = tmp_path / "bad.prg"
    path.write_bytes(raw)
    result = CliRunner().invoke(main, ["detok", str(path)])
    assert result.exit_code == 1
    assert message in result.output and "Traceback" not in result.output


def test_a_program_past_the_end_of_memory_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "t.bas").write_text('10 print "x"\n')
    result = CliRunner().invoke(main, ["tok", str(tmp_path / "t.bas"), "--load-address", "$ffff",
                                       "-o", str(tmp_path / "t.prg")])
    assert result.exit_code == 1
    assert "t.bas:1: error: the program runs past $FFFF: line 10 ends at $10008" in result.output
    assert not (tmp_path / "t.prg").exists()


@pytest.mark.parametrize(("given", "address"), [("4097", 0x1001), ("$1001", 0x1001), ("0x1001", 0x1001)])
def test_load_address_is_decimal_or_prefixed_hex(tmp_path: Path, given: str, address: int) -> None:
    (tmp_path / "t.bas").write_text('10 print "x"\n')
    result = CliRunner().invoke(main, ["tok", str(tmp_path / "t.bas"), "--load-address", given,
                                       "-o", str(tmp_path / "t.prg")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "t.prg").read_bytes()[:2] == address.to_bytes(2, "little")


def test_hex_without_a_prefix_is_an_error(tmp_path: Path) -> None:
    """The old form 0801 was read as hex with a warning (issue 26: guessing made --sys
    abc $0ABC); now both readings are named and nothing is written."""
    (tmp_path / "t.bas").write_text('10 print "x"\n')
    result = CliRunner().invoke(main, ["tok", str(tmp_path / "t.bas"), "--load-address", "0801",
                                       "-o", str(tmp_path / "t.prg")])
    assert result.exit_code == 2
    assert "'0801' is not an address (2049, $0801 or 0x0801): numbers are decimal; write $0801 or 0x0801 " \
        "for hex (2049) or 801 in decimal" in result.output
    assert not (tmp_path / "t.prg").exists()
