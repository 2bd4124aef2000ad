"""What the KERNAL writes to the chips when the C64 starts (KERNAL 901227-03), for a
machine that does not run the KERNAL's reset code itself: fresh chips (in their reset
state) plus these writes, in this order, read as VICE shows the C64 after power-on
(measured: tests/test_chips_vice.py, the vic-registers case; tests/test_chips_power_on.py
replays the KERNAL's own reset on the 6502 core when the ROM is at hand and checks that
it makes exactly these writes).

* IOINIT ($FDA3): interrupts of both CIAs off, CIA 1 port A all outputs with $7F, port B
  inputs, the timers stopped in one-shot mode, SID volume 0, CIA 2 port A: VIC bank 0
  (%11), bits 0-5 outputs; then the 60 Hz interrupt (below).
* The screen editor's set-up ($E5A0): $D02E down to $D000 from the table at $ECB9 (47
  bytes: its last one is the opcode after the table, so $D02E, sprite 7's colour, gets
  $4C and reads $FC).
* CINT ($FF5B) tells PAL from NTSC by the raster compare line 311 ($137) firing (only a
  PAL VIC-II has line 311) and sets CIA 1's timer A to $4025 on PAL ($4295 on NTSC),
  every 16,422 cycles: the system interrupt, "60 Hz" (59.996 Hz on PAL); CRA gets $11
  (start, continuous, force load; the TOD's 50 Hz bit 7 stays 0, so on a PAL machine's
  50 Hz mains the TOD runs at 5/6 speed).  IOINIT's clock line then goes low
  ($DD00 $17, which reads $97 with nothing on the serial bus).
"""

from __future__ import annotations

# the table at $ECB9 written to $D02E ... $D000 (the loop at $E5AA counts X down from $2F)
_VIC_TABLE = bytes.fromhex(
    "00000000000000000000000000000000"  # sprite positions $D000-$D00F
    "009b37000000080014" "0f000000000000"  # $D010-$D01F: text mode, raster compare 311, $D018 $14
    "0e06010203040001020304050607" "4c"  # colours $D020-$D02E
)

_IOINIT = (
    (0xDC0D, 0x7F), (0xDD0D, 0x7F), (0xDC00, 0x7F), (0xDC0E, 0x08), (0xDD0E, 0x08), (0xDC0F, 0x08),
    (0xDD0F, 0x08), (0xDC03, 0x00), (0xDD03, 0x00), (0xD418, 0x00), (0xDC02, 0xFF), (0xDD00, 0x07),
    (0xDD02, 0x3F),
)
# $FDDD (PAL), $FF6E: the timer, its interrupt on, CRA (bit 7 kept: 0 after a reset);
# $EE8E: the serial clock line low (port A bit 4 set)
_PAL_INTERRUPT = ((0xDC04, 0x25), (0xDC05, 0x40), (0xDC0D, 0x81), (0xDC0E, 0x11), (0xDD00, 0x17))

KERNAL_RESET_WRITES: tuple[tuple[int, int], ...] = (
    _IOINIT + _PAL_INTERRUPT
    + tuple((0xD000 + index, _VIC_TABLE[index]) for index in range(len(_VIC_TABLE) - 1, -1, -1))
    + _PAL_INTERRUPT
)
