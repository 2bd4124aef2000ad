"""``io ADDRESS``: a chip's state as VICE 3.10's monitor details it after the register
dump (viciisc/vicii.c ``vicii_dump``, core/ciacore.c ``ciacore_dump``), line by line
in VICE's words and layout, from what c64tc models.

What c64tc does not model is left out rather than made up: the VIC-II's internal
counters (RC, idle state, VC, VCBASE, VMLI, the last phi-1 fetch) and its sprite DMA
and sprite data counters (MC, MCBASE: c64tc draws no picture while a program runs);
a CIA's interrupt delay pipeline (VICE's ``delay``, ``rclk``, ``to_ack``) and the
shift register's delay.  The sprite pointers are the bytes the VIC-II would fetch
(the last 8 bytes of the screen's kilobyte), where VICE shows the last ones fetched.
"""

from __future__ import annotations

from collections.abc import Callable

from toolchain.c64.chips.cia import Cia
from toolchain.c64.chips.vic import Vic

__all__ = ["cia_details", "vic_details"]

_MODES = ("Standard Text", "Multicolor Text", "Hires Bitmap", "Multicolor Bitmap", "Extended Text",
          "Illegal Text", "Invalid Bitmap 1", "Invalid Bitmap 2")


def vic_details(vic: Vic, now: int, line: int, cycle: int, cia2: object,
                ram: Callable[[int], int]) -> str:
    """The VIC-II's mode, colours, memory and sprites (``ram``: what the VIC-II reads)."""
    regs = vic.registers
    mode = ((regs[0x11] & 0x60) | (regs[0x16] & 0x10)) >> 4
    ecm, bmm, mcm = mode >> 2 & 1, mode >> 1 & 1, mode & 1
    bank = cia2.vic_bank() if isinstance(cia2, Cia) else 0
    out = [f"Raster cycle/line: {cycle}/{line} IRQ: {vic.compare}\n",
           f"Mode: {_MODES[mode]} (ECM/BMM/MCM={ecm}/{bmm}/{mcm})\n"]
    colours = f"Colors: Border: {regs[0x20] & 0xF:x} BG: {regs[0x21] & 0xF:x} "
    if ecm:
        colours += f"BG1: {regs[0x22] & 0xF:x} BG2: {regs[0x23] & 0xF:x} BG3: {regs[0x24] & 0xF:x}"
    elif mcm and not bmm:
        colours += f"MC1: {regs[0x22] & 0xF:x} MC2: {regs[0x23] & 0xF:x}"
    out.append(colours + "\n")
    out.append(f"Scroll X/Y: {regs[0x16] & 7}/{regs[0x11] & 7}, "
               f"{38 + ((regs[0x16] >> 2) & 2)}x{24 + ((regs[0x11] >> 3) & 1)}\n")
    video = (regs[0x18] >> 4) * 0x400 + bank
    if bmm:
        where = ((regs[0x18] >> 3) & 1) * 0x2000 + bank
        out.append(f"Video ${video:04x}, Bitmap ${where:04x} ({_fetched_from(where)})\n")
    else:
        where = ((regs[0x18] >> 1) & 7) * 0x800 + bank
        out.append(f"Video ${video:04x}, Charset ${where:04x} ({_fetched_from(where)})\n")
    out.append("\nSprites: S.0 S.1 S.2 S.3 S.4 S.5 S.6 S.7")
    out.append("\nEnabled:" + "".join(f"{'yes' if regs[0x15] >> i & 1 else 'no':>4}" for i in range(8)))
    out.append("\nPointer:" + "".join(f" ${ram((video + 0x3F8 + i) & 0xFFFF):02x}" for i in range(8)))
    out.append("\nX-Pos:  " + "".join(f"${regs[2 * i] | (regs[0x10] >> i & 1) << 8:03x}" for i in range(8)))
    out.append("\nY-Pos:  " + "".join(f"{regs[1 + 2 * i]:4d}" for i in range(8)))
    # Y expansion: VICE shows 'Y' while the sprite's expansion flip-flop is set, as it
    # is outside a sprite's lines
    out.append("\nX/Y-Exp:" + "".join(f" {_bit(regs[0x1D], i, 'X', ' ')}/{_bit(regs[0x17], i, 'Y', ' ')}"
                                      for i in range(8)))
    out.append("\nPri./MC:" + "".join(f" {_bit(regs[0x1B], i, 'b', 's')}/{_bit(regs[0x1C], i, '*', ' ')}"
                                      for i in range(8)))
    out.append("\nColor:  " + "".join(f"   {regs[0x27 + i] & 0xF:x}" for i in range(8)))
    if regs[0x1C]:
        out.append(f"\nMulti Color 1: {regs[0x25] & 0xF:x}  Multi Color 2: {regs[0x26] & 0xF:x}")
    out.append("\n")
    return "".join(out)


def _fetched_from(address: int) -> str:
    """Where the VIC-II's character fetches come from: the character ROM at $1000-$1FFF
    of banks 0 and 2 (VICE's fetch_phi1_type), else RAM."""
    return "CharROM" if address & 0x7000 == 0x1000 else "RAM"


def cia_details(cia: Cia, now: int) -> str:
    """A CIA's interrupts, ports, timers, time-of-day clock and shift register."""
    def peek(register: int) -> int:
        return cia.peek(register, now)

    cra, crb, mask = peek(0x0E), peek(0x0F), cia.mask
    out = [f"ICR: {peek(0x0D):02x} (mask: {mask:02x})  CTRLA: {cra:02x}  CTRLB: {crb:02x}\n",
           f"\nPort A: {peek(0x00):02x}  DDR: {peek(0x02):02x}\n",
           f"Port B: {peek(0x01):02x}  DDR: {peek(0x03):02x}\n",
           f"\nTimer A IRQ: {_on(mask & 1)}  running: {_yes(cra & 1)}  mode: "
           f"{'one-shot' if cra & 8 else 'continuous'}\n",
           f"Timer A counts: {'CNT transitions' if cra & 0x20 else 'System clock'}  PB6 output: "
           f"{_yes(cra & 2)} ({'Toggle' if cra & 4 else 'Pulse'})\n",
           f"Timer A: {peek(0x04) | peek(0x05) << 8:04x} (latched {cia.timer_a.latch:04x})\n",
           f"Timer B IRQ: {_on(mask & 2)}  running: {_yes(crb & 1)}  mode: "
           f"{'one-shot' if crb & 8 else 'continuous'}\n"]
    # VICE's spelling ("undeflows")
    counts = ("System clock", "CNT transitions", "Timer A undeflows",
              "Timer A undeflows with CNT")[crb >> 5 & 3]
    toggle = "Toggle" if crb & 4 else "Pulse"
    out.append(f"Timer B counts: {counts}  PB7 output: {_yes(crb & 2)} ({toggle})\n")
    out.append(f"Timer B: {peek(0x06) | peek(0x07) << 8:04x} (latched {cia.timer_b.latch:04x})\n")
    out.append(f"\nTOD IRQ: {_on(mask & 4)}  latched: {_yes(cia.tod_latch is not None)}  running: "
               f"{_yes(not cia.tod_stopped)}  mode: {'50' if cra & 0x80 else '60'}Hz\n")
    hours = peek(0x0B)
    out.append(f"TOD Time:  {hours & 0x7F:02x}:{peek(0x0A):02x}:{peek(0x09):02x}.{peek(0x08):x} "
               f"({'pm' if hours & 0x80 else 'am'})\n")
    alarm = cia.alarm  # tenths, seconds, minutes, hours
    out.append(f"TOD Alarm: {alarm[3] & 0x7F:02x}:{alarm[2]:02x}:{alarm[1]:02x}.{alarm[0]:x} "
               f"({'pm' if alarm[3] & 0x80 else 'am'})\n")
    out.append(f"\nShift Register IRQ: {_on(mask & 8)}  mode: {'output' if cra & 0x40 else 'input'}\n")
    out.append(f"Shift Register Data Buffer: {peek(0x0C):02x}\n")
    out.append(f"\nFLAG1 IRQ: {_on(mask & 0x10)}\n")
    return "".join(out)


def _bit(value: int, index: int, set_text: str, clear_text: str) -> str:
    return set_text if value >> index & 1 else clear_text


def _on(bit: int) -> str:
    return "on" if bit else "off"


def _yes(bit: object) -> str:
    return "yes" if bit else "no"
