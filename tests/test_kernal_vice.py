"""The KERNAL's jump table as machine code calls it, on c64tc's own models (no ROMs)
against VICE 3.10 with the original ROMs (KERNAL 901227-03).

Each program of tests/data/machine/kernal (``NAME.asm``, the Profi-Ass dialect) is the
body of a PRG that starts with the BASIC line ``10 SYS2061``: the code after the line
clears $C000-$C0FF, calls ``main`` and returns to BASIC.  ``jsr save`` stores A, X, Y and
the status register after a call (four bytes a call from $C000 on); programs store what
else they observe from $C080 on.  On VICE the PRG is loaded from a disk and started with
``?"{clr}";:RUN`` (scripts/corpus-vs-vice's way), and at READY. the screen codes, colour
RAM, the cursor and $C000-$C0FF were kept in ``NAME.vice.json``.  c64tc runs the same
PRG (loaded from the same kind of disk) without ROMs and must show all of it.  With
VICE's x64sc the slow test measures again (``python tests/test_kernal_vice.py NAME``
rewrites the data).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.conftest import c64_roms
from tests.test_corpus_screens import load_tool, x64sc
from toolchain.asm.dialects import assemble
from toolchain.c64.machine import C64
from toolchain.c64.memory import COLOUR_RAM
from toolchain.c64.outcome import Stop
from toolchain.c64.run import DEFAULT_RUN_CYCLES, Keyboard, Session, program_from_prg, run_program
from toolchain.disk.prg import Prg

tool = load_tool()
DATA = Path(__file__).resolve().parent / "data" / "machine" / "kernal"
PROGRAMS = sorted(path.stem for path in DATA.glob("*.asm"))

# 10 SYS2061, then: $C000-$C0FF cleared, ($FB) pointing at $C000 for ``save``, main called
PROLOGUE = """*= $0801
 .byt $0b,$08,$0a,$00,$9e,$32,$30,$36,$31,0,0,0
 ldx #0
 lda #0
clear sta $c000,x
 inx
 bne clear
 sta $fb
 lda #$c0
 sta $fc
 jsr main
 rts
"""
# A, X, Y and P (as PHP pushes it) to ($FB), then ($FB) four bytes on; the registers kept
EPILOGUE = """
save php
 sta savea
 stx savex
 sty savey
 pla
 sta savep
 pha
 tya
 pha
 ldy #0
 lda savea
 sta ($fb),y
 iny
 lda savex
 sta ($fb),y
 iny
 lda savey
 sta ($fb),y
 iny
 lda savep
 sta ($fb),y
 lda $fb
 clc
 adc #4
 sta $fb
 pla
 tay
 lda savea
 plp
 rts
savea .byt 0
savex .byt 0
savey .byt 0
savep .byt 0
"""


def prg_of(name: str) -> bytes:
    path = DATA / f"{name}.asm"
    program = assemble(PROLOGUE + path.read_text(encoding="utf-8") + EPILOGUE, str(path))
    return bytes([program.start & 0xFF, program.start >> 8]) + program.image


def on_c64tc(prg: bytes, raster_shift: int = 0, hot: int | None = None) -> dict:
    """The program's end state on c64tc; ``raster_shift``: the VIC-II's frame begins that
    many cycles later against the CPU's clock (see RASTER_PHASED); ``hot``: the
    translating core's (0: code is translated before it first runs)."""
    machine = C64(roms=None)
    if hot is not None:
        machine.cpu.hot = hot
    machine.io.vic.cycle_offset -= raster_shift  # type: ignore[attr-defined]
    tool.attach_devices(machine, tool.Devices(), prg)
    result, machine = run_program(program_from_prg(Prg.from_bytes(prg), "p"), Keyboard(""),
                                  machine=machine, max_cycles=DEFAULT_RUN_CYCLES, max_statements=100_000)
    memory = machine.memory
    return {"screen": machine.screen.codes().hex(),
            "colours": bytes(value & 0x0F for value in memory[COLOUR_RAM : COLOUR_RAM + 1000]).hex(),
            "cursor": [memory[214], memory[211]], "c000": bytes(memory[0xC000:0xC100]).hex()}


def on_vice(emulator: Path, prg: bytes) -> dict:
    kept: dict[str, bytes] = {}
    capture = tool._capture

    def capture_c000(machine, stop, cycles, memory):  # type: ignore[no-untyped-def]
        kept["c000"] = machine.read(0xC000, 0xC0FF, "ram")
        return capture(machine, stop, cycles, memory)

    tool._capture = capture_c000
    try:
        screen = tool.measure_on_vice(emulator, prg, "", "wait", 20_000_000, [], seconds=120)
    finally:
        tool._capture = capture
    assert screen.stop == "ready", screen.stop
    return {"screen": screen.codes.hex(), "colours": screen.colours.hex(), "cursor": list(screen.cursor),
            "c000": kept["c000"].hex()}


def stored(name: str) -> dict:
    return json.loads((DATA / f"{name}.vice.json").read_text(encoding="utf-8"))


def differences(theirs: dict, ours: dict) -> list[str]:
    found = []
    for key in ("screen", "colours", "c000"):
        a, b = bytes.fromhex(theirs[key]), bytes.fromhex(ours[key])
        base = 0xC000 if key == "c000" else 0
        found += [f"{key} {base + index:#06x}: VICE ${a[index]:02X}, c64tc ${b[index]:02X}"
                  for index in range(len(a)) if a[index] != b[index]]
    if theirs["cursor"] != ours["cursor"]:
        found.append(f"cursor (row, column): VICE {theirs['cursor']}, c64tc {ours['cursor']}")
    return found


# Programs that wait for a raster line with a loop of 7 cycles (LDA $D012 / BNE): where
# in that loop the line comes depends on every cycle since power-on (the disk's LOAD,
# BASIC's RUN), so the program's time against the raster is known to 7 cycles only, and
# what it measures from there (where the raster interrupts come) differs with it: a start
# 2 cycles off leaves 31 of irq-raster-where's 64 places as VICE has them.  For these the
# VIC-II's frame is tried at each shift within such a loop against the CPU's clock: one
# must give VICE's state (the places a wrong model gives match at none).  Such a match
# does not pin the interrupt's delay (a shift makes up for it): irq-raster-exact does.
RASTER_PHASED = {"irq-raster-where"}
RASTER_SHIFTS = range(7)


# What c64tc does not yet do as a 6510 does, each a strict expected failure (it fails the
# run the day it matches): the name, and why
KNOWN_DIFFERENT: dict[str, str] = {}


def _program(name: str) -> object:
    reason = KNOWN_DIFFERENT.get(name)
    return pytest.param(name, marks=[pytest.mark.xfail(strict=True, reason=reason)] if reason else [])


@pytest.mark.parametrize("name", [_program(name) for name in PROGRAMS])
def test_c64tc_ends_as_vice_with_the_roms(name: str) -> None:
    shifts = RASTER_SHIFTS if name in RASTER_PHASED else range(1)
    found = [differences(stored(name), on_c64tc(prg_of(name), shift)) for shift in shifts]
    assert any(not differ for differ in found), "\n".join(min(found, key=len)[:40])


def test_a_start_synchronised_with_the_raster_holds_at_every_phase() -> None:
    """irq-raster-exact's reads of the raster make up for where its wait ended: it ends
    the same at every shift of the frame against the CPU's clock (unlike
    irq-raster-where), so its match with VICE pins the raster interrupt's delay."""
    ends = {on_c64tc(prg_of("irq-raster-exact"), shift)["c000"] for shift in range(7)}
    assert len(ends) == 1
    assert {on_c64tc(prg_of("irq-raster-where"), shift)["c000"] for shift in range(7)} != ends
    assert len({on_c64tc(prg_of("irq-raster-where"), shift)["c000"] for shift in range(7)}) == 7


# Programs whose straight code runs once, on the interpreter: they also run with every
# block translated before it runs, so that both cores access the chips in the cycles a
# 6510 does
BOTH_CORES = ("timer-reads", "timer-writes")


@pytest.mark.parametrize("name", BOTH_CORES)
def test_the_translated_code_accesses_the_chips_in_the_same_cycles(name: str) -> None:
    assert differences(stored(name), on_c64tc(prg_of(name), hot=0)) == []


@pytest.mark.parametrize("way", ["roms", "traced"])
def test_an_interrupt_pending_at_rti_comes_before_the_next_instruction(way: str) -> None:
    """irq-rti-pending with the KERNAL's own code on the CPU (its RTI translated or
    interpreted), and traced (every instruction on the interpreter): the second entry of
    each pair comes where the first did, as VICE shows."""
    program = program_from_prg(Prg.from_bytes(prg_of("irq-rti-pending")), "p")
    if way == "roms":
        session = Session(program, roms=c64_roms(), boot=True)
        result = session.run(Keyboard("run|"), max_cycles=100_000_000)
        memory = session.machine.memory
    else:
        result, machine = run_program(program, Keyboard(""), max_cycles=DEFAULT_RUN_CYCLES,
                                      trace=lambda cpu: None)
        memory = machine.memory
    assert result.stop is Stop.END, result.message
    assert bytes(memory[0xC080:0xC100]) == bytes.fromhex(stored("irq-rti-pending")["c000"])[0x80:]


@pytest.mark.slow
@pytest.mark.parametrize("name", PROGRAMS)
def test_vice_shows_the_stored_state_again(name: str) -> None:
    measured = on_vice(x64sc(), prg_of(name))
    assert {key: measured[key] for key in ("screen", "colours", "cursor", "c000")} == \
        {key: stored(name)[key] for key in ("screen", "colours", "cursor", "c000")}


def main(names: list[str]) -> None:
    """Measure the programs on VICE again and store what it showed."""
    import shutil

    found = shutil.which("x64sc")
    assert found, "x64sc is not on the PATH"
    for name in names or PROGRAMS:
        facts = on_vice(Path(found), prg_of(name)) | {"vice": "3.10"}
        (DATA / f"{name}.vice.json").write_text(json.dumps(facts, indent=1) + "\n", encoding="utf-8")
        print(name, "measured")


if __name__ == "__main__":
    main(sys.argv[1:])
