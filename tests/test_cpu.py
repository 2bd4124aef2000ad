"""The 6502 core: conformance suites from ../shared and focused checks per opcode group,
with expected values taken from the MCS6500 manual and the NMOS decimal-mode notes."""

from __future__ import annotations

import pytest

from tests.conftest import shared_path
from toolchain.cpu.core import CPU, CpuHalted
from toolchain.cpu.disassembler import disassemble
from toolchain.cpu.translator import TranslatingCPU


def machine(code: bytes, at: int = 0x0200, **registers: int) -> CPU:
    memory = bytearray(0x10000)
    memory[at : at + len(code)] = code
    cpu = CPU(memory)
    cpu.pc = at
    for name, value in registers.items():
        setattr(cpu, name, value)
    return cpu


def run(code: bytes, steps: int = 1, **registers: int) -> CPU:
    cpu = machine(code, **registers)
    for _ in range(steps):
        cpu.step()
    return cpu


# -- conformance ---------------------------------------------------------------------------

@pytest.mark.slow  # 30 million instructions on the interpreter; the translating core runs it by default
def test_klaus_dormann_functional_test() -> None:
    memory = bytearray(shared_path("cputests", "6502_functional_test.bin").read_bytes())
    cpu = CPU(memory)
    cpu.pc = 0x0400
    while True:
        pc = cpu.pc
        cpu.step()
        if cpu.pc == pc:  # the test ends in a jump to itself
            break
    assert cpu.pc == 0x3469, f"trapped at ${cpu.pc:04X}, test case ${memory[0x200]:02X}"
    assert cpu.cycles == 96_241_367  # the figure given for a correct NMOS core


@pytest.mark.parametrize("core", [pytest.param(CPU, marks=pytest.mark.slow), TranslatingCPU],
                         ids=["interpreter", "translator"])
def test_bruce_clark_decimal_test(core: type[CPU]) -> None:
    memory = bytearray(0x10000)
    binary = shared_path("cputests", "6502_decimal_test.bin").read_bytes()
    memory[0x200 : 0x200 + len(binary)] = binary
    cpu = core(memory)
    cpu.pc = 0x0200
    cpu.run(until=0x024B)
    assert cpu.pc == 0x024B and memory[0x0B] == 0  # DONE reached, ERROR clear


# -- arithmetic ------------------------------------------------------------------------------

@pytest.mark.parametrize("a, operand, carry, result, n, v, z, c", [
    (0x50, 0x10, 0, 0x60, 0, 0, 0, 0),
    (0x50, 0x50, 0, 0xA0, 1, 1, 0, 0),  # two positives give a negative: overflow
    (0xD0, 0x90, 0, 0x60, 0, 1, 0, 1),  # two negatives give a positive: overflow, carry
    (0xFF, 0x01, 0, 0x00, 0, 0, 1, 1),
    (0xFF, 0x00, 1, 0x00, 0, 0, 1, 1),  # carry in
])
def test_adc_binary(a: int, operand: int, carry: int, result: int, n: int, v: int, z: int, c: int) -> None:
    cpu = run(bytes([0x69, operand]), a=a, c=carry)
    assert (cpu.a, cpu.n, cpu.v, cpu.z, cpu.c) == (result, n, v, z, c)


@pytest.mark.parametrize("a, operand, carry, result, v, c", [
    (0x50, 0xF0, 1, 0x60, 0, 0),  # 80 - (-16) = 96, a borrow: C clear
    (0x50, 0xB0, 1, 0xA0, 1, 0),  # 80 - (-80) = 160: overflow
    (0xD0, 0x70, 1, 0x60, 1, 1),  # -48 - 112 = -160: overflow
    (0x05, 0x03, 0, 0x01, 0, 1),  # carry clear borrows one more
    (0x00, 0x01, 1, 0xFF, 0, 0),
])
def test_sbc_binary_borrow_and_overflow(a: int, operand: int, carry: int, result: int, v: int,
                                        c: int) -> None:
    cpu = run(bytes([0xE9, operand]), a=a, c=carry)
    assert (cpu.a, cpu.v, cpu.c) == (result, v, c)


def test_decimal_mode_adc_and_sbc() -> None:
    assert run(bytes([0x69, 0x01]), a=0x09, d=1).a == 0x10
    cpu = run(bytes([0x69, 0x01]), a=0x99, d=1)
    assert (cpu.a, cpu.c) == (0x00, 1)
    assert cpu.z == 0  # NMOS: Z comes from the binary sum $9A, not from the BCD result
    cpu = run(bytes([0xE9, 0x01]), a=0x10, d=1, c=1)
    assert (cpu.a, cpu.c) == (0x09, 1)
    cpu = run(bytes([0xE9, 0x01]), a=0x00, d=1, c=1)
    assert (cpu.a, cpu.c) == (0x99, 0)
    cpu = run(bytes([0x69, 0x79]), a=0x79, d=1)  # 79 + 79 = 158: N and V from the NMOS sequence
    assert (cpu.a, cpu.c, cpu.n, cpu.v) == (0x58, 1, 1, 1)


def test_compare_sets_carry_zero_negative() -> None:
    cpu = run(bytes([0xC9, 0x10]), a=0x10)
    assert (cpu.c, cpu.z, cpu.n) == (1, 1, 0)
    cpu = run(bytes([0xE0, 0x20]), x=0x10)
    assert (cpu.c, cpu.z, cpu.n) == (0, 0, 1)


# -- shifts, BIT, transfers -------------------------------------------------------------------

def test_rotates_through_carry() -> None:
    cpu = run(bytes([0x6A]), a=0x01, c=1)  # ROR A
    assert (cpu.a, cpu.c, cpu.n) == (0x80, 1, 1)
    cpu = run(bytes([0x2A]), a=0x80, c=0)  # ROL A
    assert (cpu.a, cpu.c, cpu.z) == (0x00, 1, 1)
    cpu = run(bytes([0x4E, 0x00, 0x30]))  # LSR $3000
    assert cpu.memory[0x3000] == 0 and cpu.z == 1


def test_bit_copies_bits_7_and_6() -> None:
    cpu = machine(bytes([0x2C, 0x00, 0x30]), a=0x00)
    cpu.memory[0x3000] = 0xC0
    cpu.step()
    assert (cpu.n, cpu.v, cpu.z) == (1, 1, 1)


def test_txs_sets_no_flags_tsx_does() -> None:
    cpu = run(bytes([0x9A, 0xBA]), steps=2, x=0x00, z=0)
    assert cpu.sp == 0 and cpu.z == 1


# -- stack, jumps, interrupts -----------------------------------------------------------------

def test_stack_wraps_within_page_one() -> None:
    cpu = run(bytes([0x48]), a=0x42, sp=0x00)
    assert cpu.memory[0x0100] == 0x42 and cpu.sp == 0xFF
    cpu = run(bytes([0x68]), sp=0xFF)
    assert cpu.sp == 0x00


def test_pc_wraps_at_ffff() -> None:
    cpu = machine(bytes([0xEA]), at=0xFFFF)
    cpu.step()
    assert cpu.pc == 0x0000


def test_jsr_pushes_last_byte_and_rts_returns_after_it() -> None:
    cpu = machine(bytes([0x20, 0x00, 0x30]))
    cpu.memory[0x3000] = 0x60
    cpu.step()
    assert cpu.pc == 0x3000 and cpu.memory[0x1FD] == 0x02 and cpu.memory[0x1FC] == 0x02
    cpu.step()
    assert cpu.pc == 0x0203


def test_jmp_indirect_page_wrap_bug() -> None:
    cpu = machine(bytes([0x6C, 0xFF, 0x30]))
    cpu.memory[0x30FF], cpu.memory[0x3000], cpu.memory[0x3100] = 0x34, 0x12, 0x56
    cpu.step()
    assert cpu.pc == 0x1234  # the high byte comes from $3000, not $3100


def test_brk_rti_and_php_plp() -> None:
    cpu = machine(bytes([0x00, 0xFF, 0xEA]))
    cpu.memory[0xFFFE:0x10000] = bytes([0x00, 0x40])
    cpu.memory[0x4000] = 0x40  # RTI
    cpu.c = 1
    assert cpu.step() == 7
    assert cpu.pc == 0x4000 and cpu.i == 1
    assert cpu.memory[0x1FB] & 0x30 == 0x30  # B and bit 5 pushed
    cpu.step()
    assert cpu.pc == 0x0202 and cpu.c == 1  # BRK + 2
    cpu = run(bytes([0x08, 0x68]), steps=2, n=1, c=1, i=0)  # PHP, PLA
    assert cpu.a == 0xB1  # N, bit 5, B, C


def test_irq_respects_the_i_flag_and_nmi_does_not() -> None:
    cpu = machine(bytes([0xEA]))
    cpu.memory[0xFFFE:0x10000] = bytes([0x00, 0x50])
    cpu.memory[0xFFFA:0xFFFC] = bytes([0x00, 0x60])
    cpu.i = 1
    assert cpu.irq() == 0 and cpu.pc == 0x0200
    cpu.i = 0
    assert cpu.irq() == 7 and cpu.pc == 0x5000 and cpu.memory[0x1FB] & 0x10 == 0
    assert cpu.nmi() == 7 and cpu.pc == 0x6000


# -- cycles -----------------------------------------------------------------------------------

@pytest.mark.parametrize("code, registers, cycles", [
    (bytes([0xBD, 0xFF, 0x10]), {"x": 1}, 5),  # LDA abs,X crossing a page
    (bytes([0xBD, 0x00, 0x10]), {"x": 1}, 4),
    (bytes([0x9D, 0x00, 0x10]), {"x": 1}, 5),  # STA abs,X always 5
    (bytes([0xB1, 0x10]), {"y": 1}, 6),  # LDA ($10),Y: $20FF + 1 crosses into $2100
    (bytes([0xD0, 0x02]), {"z": 1}, 2),  # not taken
    (bytes([0xD0, 0x02]), {"z": 0}, 3),  # taken, same page
    (bytes([0xD0, 0x7F]), {"z": 0}, 4),  # taken into the next page ($0202 + $7F = $0281: same page)
    (bytes([0x1E, 0x00, 0x10]), {"x": 0}, 7),
])
def test_cycle_counts(code: bytes, registers: dict[str, int], cycles: int) -> None:
    cpu = machine(code, **registers)
    if code == bytes([0xB1, 0x10]):
        cpu.memory[0x10:0x12] = bytes([0xFF, 0x20])
    if code == bytes([0xD0, 0x7F]):
        cpu.pc = 0x02F0
        cpu.memory[0x02F0:0x02F2] = code
    assert cpu.step() == cycles


# -- undocumented opcodes ------------------------------------------------------------------------

def test_stable_undocumented_opcodes() -> None:
    cpu = machine(bytes([0xA7, 0x10]))  # LAX $10
    cpu.memory[0x10] = 0x85
    cpu.step()
    assert (cpu.a, cpu.x, cpu.n) == (0x85, 0x85, 1)
    cpu = run(bytes([0x87, 0x20]), a=0xF0, x=0x3C)  # SAX $20
    assert cpu.memory[0x20] == 0x30
    cpu = machine(bytes([0xC7, 0x10]), a=0x41)  # DCP $10
    cpu.memory[0x10] = 0x42
    cpu.step()
    assert cpu.memory[0x10] == 0x41 and (cpu.z, cpu.c) == (1, 1)
    cpu = machine(bytes([0xE7, 0x10]), a=0x10, c=1)  # ISC $10
    cpu.memory[0x10] = 0x04
    cpu.step()
    assert cpu.memory[0x10] == 0x05 and cpu.a == 0x0B
    cpu = run(bytes([0x0B, 0x80]), a=0xFF)  # ANC #$80
    assert (cpu.a, cpu.c, cpu.n) == (0x80, 1, 1)
    cpu = run(bytes([0x4B, 0x03]), a=0xFF)  # ALR #$03
    assert (cpu.a, cpu.c) == (0x01, 1)
    cpu = run(bytes([0x6B, 0xFF]), a=0xC0, c=1)  # ARR #$FF: ROR of $C0 with carry -> $E0
    assert (cpu.a, cpu.c, cpu.v) == (0xE0, 1, 0)
    cpu = run(bytes([0xCB, 0x02]), a=0x0F, x=0x07)  # SBX #2: X = (A & X) - 2
    assert (cpu.x, cpu.c) == (0x05, 1)
    assert run(bytes([0xEB, 0x01]), a=0x05, c=1).a == 0x04  # $EB is SBC #imm
    cpu = machine(bytes([0x1C, 0xFF, 0x10]), x=1)  # NOP abs,X: 3 bytes, page penalty
    assert cpu.step() == 5 and cpu.pc == 0x0203


def test_jam_halts_with_the_address() -> None:
    cpu = machine(bytes([0xEA, 0x02]))
    cpu.step()
    with pytest.raises(CpuHalted, match=r"JAM: opcode \$02 at \$0201"):
        cpu.step()
    with pytest.raises(CpuHalted, match="unstable opcode \\$8B"):
        machine(bytes([0x8B, 0x00])).step()


def test_status_byte_round_trip() -> None:
    cpu = CPU(bytearray(0x10000))
    cpu.p = 0xFF
    assert cpu.p == 0xEF  # B is not a register bit; bit 5 always reads 1
    cpu.p = 0x00
    assert cpu.p == 0x20


def test_disassembler() -> None:
    memory = bytearray(0x10000)
    memory[0x1000:0x1008] = bytes([0xB1, 0x6A, 0xD0, 0xFC, 0x6C, 0xFC, 0xFF, 0xA7])
    assert disassemble(memory, 0x1000) == ("LDA ($6A),Y", 2)
    assert disassemble(memory, 0x1002) == ("BNE $1000", 2)
    assert disassemble(memory, 0x1004) == ("JMP ($FFFC)", 3)
    assert disassemble(memory, 0x1007)[0].startswith("LAX $00")
