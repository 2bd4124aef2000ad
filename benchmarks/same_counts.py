"""The same work before and after a change to the CPU, the chips or the run loop: the
instructions and cycles of all 1296 Superhirn II games and of chip-heavy programs,
with what they leave behind (registers, memory, every chip register as a read would
see it), written to a JSON file by one checkout and compared by another.

    git stash / git checkout main ...
    python benchmarks/same_counts.py --save /tmp/before.json
    git checkout my-branch ...
    python benchmarks/same_counts.py --compare /tmp/before.json

Not a test: the counts are those of c64tc itself, a reference only for c64tc after a
change that must not change them (issue 25: the chip fast path).  The programs: the
chip loops of benchmarks/chip_programs.py (the KERNAL's interrupt on), the same with
the C64's ROMs when they are found (the KERNAL's own interrupt handler then reads the
CIA and scans the keyboard), programs that take raster and timer interrupts of their
own, and the BASIC loops.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks.chip_programs import CHIP_LOOPS, RAM_LOOP, START, VICE_SET, Loop, basic_loops  # noqa: E402
from toolchain.c64.machine import C64  # noqa: E402
from toolchain.c64.roms import RomSet, find_roms  # noqa: E402
from toolchain.c64.run import Session, program_from_prg  # noqa: E402
from toolchain.disk.prg import Prg  # noqa: E402

SHARED_ROMS = REPO.parent / "shared" / "roms"
CHIP_REGISTERS = (*range(0xD000, 0xD02F), *range(0xD400, 0xD41D), *range(0xDC00, 0xDC10),
                  *range(0xDD00, 0xDD10))

# Programs with interrupt handlers of their own (at $0314): a raster interrupt every frame
# that changes the border, and CIA 1's timer A at its fastest useful rate.
RASTER_IRQ = Loop("raster-irq", "a raster interrupt each frame, set up before CLI", """*=$c000
 sei
 lda #$7f
 sta $dc0d
 lda $dc0d
 lda #<irq
 sta $0314
 lda #>irq
 sta $0315
 lda #$1b
 sta $d011
 lda #$80
 sta $d012
 lda #1
 sta $d01a
 cli
loop inc $fb
 lda $d012
 sta $fc
 jmp loop
irq inc $d020
 inc $fd
 lda #1
 sta $d019
 jmp $ea81
""")
TIMER_IRQ = Loop("timer-irq", "CIA 1 timer A interrupts every 1,000 cycles", """*=$c000
 sei
 lda #<irq
 sta $0314
 lda #>irq
 sta $0315
 lda #<999
 sta $dc04
 lda #>999
 sta $dc05
 lda #$11
 sta $dc0e
 cli
loop inc $fb
 lda $dc04
 sta $fc
 jmp loop
irq inc $fd
 lda $dc0d
 jmp $ea81
""")
LATE_RASTER_IRQ = Loop("late-raster-irq", "the raster interrupt enabled long after CIA 1's is off", """*=$c000
 sei
 lda #$7f
 sta $dc0d
 lda $dc0d
 lda #<irq
 sta $0314
 lda #>irq
 sta $0315
 cli
 ldy #100
w1 ldx #0
w2 dex
 bne w2
 dey
 bne w1
 lda #$1b
 sta $d011
 lda #$80
 sta $d012
 lda #1
 sta $d01a
loop inc $fb
 jmp loop
irq inc $fc
 lda #1
 sta $d019
 jmp $ea81
""")
PROGRAMS = (RAM_LOOP, *CHIP_LOOPS, *VICE_SET[:2], RASTER_IRQ, TIMER_IRQ, LATE_RASTER_IRQ)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def machine_state(machine: C64) -> dict[str, Any]:
    cpu = machine.cpu
    chips = bytes(machine.io.peek(address, cpu.cycles) for address in CHIP_REGISTERS)
    return {"registers": [cpu.pc, cpu.a, cpu.x, cpu.y, cpu.sp, cpu.p],
            "memory": digest(bytes(machine.memory)), "chips": digest(chips), "irq": machine.io.irq}


def loop_counts(loop: Loop, cycles: int, roms: RomSet | None) -> dict[str, Any]:
    machine = C64(roms=roms)
    start, image = loop.image()
    machine.load(Prg(start, image))
    result = machine.sys(START, max_cycles=cycles)
    return {"stop": result.stop.name, "instructions": result.instructions, "cycles": result.cycles,
            **machine_state(machine)}


def game_counts() -> Iterator[tuple[str, list[Any]]]:
    from toolchain.verify.superhirn import all_secrets, play, superhirn_program

    prg_path = REPO / "build" / "superhirn2.prg"
    if not prg_path.is_file():
        sys.exit(f"{prg_path} is not there: build it with `python -m toolchain build`")
    session = Session(superhirn_program(Prg.from_bytes(prg_path.read_bytes())))
    for secret in all_secrets():
        game = play(session, secret)
        yield secret, [game.guesses, game.outcome, game.instructions, game.cycles]


def counts(cycles: int, passes: int) -> dict[str, Any]:
    roms = find_roms(SHARED_ROMS) if SHARED_ROMS.is_dir() else find_roms()
    found: dict[str, Any] = {}
    for loop in PROGRAMS:
        found[f"code {loop.name}"] = loop_counts(loop, cycles, None)
        if roms is not None:
            found[f"code {loop.name} (ROMs)"] = loop_counts(loop, cycles, roms)
        print(f"{loop.name}: {found[f'code {loop.name}']}", file=sys.stderr)
    for name, basic in basic_loops(passes).items():
        session = Session(program_from_prg(basic.program(), name))
        result, machine = session.run(), session.machine
        # BASIC's shortcuts leave the machine's clock behind where nothing can tell: the
        # state compared is the one after it caught up (the interrupts nobody saw taken)
        assert session.runtime is not None
        session.runtime.now()
        found[f"basic {name}"] = {"stop": result.stop.name, "statements": result.statements,
                                  "clock": machine.cpu.cycles, **machine_state(machine)}
    found["games"] = dict(game_counts())
    return found


def compare(before: dict[str, Any], after: dict[str, Any]) -> int:
    differ = 0
    for key in sorted(set(before) | set(after)):
        if key == "games":
            games_before, games_after = before.get(key, {}), after.get(key, {})
            changed = [secret for secret in games_before if games_before[secret] != games_after.get(secret)]
            print(f"games: {len(games_before)} before, {len(games_after)} after, {len(changed)} differ")
            for secret in changed[:10]:
                print(f"  {secret}: before {games_before[secret]}, after {games_after.get(secret)}")
            differ += len(changed) + abs(len(games_before) - len(games_after))
        elif before.get(key) != after.get(key):
            differ += 1
            print(f"{key}: DIFFERS\n  before {before.get(key)}\n  after  {after.get(key)}")
        else:
            print(f"{key}: same ({after[key].get('instructions', after[key].get('statements'))} "
                  f"instructions/statements, {after[key].get('cycles', after[key].get('clock'))} cycles)")
    print("all the same" if not differ else f"{differ} differ")
    return differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--save", type=Path, help="write the counts to this JSON file")
    what.add_argument("--compare", type=Path, help="compare the counts with this JSON file")
    parser.add_argument("--cycles", type=int, default=3_000_000, help="cycles each machine-code program runs")
    parser.add_argument("--passes", type=int, default=3_000, help="passes of each BASIC loop")
    options = parser.parse_args()
    found = counts(options.cycles, options.passes)
    if options.save:
        options.save.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
        print(f"saved to {options.save}")
    else:
        sys.exit(1 if compare(json.loads(options.compare.read_text()), found) else 0)


if __name__ == "__main__":
    main()
