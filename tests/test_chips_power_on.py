"""The chips under the real KERNAL: its reset code runs on the 6502 core against c64tc's
chips (the ROMs of ../shared/roms: ``tests.conftest.c64_roms``), and must leave
them as replaying :data:`KERNAL_RESET_WRITES` does, find a PAL machine through the
raster compare, and take keys typed into the matrix through its own keyboard scan."""

from __future__ import annotations

import pytest

from tests.conftest import c64_roms
from toolchain.c64.chips.cia import Cia, SerialBusAndUserPort
from toolchain.c64.chips.keyboard import ControlPorts, KeyMatrix
from toolchain.c64.chips.power_on import KERNAL_RESET_WRITES
from toolchain.c64.chips.sid import Sid
from toolchain.c64.chips.vic import Vic
from toolchain.c64.screen import screen_codes_to_text
from toolchain.cpu.core import CPU
from toolchain.cpu.opcodes import OPCODES

pytestmark = pytest.mark.vice_roms  # the ROM comparisons look for the ROMs

PAL_FLAG = 0x02A6  # the KERNAL's PAL/NTSC flag (1: PAL)
SCREEN_PAGE = 0x0288  # HIBASE: the page the screen editor clears
IOINIT, CINT = 0xFDA3, 0xFF5B
RETURN_HERE = 0x02FF  # a free RAM byte the called routine's RTS comes back to
BASIC_COLD_START = 0xE394
EDITOR_WAITS = 0xE5CD  # the screen editor's loop while the keyboard buffer is empty
_LAST_CYCLE = bytes(OPCODES[code].cycles - 1 if code in OPCODES else 0 for code in range(256))


class Chips:
    def __init__(self, keyboard: KeyMatrix | None = None) -> None:
        self.vic = Vic()
        self.sid = Sid()
        self.cia1 = Cia(ControlPorts(keyboard), "irq", name="CIA 1")
        self.cia2 = Cia(SerialBusAndUserPort(), "nmi", name="CIA 2")

    def at(self, address: int) -> tuple[Vic | Sid | Cia | None, int]:
        if 0xD000 <= address < 0xD400:
            return self.vic, address & 0x3F
        if 0xD400 <= address < 0xD800:
            return self.sid, address & 0x1F
        if 0xDC00 <= address < 0xDD00:
            return self.cia1, address & 0x0F
        if 0xDD00 <= address < 0xDE00:
            return self.cia2, address & 0x0F
        return None, 0

    def registers(self, now: int) -> dict[int, int]:
        """Every register as peek shows it, except the timers' counters (they run)."""
        shown = {}
        for base, count, chip in ((0xD000, 0x2F, self.vic), (0xD400, 0x20, self.sid), (0xDC00, 16, self.cia1),
                                  (0xDD00, 16, self.cia2)):
            for register in range(count):
                running = isinstance(chip, Cia) and 4 <= register <= 7
                if running or base == 0xD000 and register in (0x11, 0x12):
                    continue
                shown[base + register] = chip.peek(register, now)
        return shown


class C64:
    """RAM, the ROMs where the processor port's $37/$E7 shows them, the chips at their
    addresses, the IRQ line from CIA 1 and the VIC-II."""

    def __init__(self, kernal: bytes, basic: bytes, keyboard: KeyMatrix | None = None) -> None:
        self.ram = bytearray(0x10000)
        self.kernal, self.basic = kernal, basic
        self.chips = Chips(keyboard)
        self.cpu = CPU(self)
        self.cycle = 0
        self.writes: list[tuple[int, int]] = []  # to the chips, in order

    def __getitem__(self, address: int) -> int:
        if address >= 0xE000:
            return self.kernal[address - 0xE000]
        if 0xA000 <= address < 0xC000:
            return self.basic[address - 0xA000]
        if 0xD000 <= address < 0xE000:
            chip, register = self.chips.at(address)
            if chip is not None:
                return chip.read(register, self.cycle)
        return self.ram[address]

    def __setitem__(self, address: int, value: int) -> None:
        if 0xD000 <= address < 0xE000:
            chip, register = self.chips.at(address)
            if chip is not None:
                self.writes.append((address, value))
                chip.write(register, value, self.cycle)
                return
        self.ram[address] = value

    def run(self, cycles: int, until: int | None = None) -> None:
        """Run ``cycles`` (from the reset the first time), or until the PC is ``until``."""
        cpu, chips = self.cpu, self.chips
        if cpu.cycles == 0 and until != RETURN_HERE:
            cpu.reset()
        end = cpu.cycles + cycles
        event = 0
        while cpu.pc != until:
            self.cycle = cpu.cycles + _LAST_CYCLE[self.ram[cpu.pc] if cpu.pc < 0xA000 else self[cpu.pc]]
            cpu.step()
            if cpu.cycles >= event:
                chips.cia1.advance(cpu.cycles)
                chips.vic.advance(cpu.cycles)
                if (chips.cia1.irq or chips.vic.irq) and not cpu.i:
                    cpu.irq()
                event = min(chips.cia1.next_event(cpu.cycles), chips.vic.next_event(cpu.cycles),
                            cpu.cycles + 64)  # the line stays low: look again soon
            if cpu.cycles >= end:
                assert until is None, f"the KERNAL did not reach ${until:04X} (at ${cpu.pc:04X})"
                return

    def call(self, routine: int) -> None:
        """JSR ``routine`` from RETURN_HERE and run until it returns."""
        cpu = self.cpu
        cpu.sp = 0xFF
        cpu.push((RETURN_HERE - 1) >> 8)
        cpu.push((RETURN_HERE - 1) & 0xFF)
        cpu.pc, cpu.i = routine, 1
        self.run(1_000_000, until=RETURN_HERE)

    def screen(self) -> list[str]:
        codes = bytes(self.ram[0x0400:0x07E8])
        return [screen_codes_to_text(codes[row * 40 : row * 40 + 40]).rstrip() for row in range(25)]


def _roms() -> tuple[bytes, bytes]:
    roms = c64_roms()
    return roms.kernal, roms.basic


def test_the_kernals_reset_leaves_the_chips_as_the_replayed_writes_do() -> None:
    """IOINIT and CINT, the two parts of the reset that touch the chips (RAMTAS and RESTOR
    between them only fill RAM: the screen page they set is set here)."""
    kernal, basic = _roms()
    c64 = C64(kernal, basic)
    c64.ram[SCREEN_PAGE] = 0x04
    for routine in (IOINIT, CINT):
        c64.call(routine)
    assert c64.ram[PAL_FLAG] == 1, "the raster compare at line 311 must tell the KERNAL it is a PAL C64"
    replayed = Chips()
    for address, value in KERNAL_RESET_WRITES:
        chip, register = replayed.at(address)
        assert chip is not None
        chip.write(register, value, 0)
    now = c64.cpu.cycles
    assert c64.chips.registers(now) == replayed.registers(now)
    assert {address for address, _ in c64.writes} == {address for address, _ in KERNAL_RESET_WRITES}
    # the system interrupt: CIA 1 timer A from $4025 (16,422 cycles), continuous, its interrupt on
    cia1 = c64.chips.cia1
    assert (cia1.timer_a.latch, cia1.cra, cia1.mask) == (0x4025, 0x11, 0x01)
    first = cia1.timer_a.underflow_after(now)
    assert cia1.timer_a.underflow_after(first) - first == 16_422


@pytest.mark.slow
def test_keys_typed_into_the_matrix_reach_basic_through_the_kernals_scan() -> None:
    kernal, basic = _roms()
    typed = list(b'PRINT "X";6*7\r')  # the quotes need SHIFT (shift+2)
    keyboard = KeyMatrix(lambda: typed.pop(0) if typed else None)
    c64 = C64(kernal, basic, keyboard)
    c64.run(4_000_000, until=EDITOR_WAITS)  # the power-on screen with READY.
    assert "READY." in c64.screen()
    for _ in range(30):  # a key takes 80,000 cycles: held, then up
        c64.run(100_000)
        if "X 42" in c64.screen():
            break
    screen = c64.screen()
    assert 'PRINT "X";6*7' in screen and "X 42" in screen, "\n".join(screen)
    assert bytes(keyboard.typed) == b'PRINT "X";6*7\r'
