"""6502 core speed: (a) a tight loop, (b) the 1296-game Superhirn II verification.

Prints instructions per second for the reference interpreter and the translating
core.  Reference figures on this machine class: py65 runs about 0.7 M instructions/s
and takes about 158 s of CPU for the 1296 games (112.6 M instructions); the goal is
10x py65, at most 15 s.  Run after `c64tc build`: python benchmarks/cpu_speed.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from toolchain.cpu.core import CPU
from toolchain.cpu.translator import TranslatingCPU
from toolchain.disk import Prg
from toolchain.verify.superhirn import verify

# LDX #0 : loop: INX : LDA $2000,X : ADC #1 : STA $2000,X : CPX #0 : BNE loop : DEY : BNE loop-ish
TIGHT_LOOP = bytes([0xA0, 0x00, 0xA2, 0x00, 0xE8, 0xBD, 0x00, 0x20, 0x69, 0x01, 0x9D, 0x00, 0x20,
                    0xE0, 0x00, 0xD0, 0xF3, 0x88, 0xD0, 0xEE, 0x4C, 0x00, 0x10])


def tight_loop(cpu_class: type[CPU]) -> tuple[int, float]:
    memory = bytearray(0x10000)
    memory[0x1000 : 0x1000 + len(TIGHT_LOOP)] = TIGHT_LOOP
    cpu = cpu_class(memory)
    cpu.pc = 0x1000
    start = time.process_time()
    cpu.run(max_cycles=60_000_000)
    return cpu.instructions, time.process_time() - start


def main() -> None:
    for cpu_class in (CPU, TranslatingCPU):
        instructions, seconds = tight_loop(cpu_class)
        print(f"tight loop, {cpu_class.__name__:15}: {instructions / seconds / 1e6:5.2f} M instructions/s "
              f"({instructions:,} in {seconds:.1f} s)")
    prg_path = Path(sys.argv[1] if len(sys.argv) > 1 else "build/superhirn2.prg")
    prg = Prg.from_bytes(prg_path.read_bytes())
    start = time.process_time()
    result = verify(prg)
    seconds = time.process_time() - start
    instructions = sum(game.instructions for game in result.games)
    print(f"Superhirn II, 1296 games: {seconds:.1f} s CPU, {instructions:,} instructions, "
          f"{instructions / seconds / 1e6:.2f} M instructions/s (py65: about 158 s; goal: at most 15 s); "
          f"{'all games agree with the model' if not result.mismatches else 'MISMATCHES'}")


if __name__ == "__main__":
    main()
