"""The monitor's commands beyond what VICE's transcripts cover (tests/test_monitor_vice.py):
assemble mode typed on a terminal, x at the end of a run, help's width, reset, the
banks' writes, files from disk images, mistakes as messages, the VIC-II's details for
states the VICE measurement does not reach, and --trace in the monitor's format."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.conftest import REPO, c64_rom_folder, play_on_terminal
from toolchain.cli import main
from toolchain.monitor.session import HELP_WIDTH

# $C000: LDA #$01 / STA $D020 / INC $D021 / LDX #$05 / RTS, then the text "HI" and a RETURN
# printed by a loop: what x should show when the program ends
PROGRAM = bytes.fromhex("00c0" "a201" "a9 48 20 d2 ff a9 49 20 d2 ff a9 0d 20 d2 ff 60".replace(" ", ""))


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "hi.prg"
    path.write_bytes(PROGRAM)
    return path


def monitor(program: Path, script: str, *options: str, folder: Path | None = None) -> Result:
    commands = (folder or program.parent) / "commands.mon"
    commands.write_text(script)
    return CliRunner().invoke(main, ["monitor", str(program), "--no-roms", "--monitor-commands",
                                     str(commands), *options])


def after(output: str, command: str) -> list[str]:
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines)
                 if line.endswith(") " + command) or line.endswith("  " + command))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith(("(C:$", "."))
                and not lines[i].startswith(".C:")), len(lines))
    return lines[start + 1 : end]


# -- assemble mode -------------------------------------------------------------------------------------

def test_assemble_mode_on_a_terminal(program: Path) -> None:
    """An interactive a: the prompt is the next address, a bad instruction is VICE's
    message and the mode stays, an empty line ends it; then d shows what was assembled."""
    status, shown = play_on_terminal(["monitor", str(program), "--no-roms"],
                                     ["a c100", "lda #$41", "bne c300", "jsr $ffd2", "", "d c100 c104", "q"])
    assert status == 0, shown
    assert shown[1:8] == ["(C:$c000) a c100", ".c100  lda #$41", ".c102  bne c300",
                          "Branch offset too large.", ".c102  jsr $ffd2", ".c105", "(C:$c105) d c100 c104"]
    assert shown[8:10] == [".C:c100  A9 41       LDA #$41", ".C:c102  20 D2 FF    JSR $FFD2"]


def test_a_line_that_is_no_instruction_ends_assemble_mode_with_a_message(program: Path) -> None:
    status, shown = play_on_terminal(["monitor", str(program), "--no-roms"],
                                     ["a c100 nop", "m c100 c101", "r", "q"])
    assert status == 0, shown
    assert ".c101  m c100 c101" in shown
    assert any(line.startswith("error: ") and line.endswith("(assemble mode ended)") for line in shown), shown
    assert "(C:$c101) r" in shown  # back at the monitor's prompt


def test_a_scripted_assemble_mode_ends_at_an_empty_line(program: Path) -> None:
    result = monitor(program, "a c100 lda #1\nsta $d020\n\nd c100 c104\nq\n")
    assert result.exit_code == 0, result.output
    assert ".c102  sta $d020" in result.stdout
    assert after(result.stdout, "d c100 c104") == [".C:c100  A9 01       LDA #$01",
                                                   ".C:c102  8D 20 D0    STA $D020"]


def test_mistakes_in_instructions_are_reported_before_anything_runs(program: Path) -> None:
    result = monitor(program, "a c100 lda #1 : foo $10\na c200\nlda (10\nm c000\nq\n")
    assert result.exit_code == 1
    path = program.parent / "commands.mon"
    errors = [line for line in result.output.splitlines() if ": error: " in line]
    no_instruction = ("error: an instruction: a mnemonic and its operand (lda #$01, sta $d020,x) (in "
                      "assemble mode, which an empty line ends)")
    # lines 4 and 5 are commands, but the empty line that ends assemble mode is missing
    assert errors == [f"{path}:1:17: error: 'FOO' is not a 6502 instruction (VICE's names: LDA, ISB, NOOP, "
                      "...)", f"{path}:3:8: error: missing ')' (in assemble mode, which an empty line ends)",
                      f"{path}:4:1: {no_instruction}", f"{path}:5:1: {no_instruction}"]
    assert result.stdout == ""


# -- x, help, reset ------------------------------------------------------------------------------------

def test_x_lets_the_program_run_to_its_end_and_shows_what_it_printed(program: Path) -> None:
    """On a terminal, x at the last stop: the program runs on, what it printed is shown,
    and the session is over (no prompt comes back)."""
    status, shown = play_on_terminal(["monitor", str(program), "--no-roms"], ["break c009", "g", "x"])
    assert status == 0, shown
    assert shown[3:5] == ["(C:$c000) g", "H"]  # what it printed before the stop
    # then BASIC's READY., as after any SYS that returns (issue 26, item 7)
    assert shown[-5:] == ["(C:$c009) x", "I", "The run has ended: returned to BASIC.", "READY.",
                          "returned to BASIC: 8 instructions, 50 cycles (0.00 s on a PAL C64)"]


def test_help_fits_80_columns(program: Path) -> None:
    result = CliRunner().invoke(main, ["monitor", str(program), "--no-roms"], input="help\nq\n")
    lines = result.stdout.splitlines()
    shown = lines[lines.index("(C:$c000) help") + 1 : -1]
    assert HELP_WIDTH == 80 and len(shown) > 30
    assert max(len(line) for line in shown) <= 80
    for command in ("a ADDRESS", "fill|f", "hunt|h", "compare|c", "move|t", "save|s", "load|l", "bsave|bs",
                    "bload|bl", "io [ADDRESS]", "bank [", "reset"):
        assert any(command in line for line in shown), command


def test_reset_runs_the_kernal_s_reset_to_ready(program: Path) -> None:
    """With the C64's ROMs, reset sends the CPU to the vector at $FFFC ($FCE2) with the
    chips cleared and the port's banking back: the KERNAL starts the C64 again."""
    roms = c64_rom_folder()
    commands = program.parent / "commands.mon"
    commands.write_text("> 0400 01 02 03\nreset\n")
    result = CliRunner().invoke(main, ["monitor", str(program), "--roms", str(roms), "--monitor-commands",
                                       str(commands)])
    assert "The run has ended: the program went to BASIC's READY." in result.stdout
    assert "**** COMMODORE 64 BASIC V2 ****" in result.stdout  # the start-up screen
    assert " 38911 BASIC BYTES FREE" in result.stdout


def test_reset_without_the_roms_ends_where_c64tc_s_models_end(program: Path) -> None:
    result = monitor(program, "reset\n")
    assert ("The run has ended: the program reset the C64 (SYS 64738): c64tc ends the run there."
            in result.stdout)


# -- banks, files ----------------------------------------------------------------------------------------

def test_writes_go_through_the_bank(program: Path) -> None:
    """bank ram writes the RAM under the KERNAL and the I/O area (the CPU still sees the
    ROM and the chips); bank io reaches the VIC-II while the CPU sees RAM there."""
    result = monitor(program, "bank ram\nf e000 e003 11\nf d020 d020 22\nm e000 e003\nbank cpu\nm e000 e003\n"
                     "m d020 d020\n> 0001 34\nbank io\nf d021 d021 05\nbank cpu\n> 0001 37\nm d021 d021\nq\n")
    assert result.exit_code == 0, result.output
    ram, cpu = after(result.stdout, "m e000 e003"), after(result.stdout, "m e000 e003")
    assert ram[0].startswith(">C:e000  11 11 11 11")
    assert after(result.stdout, "m d020 d020")[0].startswith(">C:d020  fe")  # the VIC-II's border, not RAM
    assert after(result.stdout, "m d021 d021")[0].startswith(">C:d021  f5")  # written while the RAM was shown
    assert cpu  # the CPU's view of $E000 is the KERNAL's (c64tc's model here): not the RAM's 11s
    second = result.stdout.split("(C:$e004) bank cpu")[1]
    assert ">C:e000  11 11 11 11" not in second.split("m d020")[0]


def test_load_reads_a_file_from_a_disk_image(program: Path, tmp_path: Path) -> None:
    """l "IMAGE:NAME" 0 reads a file from a disk image, as c64tc's other readers do."""
    image = tmp_path / "d.d64"
    data = tmp_path / "data.prg"
    data.write_bytes(b"\x00\x20" + bytes(range(1, 9)))
    runner = CliRunner()
    assert runner.invoke(main, ["d64", "create", str(image)]).exit_code == 0
    assert runner.invoke(main, ["d64", "add", str(image), str(data)]).exit_code == 0
    result = monitor(program, f'l "{image}:data" 0\nm 2000 2007\nq\n')
    assert result.exit_code == 0, result.output
    assert f"Loading '{image}:data' from 2000 to 2007 (0008 bytes)" in result.stdout
    assert after(result.stdout, "m 2000 2007")[0].startswith(">C:2000  01 02 03 04  05 06 07 08")


def test_save_on_drive_8_changes_the_image_only_with_write_disk(program: Path, tmp_path: Path) -> None:
    image = tmp_path / "d.d64"
    runner = CliRunner()
    assert runner.invoke(main, ["d64", "create", str(image)]).exit_code == 0
    before = image.read_bytes()
    assert monitor(program, 's "code" 8 c000 c00f\nq\n', "--disk", str(image)).exit_code == 0
    assert image.read_bytes() == before
    result = monitor(program, 's "code" 8 c000 c00f\nq\n', "--disk", str(image), "--write-disk")
    assert result.exit_code == 0, result.output
    listed = runner.invoke(main, ["d64", "list", str(image)]).stdout
    assert '"code"' in listed.lower()
    extracted = runner.invoke(main, ["d64", "extract", str(image), "code", "-d", str(tmp_path / "out")])
    assert extracted.exit_code == 0, extracted.output
    assert (tmp_path / "out" / "code.prg").read_bytes() == PROGRAM[:18]


@pytest.mark.parametrize(("script", "message"), [
    ('s "x" 9 c000 c00f\n', "1:1: error: device 9: c64tc's monitor reads and writes files on device 0"),
    ('l "x" 8\n', "1:1: error: device 8: no disk in drive 8"),
    ("bank cart\n", "1:6: error: a bank: cpu, default, ram, rom, io (c64tc has no cartridge port)"),
    ("reset 8\n", "1:1: error: reset 8: c64tc's drive is modelled at the level of its DOS"),
    ("f 1000\n", "1:7: error: the end of the range (f 1000 10ff ...)"),
    ("h 1000 2000\n", "1:12: error: the bytes to look for (h 1000 10ff 00 \"text\")"),
    ("t 1000 2000\n", "1:12: error: the destination address (t 1000 10ff 2000)"),
    ('bl "x" 0\n', "1:9: error: the address to load to (bload \"x\" 0 1000)"),
    ("s x 0 1000 2000\n", "1:3: error: the file name in quotes (s \"name.prg\" 0 ...)"),
    ('s "x" 1000 2000\n', "1:16: error: the end of the range to save"),  # 1000 is the device
])
def test_mistakes_are_messages(program: Path, script: str, message: str) -> None:
    result = monitor(program, script + "q\n")
    assert result.exit_code == 1
    assert message in result.stderr, result.stderr
    assert "Traceback" not in result.output


def test_saving_into_a_disk_image_goes_through_drive_8(program: Path, tmp_path: Path) -> None:
    image = tmp_path / "d.d64"
    assert CliRunner().invoke(main, ["d64", "create", str(image)]).exit_code == 0
    result = monitor(program, f's "{image}:code" 0 c000 c00f\nq\n')
    assert result.exit_code == 1
    assert "names a file on a disk image: device 0 writes files here; put the disk in drive 8" in (
        result.stderr)
    assert not list(tmp_path.glob("d.d64:*"))


def test_a_file_that_cannot_be_written_is_a_message(program: Path, tmp_path: Path) -> None:
    result = monitor(program, f's "{tmp_path}" 0 c000 c00f\nq\n')  # a folder
    assert result.exit_code == 1
    assert "cannot write" in result.stderr and "Traceback" not in result.output


# -- io's details -------------------------------------------------------------------------------------------

def test_the_vic_ii_s_details_follow_its_registers(program: Path) -> None:
    """The lines vicii_dump (VICE 3.10, viciisc/vicii.c) prints, for a multicolour bitmap
    with sprites, from the registers and the sprite pointers in screen memory."""
    result = monitor(program, "> d011 3b\n> d016 d8\n> d018 18\n> d015 05\n> d010 01\n> d000 20\n> d001 40\n"
                     "> d017 04\n> d01d 01\n> d01b 02\n> d01c 04\n> d025 0a\n> d026 0b\n> 07f8 c0 c1 c2\n"
                     "io d000\nq\n")
    assert result.exit_code == 0, result.output
    details = after(result.stdout, "io d000")[6:]
    assert details[1:5] == ["Mode: Multicolor Bitmap (ECM/BMM/MCM=0/1/1)", "Colors: Border: e BG: 6 ",
                            "Scroll X/Y: 0/3, 40x25", "Video $0400, Bitmap $2000 (RAM)"]
    assert details[6:] == ["Sprites: S.0 S.1 S.2 S.3 S.4 S.5 S.6 S.7",
                           "Enabled: yes  no yes  no  no  no  no  no",
                           "Pointer: $c0 $c1 $c2 $00 $00 $00 $00 $00",
                           "X-Pos:  $120$000$000$000$000$000$000$000",
                           "Y-Pos:    64   0   0   0   0   0   0   0",
                           "X/Y-Exp: X/   /   /Y  /   /   /   /   / ",
                           "Pri./MC: s/  b/  s/* s/  s/  s/  s/  s/ ",
                           "Color:     1   2   3   4   5   6   7   c",
                           "Multi Color 1: a  Multi Color 2: b"]


# -- the trace ----------------------------------------------------------------------------------------------

def test_the_trace_is_the_monitor_s_step_line(program: Path) -> None:
    """run --trace and the monitor's z show an instruction the same way (VICE's register
    dump line), from one function."""
    traced = subprocess.run([sys.executable, "-m", "toolchain", "run", str(program), "--sys", "49152",
                             "--no-roms", "--trace"], capture_output=True, text=True, cwd=REPO,
                            env={**os.environ, "C64TC_ROMS": "none"})
    trace = traced.stderr.splitlines()
    stepped = monitor(program, "z\nz\nq\n").stdout.splitlines()
    steps = [line for line in stepped if line.startswith(".C:")]
    assert trace[:3] == steps[:3]
    assert trace[0] == ".C:c000  A2 01       LDX #$01       - A:00 X:00 Y:00 SP:f7 ..-.....          0"


def test_the_rom_and_io_banks_drop_writes_to_the_roms_addresses(program: Path) -> None:
    """As VICE's mem_bank_write: bank rom writes RAM outside the ROMs' addresses and
    nothing at them; bank ram writes the RAM under the KERNAL."""
    result = monitor(program, "bank rom\nf e000 e001 11\nf 2000 2001 22\nbank ram\nm e000 e001\nm 2000 2001\n"
                     "f e000 e001 33\nm e000 e001\nq\n")
    assert result.exit_code == 0, result.output
    assert after(result.stdout, "m 2000 2001")[0].startswith(">C:2000  22 22")
    shown = [line for line in result.stdout.splitlines() if line.startswith(">C:e000")]
    assert shown[0].startswith(">C:e000  00 00") and shown[1].startswith(">C:e000  33 33")
