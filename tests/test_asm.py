"""The assembler: Superhirn II byte-exact, the 64'er corpus, every encoding, expressions,
sizing, errors and output formats."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import DATA, REPO, shared_path
from tests.test_opcodes import DATASHEET
from toolchain.asm import AssemblyFailed, assemble
from toolchain.asm.output import listing, symbol_table, vice_labels
from toolchain.cli import main

SUPERHIRN = REPO / "sources" / "superhirn2.asm"


def _mse_dump_bytes(seed_text: str) -> tuple[int, bytes]:
    """The data bytes of the seed's MSE dump (each line: address, ':', data, checksum)."""
    body = seed_text[seed_text.index("PROGRAMM :") :].split("-----------------------------------")[1]
    body = body[: body.index("100 sys")].split()
    lines: list[tuple[int, list[int]]] = []
    i = 0
    while i < len(body):
        if len(body[i]) == 4 and body[i + 1] == ":":
            lines.append((int(body[i], 16), []))
            i += 2
        else:
            lines[-1][1].append(int(body[i], 16))
            i += 1
    data = b"".join(bytes(values[:-1]) for _, values in lines)
    return lines[0][0], data


def asm(source: str) -> bytes:
    return assemble(source, "test.asm").image


def asm_errors(source: str) -> list[str]:
    with pytest.raises(AssemblyFailed) as info:
        assemble(source, "test.asm")
    return [d.format() for d in info.value.errors]


# -- Superhirn II, as printed -------------------------------------------------------------

def test_superhirn_matches_the_committed_mse_bytes() -> None:
    program = assemble(SUPERHIRN.read_text(), str(SUPERHIRN))
    expected = (DATA / "superhirn2-mse.bin").read_bytes()
    assert program.start == 0x3400 == int.from_bytes(expected[:2], "little")
    assert len(program.image) == 523
    # the dump was saved up to $360C, one byte ($FF at $360B) more than the program
    assert program.image == expected[2:-1] and expected[-1] == 0xFF


def test_superhirn_matches_the_dump_in_the_seed() -> None:
    seed = shared_path("seeds", "superhirn2-64er.txt").read_text()
    start, data = _mse_dump_bytes(seed)
    assert (start, len(data)) == (0x3400, 0x360C - 0x3400)
    assert assemble(SUPERHIRN.read_text()).image == data[:523]


def test_superhirn_source_is_the_seed_listing_line_by_line() -> None:
    seed = shared_path("seeds", "superhirn2-64er.txt").read_text()
    flat = seed[seed.index("100 sys32768") : seed.index("Anmerkung:")]
    lines = SUPERHIRN.read_text().splitlines()
    assert " ".join(lines) == " ".join(flat.split())
    numbers = [int(line.split()[0]) for line in lines]
    assert numbers == sorted(numbers) and numbers[0] == 100 and numbers[-1] == 3240


def test_cli_writes_the_prg(tmp_path: Path) -> None:
    out = tmp_path / "sh.prg"
    result = CliRunner().invoke(main, ["asm", str(SUPERHIRN), "-o", str(out), "-l", str(tmp_path / "l")])
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == (DATA / "superhirn2-mse.bin").read_bytes()[:-1]
    raw = tmp_path / "sh.bin"
    CliRunner().invoke(main, ["asm", str(SUPERHIRN), "-o", str(raw), "--format", "raw",
                              "-l", str(tmp_path / "l2")])
    assert raw.read_bytes() == out.read_bytes()[2:]


def test_opt_p_prints_the_listing_when_no_file_is_given(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["asm", str(SUPERHIRN), "-o", str(tmp_path / "x.prg")])
    assert result.exit_code == 0
    assert "3400  A9 93      380 lda #147" in result.output


# -- the 64'er corpus ---------------------------------------------------------------------

def test_corpus_viza_patch_assembles_to_62_bytes_at_0400() -> None:
    path = shared_path("corpus", "asm", "8609_viza.patch.quell.txt")
    program = assemble(path.read_text(encoding="latin-1"), str(path))
    assert program.start == 0x0400 and len(program.image) == 62
    assert program.image[:4] == bytes([0xA9, 0x18, 0x85, 0x2B])  # lda #$18 : sta $2b
    assert program.image[-3:] == bytes([0x4C, 0xD2, 0xFF])  # jmp $ffd2


def test_corpus_fsd64_assembles_without_errors() -> None:
    path = shared_path("corpus", "asm", "8609_fsd64.src.txt")
    program = assemble(path.read_text(encoding="latin-1"), str(path))
    assert program.start == 0xF299
    assert "endprg" in program.symbols and not program.warnings
    # ".byt 244,"{CBM-R}",...": the control-code name became its PETSCII byte
    ktab2 = program.symbols["ktab2"].value - program.start
    assert program.image[ktab2 : ktab2 + 3] == bytes([244, 0xB2, 0xDB])


@pytest.mark.parametrize("name", ["8409_2_verschieb_asm.txt", "8409_6_merge_asm.txt"])
def test_corpus_fragments_without_origin_say_so(name: str) -> None:
    path = shared_path("corpus", "asm", name)
    with pytest.raises(AssemblyFailed) as info:
        assemble(path.read_text(encoding="latin-1"), str(path))
    messages = [d.message for d in info.value.errors]
    assert messages == ["no origin: set the start address with '*= address' before the first label "
                        "or instruction"]


# -- every documented encoding ------------------------------------------------------------

_OPERAND = {"imp": "", "acc": "a", "imm": "#$12", "zp": "$12", "zpx": "$12,x", "zpy": "$12,y",
            "abs": "$1234", "abx": "$1234,x", "aby": "$1234,y", "ind": "($1234)", "izx": "($12,x)",
            "izy": "($12),y", "rel": "*+$12"}
_OPERAND_BYTES = {"imp": b"", "acc": b"", "imm": b"\x12", "zp": b"\x12", "zpx": b"\x12",
                  "zpy": b"\x12", "abs": b"\x34\x12", "abx": b"\x34\x12", "aby": b"\x34\x12",
                  "ind": b"\x34\x12", "izx": b"\x12", "izy": b"\x12", "rel": b"\x10"}


@pytest.mark.parametrize("row", [tuple(DATASHEET.split()[i : i + 4]) for i in range(0, 604, 4)],
                         ids=lambda row: f"{row[1]}-{row[2]}")
def test_every_mnemonic_and_mode_encodes(row: tuple[str, str, str, str]) -> None:
    code, mnemonic, mode, _ = row
    source = f"*= $1000\n {mnemonic} {_OPERAND[mode]}\n"
    assert asm(source) == bytes([int(code, 16)]) + _OPERAND_BYTES[mode]


def test_accumulator_forms_and_upper_case() -> None:
    assert asm("*=$1000\n asl\n ASL A\n Lsr a\n rol\n ror a\n") == bytes([0x0A, 0x0A, 0x4A, 0x2A, 0x6A])


# -- expressions ----------------------------------------------------------------------------

@pytest.mark.parametrize("expr, value", [
    ("2+3*4", 14), ("(2+3)*4", 20), ("10-4-3", 3), ("100/7", 14), ("-3+5", 2), ("$ff", 255),
    ("%00100000", 32), ("027", 27), ("'a'", 0x41), ("'A'", 0xC1), ('"+"', 0x2B), ("<$1234", 0x34),
    (">$1234", 0x12), ("<$1234+1", 0x35), (">($12ff+1)", 0x13), ("*-$1000+2", 2), ("2*-3+10", 4),
    ("-(7)/2+9", 6), ("17/4*4", 16),
])
def test_expression_values_and_precedence(expr: str, value: int) -> None:
    assert asm(f"*= $1000\n .byt {expr}\n") == bytes([value & 0xFF])


def test_words_strings_and_mixed_data() -> None:
    assert asm('*=$c000\n .wor $1234, 1986\n .word 1\n') == bytes([0x34, 0x12, 0xC2, 0x07, 1, 0])
    assert asm('*=$c000\n .byt "m",158,"0","u"\n .asc "ab:;"\n .text "{clr}A"\n .byte 0\n') == (
        b"\x4d\x9e\x30\x55" + b"\x41\x42:;" + b"\x93\xc1" + b"\x00")


def test_labels_equates_and_the_program_counter() -> None:
    source = "*= $2000\nstart lda #<text\n ldy #>text\n jmp *\ntext .asc \"1234\"\nend = *\nlen = end-text\n"
    program = assemble(source)
    assert program.image == bytes([0xA9, 0x07, 0xA0, 0x20, 0x4C, 0x04, 0x20]) + b"1234"
    assert program.symbols["len"].value == 4 and program.symbols["start"].is_label


def test_several_origins_fill_the_gap_with_zero() -> None:
    program = assemble("*= $1000\n nop\n*= $1004\n rts\n")
    assert program.start == 0x1000 and program.image == bytes([0xEA, 0, 0, 0, 0x60])


# -- zero page sizing -----------------------------------------------------------------------

def test_known_values_below_256_use_zero_page() -> None:
    assert asm("zp = $fb\n*= $1000\n lda zp\n lda zp,x\n ldx zp,y\n lda $00fb\n") == bytes(
        [0xA5, 0xFB, 0xB5, 0xFB, 0xB6, 0xFB, 0xA5, 0xFB])


def test_forward_references_stay_absolute_even_when_small() -> None:
    # 'later' is defined below its use: the layout pass cannot know it, so lda takes 3 bytes,
    # and the emit pass keeps that size although the value turns out to be $fb.
    program = assemble("*= $1000\n lda later\n lda later,x\n sta back\nlater = $fb\nback = $fc\n")
    assert program.image == bytes([0xAD, 0xFB, 0x00, 0xBD, 0xFB, 0x00, 0x8D, 0xFC, 0x00])


def test_forward_reference_with_only_a_zero_page_form() -> None:
    assert asm("*= $1000\n stx ptr,y\n lda (ptr),y\n lda (ptr,x)\nptr = $fb\n") == bytes(
        [0x96, 0xFB, 0xB1, 0xFB, 0xA1, 0xFB])


def test_equate_defined_through_a_later_label_is_absolute() -> None:
    assert asm("*= $10\nptr = data\n lda ptr\ndata .byt 1\n") == bytes([0xAD, 0x13, 0x00, 0x01])


# -- separators and comments ---------------------------------------------------------------

def test_colons_and_semicolons() -> None:
    source = ('*= $1000\n lda #1:sta $d020 ; a comment: with colon, "quote\n'
              ' .asc "a:b;c" : .byt 0\n : nop :: nop :\n ldy #$cf  :rem adresse-1 : von merge\n'
              ';"Kein Tape OPEN\n lda #">\n')
    assert asm(source) == bytes([0xA9, 1, 0x8D, 0x20, 0xD0]) + b"\x41:\x42;\x43\x00" + bytes(
        [0xEA, 0xEA, 0xA0, 0xCF, 0xA9, 0x3E])


def test_basic_lines_before_sys_are_skipped_and_line_numbers_are_kept() -> None:
    source = "1000 open4,4:cmd4\n1010 sys9*4096\n1020 .opt p2\n1030 *= $0400\n1040 lda #1\n"
    program = assemble(source)
    assert program.image == bytes([0xA9, 1]) and program.listing_requested


def test_sources_without_line_numbers_and_petcat_headers() -> None:
    assert asm("\n\n;demo.prg ==0801==\n  100 *= $c000\n  110 rts\n") == b"\x60"
    assert asm("*=$c000\nloop inx\n bne loop\n") == bytes([0xE8, 0xD0, 0xFD])


# -- errors -----------------------------------------------------------------------------------

def test_syntax_error_reports_file_line_column_listing_line_and_caret() -> None:
    (message,) = asm_errors("100 *= $1000\n110 lda #(1+\n")
    assert message.startswith("test.asm:2:13: error: syntax error: unexpected end of line")
    assert message.splitlines()[1:] == ["110 lda #(1+", "            ^"]
    assert "(line 110)" in message


@pytest.mark.parametrize("source, expected", [
    ("*=$1000\n ldz #1\n", "test.asm:2:2: error: unknown mnemonic 'ldz'"),
    ("*=$1000\n .foo 1\n", "test.asm:2:2: error: unknown directive '.foo'"),
    ("*=$1000\n lda nowhere\n", "test.asm:2:6: error: undefined symbol 'nowhere'"),
    ("*=$1000\nx1 nop\nx1 nop\n", "test.asm:3:1: error: duplicate label 'x1' (first defined at test.asm:2)"),
    ("*=$1000\n stx $1234,x\n", "test.asm:2:2: error: addressing mode address,x is not available for 'stx'"),
    ("*=$1000\n lda #256\n", "test.asm:2:7: error: value 256 does not fit in a byte (-128..255)"),
    ("*=$1000\n .wor 65536\n", "test.asm:2:7: error: value 65536 does not fit in a word"),
    ("*=$1000\n .byt 1/0\n", "test.asm:2:7: error: division by zero"),
    ("*=$1000\n nop\n*=$1000\n nop\n", "test.asm:4:2: error: overlapping output: $1000 was already written"),
    ("*=$1000\n lda (ptr),y\nptr = $1234\n", "test.asm:2:7: error: address $1234 is not in zero page"),
    ("*=$1000\n jmp $fb,x\n", "test.asm:2:2: error: addressing mode address,x is not available for 'jmp'"),
])
def test_error_classes(source: str, expected: str) -> None:
    messages = asm_errors(source)
    assert any(m.startswith(expected) for m in messages), messages


def test_branch_out_of_range_says_by_how_much() -> None:
    (message,) = asm_errors("*=$1000\n bne far\n*=$1000+2+127+5\nfar nop\n")
    assert "branch out of range: target $1086 is 5 bytes too far (forward)" in message
    (message,) = asm_errors("*=$1000\nback nop\n*=$1100\n beq back\n")
    assert "too far (back)" in message


def test_all_errors_are_reported_not_just_the_first() -> None:
    messages = asm_errors("*=$1000\n lda #300\n foo\n lda undefined1\n lda (1,y)\n")
    assert len(messages) == 3
    assert [m.split(":")[1] for m in messages] == ["2", "4", "5"]


def test_cli_error_exit_status_and_no_output(tmp_path: Path) -> None:
    source = tmp_path / "bad.asm"
    source.write_text("100 *= $1000\n110 lda #(1+\n120 jmp nowhere\n")
    out = tmp_path / "out.prg"
    out.write_bytes(b"previous")
    result = subprocess.run([sys.executable, "-m", "toolchain", "asm", str(source), "-o", str(out)],
                            capture_output=True, text=True)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert re.search(r"bad\.asm:2:\d+: error: syntax error", result.stderr)
    assert "bad.asm:3:9: error: undefined symbol 'nowhere' (line 120)" in result.stderr
    assert out.read_bytes() == b"previous"


# -- output formats ---------------------------------------------------------------------------

def test_listing_vice_labels_and_symbols() -> None:
    program = assemble("10 *= $c000\n20 start lda #$01:sta $d020\n30 .byt 1,2,3,4\n40 done = start\n")
    assert listing(program).splitlines() == [
        "; Profi-Ass 64 dialect (the default)",
        "                10 *= $c000",
        "C000  A9 01     20 start lda #$01:sta $d020",
        "C002  8D 20 D0",
        "C005  01 02 03  30 .byt 1,2,3,4",
        "C008  04",
        "                40 done = start",
    ]
    assert vice_labels(program) == "al C:c000 .done\nal C:c000 .start\n"
    table = symbol_table(program)
    assert "symbols by name:\n  done    $C000  equate\n  start   $C000  label" in table


def test_cli_assembles_a_tokenized_source_prg(tmp_path: Path) -> None:
    """Profi-Ass saved its sources as BASIC programs: such a PRG assembles directly."""
    from toolchain.basic import tokenize_text

    path = shared_path("corpus", "asm", "8609_viza.patch.quell.txt")
    text = path.read_text(encoding="latin-1")
    source_prg = tmp_path / "viza.src.prg"
    source_prg.write_bytes(tokenize_text(text).to_bytes())  # "sys", "and", ... become tokens
    from_prg, from_text = tmp_path / "a.prg", tmp_path / "b.prg"
    assert CliRunner().invoke(main, ["asm", str(source_prg), "-o", str(from_prg)]).exit_code == 0
    assert CliRunner().invoke(main, ["asm", str(path), "-o", str(from_text)]).exit_code == 0
    assert from_prg.read_bytes() == from_text.read_bytes() and len(from_prg.read_bytes()) == 64
