"""The monitor's memory, file and machine commands against VICE 3.10's monitor: each
``tests/data/monitor/NAME.mon`` script was run in x64sc's remote monitor and what VICE
printed is kept as ``NAME.vice.txt`` (``tests/data/monitor/measure_on_vice.py``).  The
same script in c64tc's scripted monitor must print the same bytes: the scripts set up the
memory they look at, so both machines are in the same state there.

The differences the comparison allows are named where they are made: the dot starts
where each machine stopped (VICE in the editor's key wait, c64tc at the program), c64tc
has no cartridge port (no ``cart`` bank), and ``io`` leaves out what c64tc does not
model (see toolchain/monitor/chips.py) and what moves with time.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from click.testing import CliRunner

from tests.conftest import DATA, c64_rom_folder, play_on_terminal
from toolchain.cli import main

MONITOR_DATA = DATA / "monitor"
PROGRAM_START = 0x033C  # the cassette buffer: a lone RTS, out of the scripts' way


def tiny_program(folder: Path) -> Path:
    program = folder / "tiny.prg"
    program.write_bytes(PROGRAM_START.to_bytes(2, "little") + b"\x60")
    return program


def run_script(name: str, folder: Path, *options: str) -> str:
    """c64tc's monitor on the script (then q), run in ``folder`` (where the files it
    names are): the transcript as VICE's is kept (the opening line and the first prompt
    left out)."""
    script = folder / f"{name}.mon"
    script.write_text((MONITOR_DATA / f"{name}.mon").read_text() + "q\n")
    previous = Path.cwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(main, ["monitor", str(tiny_program(folder)), "--monitor-commands",
                                           str(script), *options])
    finally:
        os.chdir(previous)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines(keepends=True)
    assert lines[0].startswith(f".C:{PROGRAM_START:04x}")
    text = "".join(lines[1:])
    start = f"(C:${PROGRAM_START:04x}) "
    assert text.startswith(start)
    return text[len(start) : text.rindex(") q\n") - len("(C:$0000")]


def vice_transcript(name: str) -> str:
    """VICE's transcript, its opening dot as c64tc's (the dot starts where the machine
    stopped: VICE in the screen editor's key wait, c64tc at the program)."""
    text = (MONITOR_DATA / f"{name}.vice.txt").read_text()
    opening = re.search(r"\(C:\$(e5[c-d][0-9a-f])\) ", text)
    if opening is None:
        return text
    return text.replace(f"(C:${opening.group(1)}) ", f"(C:${PROGRAM_START:04x}) ")


def test_fill_hunt_compare_transfer_print_what_vice_prints(tmp_path: Path) -> None:
    assert run_script("memory", tmp_path, "--no-roms") == vice_transcript("memory")


def test_assemble_and_its_mode_print_what_vice_prints(tmp_path: Path) -> None:
    """a with several instructions, assemble mode (the prompt is the next address, an
    empty line ends it), VICE's names and messages, numbers hex unless marked."""
    assert run_script("assemble", tmp_path, "--no-roms") == vice_transcript("assemble")


def test_banks_show_ram_rom_and_io_as_vice_does(tmp_path: Path) -> None:
    """With the C64's ROMs: bank lists the banks and marks the current one (c64tc has no
    cartridge port: no 'cart'); m and d read through the bank; f writes through it."""
    roms = c64_rom_folder()
    vice = vice_transcript("banks").replace("io \tcart \t", "io \t")  # no cartridge port in c64tc
    assert run_script("banks", tmp_path, "--roms", str(roms)) == vice


def test_save_and_load_on_device_0_and_the_disk_in_drive_8(tmp_path: Path) -> None:
    """s/bs/l/bl with VICE's messages; the files written are VICE's, byte for byte; the
    disk in drive 8 takes a file through its DOS and gives it back."""
    runner = CliRunner()
    assert runner.invoke(main, ["d64", "create", str(tmp_path / "disk.d64")]).exit_code == 0
    transcript = run_script("files", tmp_path, "--no-roms", "--disk", "disk.d64")
    assert transcript == vice_transcript("files")
    assert (tmp_path / "saved.prg").read_bytes() == (MONITOR_DATA / "files.saved.prg").read_bytes()
    assert (tmp_path / "raw.bin").read_bytes() == (MONITOR_DATA / "files.raw.bin").read_bytes()


# c64tc leaves out what it does not model (toolchain/monitor/chips.py)
_NOT_MODELLED = [(re.compile(r", RC \d+, Idle: \d+"), ""), (re.compile(r"VC \$.*\n"), ""),
                 (re.compile(r"^(DMA/dis|MC|MCBASE): .*\n", re.M), ""),
                 (re.compile(r", delay: \w+ rclk-+\d+ to_ack: \w+"), ""),
                 (re.compile(r"Timer A SDR: delay \w+\n"), "")]
# what moves with time: the raster ($D011 bit 7, $D012), CIA 1's timer A, the sprite
# pointers VICE fetched last (c64tc shows the bytes the VIC-II would fetch next, and its
# power-on RAM is not VICE's pattern); and the SID's paddle registers, which VICE's
# monitor peeks from reSID (0) where c64tc shows what a read gives ($FF without paddles)
_MOVING = [(re.compile(r"Pointer:( \$\w\w){8}"), "Pointer: ..."),
           (re.compile(r"(>C:d010  \w\w )\w\w \w\w"), r"\1.. .."),
           (re.compile(r"Raster cycle/line: \d+/\d+"), "Raster cycle/line: ../.."),
           (re.compile(r"(>C:dc00  \w\w \w\w \w\w \w\w  )\w\w \w\w"), r"\1.. .."),
           (re.compile(r"Timer A: \w{4} \(latched 4025\)"), "Timer A: .... (latched 4025)"),
           (re.compile(r"(>C:d410  \w\w \w\w \w\w \w\w  \w\w \w\w \w\w \w\w  \w\w )\w\w \w\w"), r"\1.. .."),
           (re.compile(r"^(>C:(?:d0[0-3]0|d410|dc00) .{54}).*$", re.M), r"\1")]  # the text of those rows


def normalised(text: str, patterns: list[tuple[re.Pattern[str], str]]) -> str:
    for pattern, replacement in patterns:
        text = pattern.sub(replacement, text)
    return text


def test_io_shows_the_chips_registers_and_details_in_vice_s_layout(tmp_path: Path) -> None:
    """io: VIC-II, SID, CIA2, CIA1 as VICE lists them; io ADDRESS adds that chip's
    details, the same as VICE's where c64tc models them (mode, colours, memory,
    sprites; ports, timers, time of day, interrupts), nothing made up where not."""
    transcript = normalised(run_script("io", tmp_path, "--no-roms"), _MOVING)
    vice = normalised(normalised(vice_transcript("io"), _NOT_MODELLED), _MOVING)
    assert transcript == vice


def test_the_same_commands_typed_on_a_terminal(tmp_path: Path) -> None:
    """Typed at the prompt on a terminal, the commands print what VICE printed too."""
    script = (MONITOR_DATA / "memory.mon").read_text()
    lines = [line for line in script.splitlines() if not line.startswith(";")]
    status, shown = play_on_terminal(["monitor", str(tiny_program(tmp_path)), "--no-roms"], [*lines, "q"])
    assert status == 0, shown
    vice = [line.rstrip() for line in vice_transcript("memory").splitlines() if line.strip()]
    assert shown[1] == f"(C:${PROGRAM_START:04x}) {vice[0]}"
    assert shown[2 : 1 + len(vice)] == vice[1:]


def test_io_details_of_the_vic_ii_in_other_modes(tmp_path: Path) -> None:
    """io d000 in a multicolour bitmap with sprites, extended colour text and multicolour
    text, the registers written with > as in VICE (its measurement: vic.mon)."""
    transcript = normalised(run_script("vic", tmp_path, "--no-roms"), _MOVING)
    vice = normalised(normalised(vice_transcript("vic"), _NOT_MODELLED), _MOVING)
    assert transcript == vice


def test_io_details_of_a_cia_with_its_timers_and_clock_set(tmp_path: Path) -> None:
    """io dd00 after > writes: the timers' latches, modes and what they count, the TOD
    clock running with its alarm set (hours' PM bit), the interrupt mask (cia.mon)."""
    transcript = normalised(run_script("cia", tmp_path, "--no-roms"), _MOVING)
    vice = normalised(normalised(vice_transcript("cia"), _NOT_MODELLED), _MOVING)
    assert "TOD Alarm: 11:22:33.4 (am)" in vice and "Timer B counts: Timer A undeflows with CNT" in vice
    assert transcript == vice
