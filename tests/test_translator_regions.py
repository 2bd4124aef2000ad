"""Regions: hot code compiled into one function that runs many blocks per call, up
to the caller's cycle horizon; cold code and code patched before every run stay on
the interpreter.  Every run is compared with the reference interpreter."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from toolchain.c64.machine import C64
from toolchain.cpu.core import CPU
from toolchain.cpu.translator import HOT, MAX_BLOCK_CYCLES, TranslatingCPU
from toolchain.disk.prg import Prg


def _pair(code: bytes, hot: int, at: int = 0x1000) -> tuple[CPU, TranslatingCPU]:
    reference_memory = bytearray(0x10000)
    reference_memory[at : at + len(code)] = code
    reference = CPU(reference_memory)
    translated = TranslatingCPU(bytearray(reference_memory), hot=hot)
    reference.pc = translated.pc = at
    return reference, translated


def _state(cpu: CPU) -> tuple[object, ...]:
    return cpu.pc, cpu.a, cpu.x, cpu.y, cpu.sp, cpu.p, cpu.cycles, cpu.instructions, bytes(cpu.memory)


def _agree(code: bytes, cycles: int, hot: int) -> TranslatingCPU:
    reference, translated = _pair(code, hot)
    reference.run(max_cycles=cycles)
    translated.run(max_cycles=cycles)
    assert _state(translated) == _state(reference)
    return translated


# LDX #0 : loop: INX : BNE loop : INY : JMP loop
COUNTING_LOOP = bytes([0xA2, 0x00, 0xE8, 0xD0, 0xFD, 0xC8, 0x4C, 0x02, 0x10])


def test_a_region_runs_to_its_horizon_in_one_call() -> None:
    cpu = _agree(COUNTING_LOOP, 10_000, hot=0)
    region = cpu.blocks[cpu.pc]
    cpu.horizon = cpu.cycles + 5_000
    before = cpu.instructions
    region(cpu)
    assert cpu.horizon <= cpu.cycles < cpu.horizon + MAX_BLOCK_CYCLES
    assert cpu.instructions - before > 2_000  # the loop went round inside the one call


def test_run_block_runs_one_block_of_a_region() -> None:
    cpu = _agree(COUNTING_LOOP, 10_000, hot=0)
    reference = CPU(bytearray(cpu.memory))
    for name in ("pc", "a", "x", "y", "sp", "p", "cycles", "instructions"):
        setattr(reference, name, getattr(cpu, name))
    before = cpu.instructions
    cpu.run_block()
    assert 0 < cpu.instructions - before <= 3  # INX : BNE (and INY : JMP when X wraps)
    while reference.instructions < cpu.instructions:
        reference.step()
    assert _state(cpu) == _state(reference)


@pytest.mark.parametrize("hot", [0, HOT])
def test_a_store_into_another_block_of_the_running_region(hot: int) -> None:
    # LDA #$88 (DEY) : loop: INY : CPY #$40 : BNE skip : STA loop (INY becomes DEY) :
    # skip: INX : JMP loop
    code = bytes([0xA9, 0x88, 0xC8, 0xC0, 0x40, 0xD0, 0x03, 0x8D, 0x02, 0x10, 0xE8, 0x4C, 0x02, 0x10])
    cpu = _agree(code, 60_000, hot)
    assert cpu.memory[0x1002] == 0x88 and cpu.blocks  # patched, and translated code runs on


@pytest.mark.parametrize("hot", [0, HOT])
def test_an_operand_patched_every_pass(hot: int) -> None:
    # LDX #0 : loop: LDA #imm : STA $2000,X : INX : STX loop+1 : BNE loop : JMP $1000
    code = bytes([0xA2, 0x00, 0xA9, 0x00, 0x9D, 0x00, 0x20, 0xE8, 0x8E, 0x03, 0x10, 0xD0, 0xF5,
                  0x4C, 0x00, 0x10])
    cpu = _agree(code, 300_000, hot)
    assert cpu.memory[0x2000:0x2100] == bytes(range(256))
    # the patched instruction is not compiled again and again (its block alone, a few
    # variants, then the interpreter)
    assert len(cpu._compiled) < 40


@pytest.mark.parametrize("hot", [0, HOT])
def test_a_store_into_code_translated_after_the_storing_region(hot: int) -> None:
    """A region's stores to unwatched RAM have no watch check; code translated there
    later takes the region away, so its next store still drops the stale code."""
    # $1000: 120 x NOP (a region too big to be taken over) : INC $3002 : JMP ($0080)
    # $3000: CLC : ADC #n : STA $2000 : JMP ($0082)  (back to $1000; two regions)
    code = bytes([0xEA] * 120 + [0xEE, 0x02, 0x30, 0x6C, 0x80, 0x00])
    reference, translated = _pair(code, hot)
    for memory in (reference.memory, translated.memory):
        memory[0x80:0x84] = bytes([0x00, 0x30, 0x00, 0x10])
        memory[0x3000:0x3009] = bytes([0x18, 0x69, 0x00, 0x8D, 0x00, 0x20, 0x6C, 0x82, 0x00])
    reference.run(max_cycles=50_000)
    translated.run(max_cycles=50_000)
    assert _state(translated) == _state(reference)
    assert HOT < translated.memory[0x3002] < 0xFF  # $3000 ran often enough to be translated


@pytest.mark.parametrize("hot", [0, 1, HOT])
def test_subroutine_calls_in_a_loop(hot: int) -> None:
    # LDX #0 : loop: JSR sum : INX : BNE loop : INY : JMP loop
    # sum ($1010): TXA : CLC : ADC $20 : STA $20 : RTS
    code = bytes([0xA2, 0x00, 0x20, 0x10, 0x10, 0xE8, 0xD0, 0xFA, 0xC8, 0x4C, 0x02, 0x10]) + bytes(4) + bytes(
        [0x8A, 0x18, 0x65, 0x20, 0x85, 0x20, 0x60])
    cpu = _agree(code, 200_000, hot)
    calls = 0

    def counted(function: Callable[[CPU], int]) -> Callable[[CPU], int]:
        def call(cpu: CPU) -> int:
            nonlocal calls
            calls += 1
            return function(cpu)

        return call

    cpu.blocks.update({start: counted(function) for start, function in cpu.blocks.items()})
    cpu.run(max_cycles=50_000)
    assert calls < 10  # the loop and the subroutine it calls run inside one function


def test_cold_code_runs_on_the_interpreter() -> None:
    reference, cpu = _pair(bytes([0xA2, 0x05, 0xCA, 0xD0, 0xFD, 0xEA]), hot=HOT)  # LDX #5 : DEX : BNE *-1
    reference.run(until=0x1005)
    cpu.run(until=0x1005)
    assert _state(cpu) == _state(reference)
    assert not cpu.blocks and not cpu._compiled  # five times round is not hot
    source = cpu.translated_source()  # what the translation would be
    assert "# region $1000 (interpreted" in source and "    # $1002 DEX\n" in source


class _InterruptAt:
    """A CIA stand-in that pulls the IRQ line at one cycle and lets go when its
    interrupt control register is read (as the KERNAL's handler does); it keeps the
    cycle counts it is read at."""

    def __init__(self, at: int) -> None:
        self.at = at
        self.pulled = False
        self.reads: list[int] = []

    def next_event(self, now: int) -> int:
        return self.at

    def advance(self, now: int) -> None:
        if now >= self.at:
            self.pulled = True
            self.at = 1 << 62

    def read(self, register: int, now: int) -> int:
        self.reads.append(now)
        self.pulled = False
        return 0

    def peek(self, register: int, now: int) -> int:
        return 0

    def write(self, register: int, value: int, now: int) -> None:
        pass

    @property
    def irq(self) -> bool:
        return self.pulled


@pytest.mark.parametrize("event", [333, 50_000])
def test_the_machine_takes_an_interrupt_within_a_block_of_its_cycle(event: int) -> None:
    machine = C64()
    chip = _InterruptAt(event)
    io = machine.io
    io.plug(io.vic, io.sid, chip, io.cia2)
    machine.load(Prg(0xC000, bytes([0x58]) + COUNTING_LOOP[:6] + bytes([0x4C, 0x03, 0xC0])))  # CLI, the loop
    machine.sys(0xC000, max_cycles=100_000)
    # the KERNAL's handler acknowledges the interrupt (reads $DC0D) 7 cycles after it is taken
    assert len(chip.reads) == 1 and event <= chip.reads[0] - 7 < event + MAX_BLOCK_CYCLES
