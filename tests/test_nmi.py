"""CIA 2's NMIs: the 6510's NMI input is edge-triggered, and CIA 2 holds the line low from
an interrupt until its interrupt control register ($DD0D) is read.  A handler that reads
$DD0D gets an NMI for every timer underflow; one that does not gets the first only (the
line never goes high again: the trick that disables RESTORE)."""

from __future__ import annotations

import pytest

from tests.conftest import c64_roms
from toolchain.asm import assemble
from toolchain.c64.machine import C64
from toolchain.c64.run import Stop
from toolchain.disk.prg import Prg

PERIOD = 1000  # timer A's latch 999: an underflow every 1000 cycles (the datasheet: latch + 1)
NMIS = 100

# Timer A of CIA 2 continuous, its NMI on, the handler through the KERNAL's NMI vector
# ($0318); the main loop returns once the handler has counted NMIS (or, with
# ``acknowledge`` off, runs on).
PROGRAM = """*=$c000
 sei
 lda #<handler
 sta $0318
 lda #>handler
 sta $0319
 lda #0
 sta $fb
 lda #$7f
 sta $dd0d
 lda $dd0d
 lda #<{latch}
 sta $dd04
 lda #>{latch}
 sta $dd05
 lda #$81
 sta $dd0d
 lda #$11
 sta $dd0e
 cli
loop lda $fb
 cmp #{nmis}
 bne loop
 lda #0
 sta $dd0e
 rts
handler pha
 inc $fb
{acknowledge} lda $dd0d
 pla
 rti
"""


def _machine(roms: bool, acknowledge: bool) -> C64:
    source = PROGRAM.format(latch=PERIOD - 1, nmis=NMIS, acknowledge="" if acknowledge else ";")
    program = assemble(source, "nmi.asm")
    found = c64_roms() if roms else None
    if roms and found is None:
        pytest.skip("the C64's ROMs are not in ../shared/roms")
    machine = C64(roms=found)
    machine.load(Prg(program.start, bytes(program.image)))
    return machine


@pytest.mark.parametrize("roms", [False, True], ids=["KERNAL in Python", "ROMs"])
def test_an_nmi_handler_that_reads_dd0d_gets_every_underflow(roms: bool) -> None:
    """Before the fix the machine saw the line go high only when the chips' next event
    came, which was the next underflow: it never saw a new edge, and took one NMI."""
    machine = _machine(roms, acknowledge=True)
    result = machine.sys(0xC000, max_cycles=(NMIS + 5) * PERIOD)
    assert result.stop is Stop.RETURNED, result
    assert machine.memory[0xFB] == NMIS
    # the hundredth NMI comes a hundred periods after the timer starts (the set-up and the
    # handler's few dozen cycles on top)
    assert NMIS * PERIOD <= result.cycles < NMIS * PERIOD + 300


@pytest.mark.parametrize("roms", [False, True], ids=["KERNAL in Python", "ROMs"])
def test_an_nmi_left_unacknowledged_is_taken_once(roms: bool) -> None:
    machine = _machine(roms, acknowledge=False)
    result = machine.sys(0xC000, max_cycles=20 * PERIOD)
    assert result.stop is Stop.CYCLE_LIMIT
    assert machine.memory[0xFB] == 1


@pytest.mark.parametrize("roms", [False, True])
def test_an_irq_no_handler_acknowledges_still_stops_at_the_cycle_limit(roms: bool) -> None:
    """The VIC-II's raster interrupt on with ($0314) at the KERNAL's standard handler,
    which acknowledges only CIA 1: the line stays low and the IRQ comes again after every
    RTI, as on a C64, and the run still ends at its cycle limit (the exact-interrupt run
    loop once went on past it for ever, adding the interrupts' cycles)."""
    if roms and c64_roms() is None:
        pytest.skip("the C64's ROMs are not in ../shared/roms")
    source = "*= $c000\n lda #0\n sta $d012\n lda #1\n sta $d01a\n cli\nloop jmp loop\n"
    program = assemble(source, "storm.asm")
    machine = C64(roms=c64_roms() if roms else None)
    machine.load(Prg(program.start, program.image))
    result = machine.sys(0xC000, max_cycles=300_000)
    assert result.stop is Stop.CYCLE_LIMIT
    assert 300_000 <= result.cycles < 300_000 + 1_000
