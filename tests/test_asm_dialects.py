"""The 64tass and ACME dialects (issue 27): feature probes compared byte for byte with
what the real assemblers wrote, choosing the dialect, the command line, and the messages.

The probes are small sources, one feature each, in tests/data/asm-64tass and
tests/data/asm-acme; their first line names the assembler and its options, and the PRG
beside each is what that assembler wrote (tests/data/asm-measure.py measured them with
64tass 1.58.2974 and ACME 0.97).  Where 64tass or acme is on the PATH, the reference files
are checked against it too.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import REPO
from toolchain.asm import AssemblyFailed, AssemblyOptions, assemble, assemble_sources
from toolchain.asm.dialects import detect
from toolchain.asm.output import listing, symbol_table, vice_labels
from toolchain.cli import main

DATA = REPO / "tests" / "data"
PROBES = sorted((DATA / "asm-64tass").glob("*.s")) + sorted((DATA / "asm-acme").glob("*.a"))
sys.path.insert(0, str(DATA))
measure = __import__("asm-measure")


def probe_options(source: Path) -> AssemblyOptions:
    tool, options = measure.options_of(source)
    return AssemblyOptions(dialect=tool, ascii="-a" in options, case_sensitive="-C" in options,
                           long_branch="-B" in options,
                           undocumented="-i" in options or "6510" in options or "nmos6502" in options)


def prg(source: str, path: str, options: AssemblyOptions) -> bytes:
    program = assemble(source, path, options)
    return program.start.to_bytes(2, "little") + program.image


@pytest.mark.parametrize("source", PROBES, ids=lambda p: f"{p.parent.name[4:]}/{p.stem}")
def test_feature_probe_is_byte_identical_to_the_real_assembler(source: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(source.parent)  # ACME reads its files from the current folder
    expected = source.with_suffix(".prg").read_bytes()
    assert prg(source.read_text(encoding="utf-8"), source.name, probe_options(source)) == expected


@pytest.mark.parametrize("source", PROBES, ids=lambda p: f"{p.parent.name[4:]}/{p.stem}")
def test_probe_reference_is_what_the_real_assembler_writes(source: Path) -> None:
    tool, _ = measure.options_of(source)
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not on the PATH (the stored reference was measured with it)")
    data, messages = measure.real_output(source)
    assert data is not None, messages
    assert data == source.with_suffix(".prg").read_bytes()


def test_there_are_probes_for_both_dialects() -> None:
    tass = [p for p in PROBES if p.suffix == ".s"]
    acme = [p for p in PROBES if p.suffix == ".a"]
    assert len(tass) >= 60 and len(acme) >= 40
    assert all(p.with_suffix(".prg").exists() for p in PROBES)


# -- choosing the dialect ------------------------------------------------------------------------

@pytest.mark.parametrize(("path", "text", "dialect"), [
    ("game.a", " lda #1\n", "acme"),
    ("game.acme", " lda #1\n", "acme"),
    ("game.asm", "!to \"x.prg\", cbm\n* = $1000\n", "acme"),
    ("game.s", "; comment\n  !cpu 6510\n", "acme"),
    ("game.asm", "label !byte 1\n", "acme"),
    ("game.s", "*= $1000\n .cpu \"6502i\"\n", "64tass"),
    ("game.asm", "main .proc\n rts\n .pend\n", "64tass"),
    ("game.tas", '  .enc "screen"\n', "64tass"),
    ("game.tas", "!src \"lib.a\"\n", "acme"),  # .tas is used for ACME sources too
    ("game.asm", "*= $1000\n .byte 1\n .if 1\n .text \"a\"\n .endif\n", "profi"),
    ("listing.txt", "10 *= $c000\n20 lda #1\n", "profi"),
])  # fmt: skip
def test_the_dialect_comes_from_the_extension_or_the_first_directive(path: str, text: str,
                                                                     dialect: str) -> None:
    assert detect(path, text)[0] == dialect


def test_the_listing_says_which_dialect_and_why(tmp_path: Path) -> None:
    source = tmp_path / "hello.s"
    source.write_text('*= $1000\n .enc "none"\n lda #1\n')
    result = CliRunner().invoke(main, ["asm", str(source), "-o", str(tmp_path / "x.prg"), "-l", "-", "-q"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "; 64tass dialect (from its first directive .enc)"
    result = CliRunner().invoke(main, ["asm", str(source), "--dialect", "64tass", "-o",
                                       str(tmp_path / "x.prg"), "-l", "-", "-q"])
    assert result.output.splitlines()[0] == "; 64tass dialect (--dialect)"
    acme = tmp_path / "hello.a"
    acme.write_text("* = $1000\n lda #1\n")
    result = CliRunner().invoke(main, ["asm", str(acme), "-o", str(tmp_path / "y.prg"), "-l", "-", "-q"])
    assert result.output.splitlines()[0] == "; ACME dialect (from the extension .a)"
    assert result.output.splitlines()[2] == "1000  A9 01      lda #1"


def test_options_of_another_dialect_are_refused(tmp_path: Path) -> None:
    source = tmp_path / "x.a"
    source.write_text("* = $1000\n rts\n")
    result = CliRunner().invoke(main, ["asm", str(source), "-a", "-o", str(tmp_path / "x.prg")])
    assert result.exit_code == 2 and "-a is a 64tass option, and this source is read as acme" in result.output
    profi = tmp_path / "p.asm"
    profi.write_text("*= $1000\n rts\n")
    result = CliRunner().invoke(main, ["asm", str(profi), "--cpu", "6510", "-o", str(tmp_path / "x.prg")])
    assert result.exit_code == 2 and "--cpu is a acme option" in result.output


def test_64tass_command_line_options(tmp_path: Path) -> None:
    source = tmp_path / "x.s"
    source.write_text('*= $1000\nLabel .text "a"\n lax $10\n jmp label\n')
    out = tmp_path / "x.prg"
    result = CliRunner().invoke(main, ["asm", str(source), "--dialect", "64tass", "-a", "-i", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == bytes([0x00, 0x10, 0x41, 0xA7, 0x10, 0x4C, 0x00, 0x10])
    result = CliRunner().invoke(main, ["asm", str(source), "--dialect", "64tass", "-a", "-i", "-C",
                                       "-o", str(out)])
    assert result.exit_code == 1 and "undefined symbol 'label'" in result.output


def test_acme_to_plain_writes_no_load_address(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("x.a").write_text('!to "x.bin", plain\n* = $1000\n rts\n')
    result = CliRunner().invoke(main, ["asm", "x.a", "-o", "x.bin"])
    assert result.exit_code == 0, result.output
    assert Path("x.bin").read_bytes() == b"\x60"
    result = CliRunner().invoke(main, ["asm", "x.a", "-o", "x.prg", "--format", "prg"])
    assert Path("x.prg").read_bytes() == b"\x00\x10\x60"


# -- every dialect has -D, -I, listings, VICE labels and symbols ---------------------------------

@pytest.mark.parametrize(("dialect", "main_text", "library"), [
    ("64tass", '*= $1000\n .include "lib.s"\n .if debug\n lda #1\n .fi\nloop jmp chrout\n',
     "chrout = $ffd2\n"),
    ("acme", '* = $1000\n !source "lib.a"\n !if debug { lda #1 }\nloop jmp chrout\n', "chrout = $ffd2\n"),
])  # fmt: skip
def test_defines_include_paths_and_outputs_in_every_dialect(dialect: str, main_text: str, library: str,
                                                             tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lib").mkdir()
    suffix = ".s" if dialect == "64tass" else ".a"
    (tmp_path / f"main{suffix}").write_text(main_text)
    (tmp_path / "lib" / f"lib{suffix}").write_text(library)
    result = CliRunner().invoke(main, ["asm", f"main{suffix}", "--dialect", dialect, "-I", "lib", "-D",
                                       "debug=1", "-o", "x.prg", "-l", "x.lst", "--vice-labels", "x.labels",
                                       "--symbols", "x.symbols"])
    assert result.exit_code == 0, result.output
    assert Path("x.prg").read_bytes() == bytes([0x00, 0x10, 0xA9, 0x01, 0x4C, 0xD2, 0xFF])
    assert "al C:1002 .loop" in Path("x.labels").read_text()
    symbols = Path("x.symbols").read_text()
    assert "chrout" in symbols and "loop" in symbols  # --symbols
    listed = Path("x.lst").read_text()
    assert "1000  A9 01" in listed and "1002  4C D2 FF" in listed


def test_listing_labels_and_symbols_of_a_64tass_program() -> None:
    program = assemble("*= $c000\nstart lda #$01\n sta $d020\nblk .block\nin nop\n .bend\n", "x.s",
                       AssemblyOptions(dialect="64tass"))
    rows = listing(program).splitlines()
    assert rows[1:4] == ["                *= $c000", "C000  A9 01     start lda #$01",
                         "C002  8D 20 D0   sta $d020"]
    assert "C005  EA        in nop" in rows
    assert "al C:c000 .start" in vice_labels(program)
    assert "blk.in" in symbol_table(program)


# -- messages ------------------------------------------------------------------------------------

def _errors(source: str, dialect: str, path: str = "t.s", **options: object) -> list[str]:
    with pytest.raises(AssemblyFailed) as info:
        assemble(source, path, AssemblyOptions(dialect=dialect, **options))  # type: ignore[arg-type]
    return [d.format() for d in info.value.errors]


def test_errors_have_file_line_column_and_a_caret() -> None:
    assert _errors("*= $1000\n lda nowhere\n", "64tass") == [
        "t.s:2:6: error: undefined symbol 'nowhere'\n lda nowhere\n     ^"]
    assert _errors("* = $1000\n lda nowhere\n", "acme", "t.a") == [
        "t.a:2:6: error: undefined symbol 'nowhere'\n lda nowhere\n     ^"]


@pytest.mark.parametrize(("dialect", "line", "message"), [
    ("64tass", " !byte 1", "'!byte' is an ACME directive, and this source is read as 64tass"),
    ("acme", " .byte 1", "'.byte' is a 64tass directive, and this source is read as ACME"),
    ("acme", "label .text \"a\"", "'.text' is a 64tass directive, and this source is read as ACME"),
    ("profi", "!byte 1", "'!byte' is an ACME directive, and this source is read as Profi-Ass"),
    ("profi", " .proc", "'.proc' is a 64tass directive, and this source is read as Profi-Ass"),
])  # fmt: skip
def test_a_directive_of_another_dialect_says_whose_it_is(dialect: str, line: str, message: str) -> None:
    errors = _errors(f"*= $1000\n{line}\n", dialect)
    assert len(errors) == 1 and message in errors[0]


@pytest.mark.parametrize(("source", "message"), [
    (" .ifdef x", "64tass has no .ifdef"),
    (" .screen \"ab\"", "64tass has no .screen: write '.enc \"screen\"' and then .text"),
    (" lda.w $12", "'lda.w' is not 64tass 1.58 syntax: force the size with 'lda @w address'"),
    (" .struct", "'.struct' is a 64tass directive c64tc does not support"),
    (" .sfunction f, 1", "'.sfunction' is a 64tass directive c64tc does not support"),
    ("f .function\n .endf 1\n", "'.endf' with a result (a function used in expressions) is not supported"),
    (" lax $10", "'lax' is an undocumented opcode: assemble with -i"),
    (" .cpu \"65c02\"", "CPU '65c02' is not supported by c64tc (6502 and 6502i are)"),
    (' .text "a_b"', "can't encode character '_' (U+005F) in encoding 'none'"),
])  # fmt: skip
def test_what_64tass_has_not_or_c64tc_does_not_support_is_an_error_that_says_so(source: str,
                                                                                 message: str) -> None:
    errors = _errors(f"*= $1000\n{source}\n", "64tass", ascii=True)
    assert len(errors) == 1 and message in errors[0]


@pytest.mark.parametrize(("source", "message"), [
    (" lax $10", "'lax' is an undocumented opcode: write '!cpu 6510' before it"),
    (" !cpu 65816", "CPU '65816' is not supported by c64tc"),
    (" !al", "'!al' is for the 65816"),
    (" !cbm", "'!cbm' is obsolete in ACME 0.97"),
    (" +mac ~x", "macro 'mac' is not defined"),
    (" !to \"x\", apple", "the apple output format is not supported by c64tc"),
    (" asl a", "undefined symbol 'a'"),
])  # fmt: skip
def test_acme_errors_that_say_what_to_do(source: str, message: str) -> None:
    errors = _errors(f"* = $1000\n{source}\n rts\n", "acme", "t.a")
    assert len(errors) == 1 and message in errors[0], errors


# what the real assembler refuses, c64tc refuses too (found by comparing generated programs)
REFUSED = [
    ("64tass", " .char ~%000000001", "too large for a 8 bit signed integer bits"),
    ("64tass", " lda #~%000000001", "too large for a 8 bit unsigned integer bits"),
    ("64tass", " .byte -$100", "too large for a 8 bit unsigned integer bits"),
    ("64tass", " .rta 65536", "does not fit in '.rta' (0..65535)"),
    ("64tass", " .byte 'AB'", "too large for a 8 bit unsigned integer str 'AB'"),
    ("64tass", ' .cdef "az", $61', "double defined range"),
    ("64tass", ' .enc "screen"\n .cdef "ab", 1', "double defined range"),
    ("64tass", ' .enc "my"\n .cdef "az", 1\n .cdef "bc", 2', "double defined range"),
    ("64tass", ' .edef "{clr}", 1', "double defined escape"),
    ("64tass", "m .macro\n .endm\nm .macro\n .endm\n nop", "duplicate definition of 'm'"),
    ("64tass", "m nop\nm .segment\n .endm", "duplicate definition of 'm'"),
    ("64tass", "f .function\n .endf\nf = 3\n nop", "duplicate definition of 'f'"),
    ("acme", " lda #$0007", "leading zeros make this a 16-bit value, and an immediate is one byte"),
    ("acme", "x = $0007\n lda #x", "leading zeros make this a 16-bit value"),
    ("acme", " ldx #0x000007", "leading zeros make this a 24-bit value"),
    ("acme", " lda+2 #5", "'lda+2' asks for a 16-bit operand, and an immediate is one byte"),
    ("acme", " lda ($0005),y", "'lda' has only the zero-page form for (zp),y"),
    ("acme", " stx $0005,y", "'stx' has only the zero-page form for address,y"),
    ("acme", " stx+2 5,y", "'stx+2': 'stx' has only the zero-page form"),
    ("acme", " lda (5),x", "'(address),x' is no 6502 addressing mode"),
    ("acme", " !fill 1, 256", "256 does not fit in 8 bits"),
    ("acme", " !fill 1, -129", "-129 does not fit in 8 bits"),
]  # fmt: skip


@pytest.mark.parametrize(("dialect", "line", "message"), REFUSED)
def test_what_the_real_assembler_refuses_c64tc_refuses(dialect: str, line: str, message: str,
                                                        tmp_path: Path) -> None:
    origin = "*= $1000" if dialect == "64tass" else "* = $1000"
    source = f"{origin}\n{line}\n"
    path = "t.s" if dialect == "64tass" else "t.a"
    errors = _errors(source, dialect, path, ascii=dialect == "64tass")
    assert len(errors) == 1 and message in errors[0], errors
    if shutil.which(dialect):
        probe = tmp_path / path
        probe.write_text(f"; {dialect}{' -a' if dialect == '64tass' else ''}\n{source}")
        data, messages = measure.real_output(probe)
        assert data is None, f"{dialect} accepts it"


def test_errors_in_a_macro_name_the_macro() -> None:
    errors = _errors("*= $1000\nm .macro\n lda #\\2\n .endm\n #m 1\n", "64tass")
    assert errors and "missing macro argument \\2 (in macro 'm'" in errors[0]


def test_undefined_symbols_are_reported_once_passes_settle() -> None:
    # an error only in the last pass: nothing about the first pass's unknown forward references
    assert _errors("*= $1000\n jmp later\n lda missing\nlater rts\n", "64tass") == [
        "t.s:3:6: error: undefined symbol 'missing'\n lda missing\n     ^"]


def test_several_sources_as_one_program_in_a_dialect() -> None:
    program = assemble_sources([("* = $1000\n jsr sub\n", "a.a"), ("sub rts\n", "b.a")],
                               AssemblyOptions(dialect="acme"))
    assert program.image == bytes([0x20, 0x03, 0x10, 0x60])


def test_the_real_tool_and_c64tc_agree_on_a_generated_program(tmp_path: Path) -> None:
    """A program with every addressing mode of every documented mnemonic, both dialects."""
    from toolchain.cpu.opcodes import ENCODINGS, Mode

    forms = {Mode.IMP: "", Mode.ACC: "", Mode.IMM: "#$12", Mode.ZP: "$12", Mode.ZPX: "$12,x",
             Mode.ZPY: "$12,y", Mode.ABS: "$1234", Mode.ABX: "$1234,x", Mode.ABY: "$1234,y",
             Mode.IND: "($1234)", Mode.IZX: "($12,x)", Mode.IZY: "($12),y", Mode.REL: "*"}  # fmt: skip
    operands = {0: b"", 1: b"\x12", 2: b"\x34\x12"}
    lines = [f" {m} {forms[mode]}" for (m, mode) in ENCODINGS]
    expected = b"\x00\x10" + b"".join(bytes([op.code]) + (b"\xfe" if op.mode is Mode.REL else
                                                         operands[op.mode.operand_length])
                                      for op in ENCODINGS.values())
    for dialect, origin in (("64tass", "*= $1000"), ("acme", "* = $1000")):
        text = origin + "\n" + "\n".join(lines) + "\n"
        assert prg(text, "all.s", AssemblyOptions(dialect=dialect)) == expected
        tool = "64tass" if dialect == "64tass" else "acme"
        if shutil.which(tool):
            source = tmp_path / f"all-{dialect}.s"
            source.write_text(f"; {tool}\n" + text)
            data, messages = measure.real_output(source)
            assert data == expected, messages


def test_measure_script_names_the_tools() -> None:
    text = (DATA / "asm-measure.py").read_text()
    assert "64tass 1.58.2974" in text and "ACME 0.97" in text
    assert shlex.split("; acme --cpu 6510".lstrip(";")) == ["acme", "--cpu", "6510"]


def test_c64tc_asm_runs_as_a_command(tmp_path: Path) -> None:
    source = tmp_path / "x.a"
    source.write_text("* = $c000\n lda #'a'\n !pet \"Hi\"\n rts\n")
    result = subprocess.run([sys.executable, "-m", "toolchain", "asm", str(source), "-o", "-", "-q"],
                            capture_output=True, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert result.returncode == 0, result.stderr
    assert result.stdout == bytes([0x00, 0xC0, 0xA9, 0x61, 0xC8, 0x49, 0x60])
