"""Assembler features beyond one listing (issue 16): .include, .binary, .fill, several
sources, -D, .if/.else/.endif, undocumented opcodes, warnings, -q, pipes, and the
messages for files that are not sources."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import REPO
from toolchain.asm import AssemblyFailed, AssemblyOptions, assemble, assemble_sources
from toolchain.cli import main
from toolchain.cpu.opcodes import ALL_MNEMONICS, MNEMONIC_ALIASES, OPCODES, UNDOCUMENTED_ENCODINGS, Mode


def _errors(source: str, options: AssemblyOptions | None = None, path: str = "t.asm") -> list[str]:
    with pytest.raises(AssemblyFailed) as info:
        assemble(source, path, options)
    return [d.format() for d in info.value.errors]


# -- files -----------------------------------------------------------------------------------

def test_include_is_relative_to_the_including_file_then_the_include_paths(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "lib").mkdir()
    (tmp_path / "main.asm").write_text('*= $c000\n.include "sub/defs.asm"\n jsr chrout\n')
    (tmp_path / "sub" / "defs.asm").write_text('chrout = $ffd2\n.include "more.asm"\n')
    (tmp_path / "lib" / "more.asm").write_text(" rts\n")
    main_path = str(tmp_path / "main.asm")
    program = assemble((tmp_path / "main.asm").read_text(), main_path,
                       AssemblyOptions(include_paths=(tmp_path / "lib",)))
    assert program.image == bytes([0x60, 0x20, 0xD2, 0xFF])
    assert [line.path for line in program.lines] == [main_path, main_path, str(tmp_path / "sub" / "defs.asm"),
                                                     str(tmp_path / "sub" / "defs.asm"),
                                                     str(tmp_path / "lib" / "more.asm"), main_path]
    (message,) = _errors((tmp_path / "main.asm").read_text(), AssemblyOptions(), main_path)
    assert "defs.asm:2:10: error: include file 'more.asm' not found" in message


def test_include_cycles_are_an_error(tmp_path: Path) -> None:
    (tmp_path / "a.asm").write_text('*= $c000\n.include "b.asm"\n')
    (tmp_path / "b.asm").write_text('.include "a.asm"\n')
    (message,) = _errors((tmp_path / "a.asm").read_text(), path=str(tmp_path / "a.asm"))
    assert "error: include cycle:" in message and message.count("a.asm") >= 2


def test_binary_with_offset_and_length(tmp_path: Path) -> None:
    (tmp_path / "data.bin").write_bytes(bytes(range(10)))
    path = str(tmp_path / "t.asm")
    assert assemble('*= $1000\n.binary "data.bin"\n', path).image == bytes(range(10))
    assert assemble('*= $1000\n.binary "data.bin", 2, 3\n nop\n', path).image == bytes([2, 3, 4, 0xEA])
    (message,) = _errors('*= $1000\n.binary "data.bin", 8, 3\n', path=path)
    assert "length 3 runs past the end of the file (10 bytes, 2 after offset 8)" in message


def test_fill() -> None:
    assert assemble("*= $1000\n.fill 3\n.fill 2, $ea\nend = *\n .byt <end\n").image == bytes(
        [0, 0, 0, 0xEA, 0xEA, 0x05])
    (message,) = _errors("*= $ff00\n.fill 1000\n")
    assert "'.fill' count 1000 does not fit between $FF00 and $FFFF" in message
    (message,) = _errors("*= $1000\n.fill n\nn = 2\n")
    assert "the count of '.fill' must be known where it stands: 'n' is not defined above" in message


def test_several_sources_are_one_program() -> None:
    program = assemble_sources([("*= $c000\nchrout = $ffd2\n", "a.asm"),
                                (" jsr chrout\n jmp done\n", "b.asm"), ("done rts\n", "c.asm")])
    assert program.image == bytes([0x20, 0xD2, 0xFF, 0x4C, 0x06, 0xC0, 0x60])
    with pytest.raises(AssemblyFailed) as info:
        assemble_sources([("*= $c000\n lda nowhere\n", "a.asm"), (" lda #300\n", "b.asm")])
    assert [d.path for d in info.value.errors] == ["a.asm", "b.asm"]


# -- definitions and conditions ------------------------------------------------------------------

_CONDITIONAL = """*= $1000
.if debug
 lda #1
.if debug-1
 lda #2
.else
 lda #3
.endif
.el
 lda #4
.ei
"""


@pytest.mark.parametrize("debug, expected", [(0, [0xA9, 4]), (1, [0xA9, 1, 0xA9, 3]),
                                             (2, [0xA9, 1, 0xA9, 2])])
def test_if_else_endif_with_defines(debug: int, expected: list[int]) -> None:
    options = AssemblyOptions(defines=(("debug", debug),))
    assert assemble(_CONDITIONAL, "t.asm", options).image == bytes(expected)


def test_condition_errors() -> None:
    assert "the condition must be known where it stands: 'later' is not defined above" in \
        _errors("*= $1000\n.if later\n.endif\nlater nop\n")[0]
    assert _errors("*= $1000\n nop\n.if 1\n")[0].startswith("t.asm:3:1: error: '.if' without '.endif'")
    assert "'.endif' without '.if'" in _errors("*= $1000\n nop\n.endif\n")[0]
    assert "a second '.else' for one '.if'" in _errors("*= $1000\n.if 1\n.else\n.else\n.endif\n nop\n")[0]


def test_skipped_lines_are_not_checked_and_define_nothing() -> None:
    assert assemble("*= $1000\n.if 0\n lda #(((\nx nop\n.endif\n nop\n").image == b"\xea"
    assert "undefined symbol 'x'" in _errors("*= $1000\n.if 0\nx nop\n.endif\n jmp x\n")[0]


def test_defines_clash_with_source_definitions() -> None:
    (message,) = _errors("*= $1000\nx = 1\n nop\n", AssemblyOptions(defines=(("x", 2),)))
    assert "duplicate label 'x' (first defined at -D x=2)" in message


# -- undocumented opcodes ---------------------------------------------------------------------

def test_undocumented_opcodes_only_when_asked() -> None:
    assert ("unknown mnemonic 'lax' (an undocumented opcode: assemble with --undocumented)"
            in _errors("*= $1000\n lax $12\n")[0])
    options = AssemblyOptions(undocumented=True)
    source = ("*= $1000\n lax $12\n lax $1234,y\n sax $12,y\n dcp ($12),y\n isc $1234,x\n slo $12\n"
              " anc #1\n alr #2\n arr #3\n sbx #4\n las $1234,y\n nop #5\n nop $12\n nop $12,x\n"
              " nop $1234\n nop $1234,x\n nop\n sbc #1\n")
    assert assemble(source, "t.asm", options).image == bytes([
        0xA7, 0x12, 0xBF, 0x34, 0x12, 0x97, 0x12, 0xD3, 0x12, 0xFF, 0x34, 0x12, 0x07, 0x12, 0x0B, 1, 0x4B, 2,
        0x6B, 3, 0xCB, 4, 0xBB, 0x34, 0x12, 0x80, 5, 0x04, 0x12, 0x14, 0x12, 0x0C, 0x34, 0x12, 0x1C, 0x34,
        0x12, 0xEA, 0xE9, 1])


def test_alias_names() -> None:
    options = AssemblyOptions(undocumented=True)
    for alias, name in MNEMONIC_ALIASES.items():
        mode = min(ALL_MNEMONICS[name], key=lambda m: m.value[0])
        operand = {Mode.IMM: " #1", Mode.ZP: " $12", Mode.ABY: " $1234,y", Mode.ZPY: " $12,y"}[mode] \
            if mode in (Mode.IMM, Mode.ZP, Mode.ABY, Mode.ZPY) else " $1234"
        ours = assemble(f"*= $1000\n {alias}{operand}\n", "t.asm", options).image
        assert ours == assemble(f"*= $1000\n {name}{operand}\n", "t.asm", options).image, alias


def test_every_undocumented_encoding_is_an_opcode_the_core_runs() -> None:
    for (mnemonic, mode), op in UNDOCUMENTED_ENCODINGS.items():
        assert OPCODES[op.code] is op and op.mnemonic == mnemonic and op.mode is mode


def test_las_runs_on_both_cores() -> None:
    from toolchain.cpu.core import CPU
    from toolchain.cpu.translator import TranslatingCPU

    program = assemble("*= $1000\n ldx #$f0\n txs\n ldy #1\n las $2000,y\nend jmp end\n", "t.asm",
                       AssemblyOptions(undocumented=True))
    for cls in (CPU, TranslatingCPU):
        memory = bytearray(0x10000)
        memory[0x1000 : 0x1000 + len(program.image)] = program.image
        memory[0x2001] = 0x5C
        cpu = cls(memory)
        cpu.pc = 0x1000
        cpu.run(until=0x1008, max_cycles=1000)
        # A, X and SP take memory AND SP: $5C & $F0; N and Z from it (groepaz: LAS is stable)
        assert (cpu.a, cpu.x, cpu.sp, cpu.p & 0x82) == (0x50, 0x50, 0x50, 0), cls.__name__


# -- warnings ----------------------------------------------------------------------------------

def test_warnings() -> None:
    source = "*= $10f0\nloop nop\n*= $1100\n bne loop\n lda later\n lda later\nlater = $fb\n"
    assert assemble(source).warnings == []
    program = assemble(source, "w.asm", AssemblyOptions(warnings=frozenset({"branch-page", "zp-forward"})))
    messages = [d.format().splitlines()[0] for d in program.warnings]
    zp = ("warning: $FB is in zero page but defined below this line, so it stays absolute (a byte and "
          "a cycle more): define it above [-Wzp-forward]")
    assert messages == [
        "w.asm:4:2: warning: branch to $10F0 crosses a page (from $1102): one cycle more when taken "
        "[-Wbranch-page]", f"w.asm:5:6: {zp}", f"w.asm:6:6: {zp}"]


# -- the command line ---------------------------------------------------------------------------

def _run(args: list[str], stdin: bytes = b"", cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "toolchain", *args], input=stdin, capture_output=True,
                          cwd=cwd, env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})


def test_pipes_in_and_out() -> None:
    result = _run(["asm", "-", "-o", "-"], b"*= $c000\n lda #1\n")
    assert result.returncode == 0 and result.stdout == bytes([0x00, 0xC0, 0xA9, 0x01])
    assert b"standard output: $C000-$C001, 2 bytes (+2 load address)" in result.stderr
    result = _run(["asm", "-", "-o", "-", "--format", "raw", "-q"], b"*= $c000\n rts\n")
    assert result.stdout == b"\x60" and result.stderr == b""


def test_cli_defines_include_paths_warnings_and_several_sources(tmp_path: Path) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "k.asm").write_text("chrout = $ffd2\n")
    (tmp_path / "a.asm").write_text('*= $c000\n.include "k.asm"\n.if fast\n nop\n.endif\n')
    (tmp_path / "b.asm").write_text(" jmp chrout\n")
    out = tmp_path / "x.prg"
    result = CliRunner().invoke(main, ["asm", str(tmp_path / "a.asm"), str(tmp_path / "b.asm"), "-I",
                                       str(tmp_path / "inc"), "-D", "fast=1", "-o", str(out), "-Wall"])
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == bytes([0x00, 0xC0, 0xEA, 0x4C, 0xD2, 0xFF])
    result = CliRunner().invoke(main, ["asm", str(tmp_path / "a.asm"), "-D", "1x=2"])
    assert result.exit_code == 2 and "Invalid value for '-D'" in result.output


def test_quiet_suppresses_the_listing_of_opt_p(tmp_path: Path) -> None:
    source = REPO / "sources" / "superhirn2.asm"
    result = CliRunner().invoke(main, ["asm", str(source), "-o", str(tmp_path / "x.prg"), "-q"])
    assert result.exit_code == 0 and result.output == ""


def test_files_that_are_not_sources_are_named(tmp_path: Path) -> None:
    cases = {"disk.d64": bytes(174848), "code.prg": b"\x00\xc0\xa9\x01\x60", "junk.bin": b"\x00\x01\xff" * 9}
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "dump.mse").write_text("3400 : a9 93 20 d2 ff a9 01 8d   42\n"
                                       "3408 : 3e 03 8d 52 03 8d 5c 03   8a\n")
    from toolchain.basic import tokenize_text

    (tmp_path / "prog.prg").write_bytes(tokenize_text('10 print "hi"\n').to_bytes())
    expected = {"disk.d64": "is a D64 disk image, not a source: `c64tc d64 list",
                "code.prg": "is a machine-code PRG ($C000-$C002), not a source: `c64tc disasm",
                "junk.bin": "is binary data, not a source text",
                "dump.mse": "is an MSE hex dump, not assembler source: `c64tc mse check",
                "prog.prg": "is a tokenized BASIC program, not Profi-Ass source"}
    for name, text in expected.items():
        result = CliRunner().invoke(main, ["asm", str(tmp_path / name), "-o", str(tmp_path / "o.prg")])
        assert result.exit_code == 1 and text in result.output, (name, result.output)


def test_asm_reads_a_source_saved_on_a_disk_image(tmp_path: Path) -> None:
    """IMAGE:NAME for asm too: a tokenized Profi-Ass source as the assembler saved it."""
    from toolchain.basic import tokenize_text
    from toolchain.disk import d64

    image = tmp_path / "src.d64"
    d64.create(image, "sources", "01")
    d64.add(image, "my src", tokenize_text("10 sys 9*4096\n20 *= $c000\n30 lda #1\n40 rts\n").to_bytes())
    result = CliRunner().invoke(main, ["asm", f"{image}:my src", "-o", str(tmp_path / "out.prg")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out.prg").read_bytes() == bytes([0x00, 0xC0, 0xA9, 0x01, 0x60])
