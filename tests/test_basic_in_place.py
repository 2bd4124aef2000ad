"""Loops that run in place in the generated code (linker.Linker.in_place): a NEXT or a
GOTO back to the start of its own function, or to it through the segment a conditional
jump goes to, loops there instead of returning to the dispatcher.

What the programs do is compared with BASIC in ROM on c64tc's 6502 (their screens, how
they stop).  What the dispatcher counts and looks at (statement groups, the limits,
the C64's clock, the chips caught up each chunk, CONT after a stop) is compared with
the same program compiled without loops in place, whose every jump goes through the
dispatcher: a loop in place must take one statement group from the chunk for each
jump, as the dispatcher's call did."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import basic_in_rom, printed_rows
from toolchain.basic import tokenize_text
from toolchain.basic.runner import compile_program, linker
from toolchain.c64.machine import C64
from toolchain.c64.outcome import RunResult, Stop
from toolchain.c64.run import Keyboard, Session, program_from_prg

# Each loops in place (a NEXT back to its FOR's body, through an IF's jump to the NEXT,
# a GOTO back to its line), and ends by END, an error, running off the end or a NEXT
# whose FOR is gone.
PROGRAMS = {
    "if-next": "10 for i=1 to 7:a=i*i:if a>20 then print a;\n20 next:print \"end\";i\n",
    "nested": "10 for k=1 to 3:for i=1 to 9:x=k*i:if x and 1 then s=s+x\n20 next i,k:print s\n",
    "goto-back": "10 i=i+1:if i<50 then 10\n20 print i:end\n30 print \"not here\"\n",
    "error-inside": "10 dim a(10):for i=1 to 20:a(i)=i:if i>3 then print i;\n20 next\n",
    "end-inside": "10 for i=1 to 9:if i=5 then print \"five\":end\n20 next\n",
    "gosub-inside": "10 for i=1 to 4:if i<>2 then gosub 100\n20 next:print \"end\":end\n"
                    "100 print i*3;:return\n",
    "next-without-for": "10 for i=1 to 3:if i=2 then gosub 100\n20 next\n100 next:return\n",
    # the Haus vom Nikolaus's inner loop, a few passes of its main loop
    "nikolaus": "10 dim k(8):for k=2311111 to 2311140:k$=mid$(str$(k),2):f=0\n"
                "20 for i=1 to 7:k(i)=val(mid$(k$,i,1)):if k(i)=0 or k(i)>5 then f=1:i=7\n"
                "30 next:if f then 50\n40 c=c+1\n50 next:print c;k(3)\n",
}


def _without_loops_in_place(self: linker.Linker, index: int) -> list[tuple[str, int, int | None]]:
    return [(text, line, None) for text, line in self.superblock(index)]


def run(listing: str, max_statements: int | None = None, max_cycles: int | None = None,
        irq_handler: bool = False) -> tuple[RunResult, Session]:
    program = program_from_prg(tokenize_text(listing), "loops")
    session = Session(program, machine=C64())
    if irq_handler:  # a program's own handler: the dispatcher catches the chips up every chunk
        memory = session.machine.memory
        memory[0xC000:0xC004] = bytes([0xEE, 0x20, 0xD0, 0x4C])  # INC $D020: JMP $EA31
        memory[0xC004:0xC006] = bytes([0x31, 0xEA])
        memory[0x0314], memory[0x0315] = 0x00, 0xC0
    options = {} if max_cycles is None else {"max_cycles": max_cycles}
    result = session.run(Keyboard(""), max_statements=max_statements, **options)
    return result, session


def seen(result: RunResult, session: Session) -> tuple[object, ...]:
    """What a run leaves that the dispatcher's counting could change."""
    runtime = session.runtime
    assert runtime is not None
    machine = session.machine
    return (result.stop, result.message, result.line, result.statements, machine.cpu.cycles,
            runtime.namespace["_T"], machine.screen.text(), bytes(machine.memory[0xD020:0xD021]),
            {name: runtime.namespace[name] for name in runtime.variables if name[0] in "NIS"},
            runtime.cont_segment)


@pytest.mark.parametrize("name", PROGRAMS)
def test_loops_in_place_are_compiled(name: str) -> None:
    """The programs do loop in place (else the tests below would test nothing)."""
    source = compile_program(tokenize_text(PROGRAMS[name]).data).module.source
    assert "while True:" in source, source
    assert "for _group in _GROUPS: break" in source


@pytest.mark.parametrize("name", PROGRAMS)
def test_loops_in_place_run_as_basic_in_rom(name: str, tmp_path: Path) -> None:
    rom_result, printed = basic_in_rom(PROGRAMS[name], tmp_path, max_cycles=200_000_000)
    ours, ours_session = run(PROGRAMS[name])
    assert (ours.stop, ours.message) == (rom_result.stop, rom_result.message)
    assert printed_rows(ours_session.machine) == printed


@pytest.mark.parametrize("name", PROGRAMS)
@pytest.mark.parametrize("max_statements", [None, 1, 2, 15, 16, 17, 33, 100, 101, 250])
def test_statement_limits_stop_where_the_dispatcher_does(name: str, max_statements: int | None,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    ours = seen(*run(PROGRAMS[name], max_statements))
    monkeypatch.setattr(linker.Linker, "in_place", _without_loops_in_place)
    assert ours == seen(*run(PROGRAMS[name], max_statements))


# longer runs, for limits of C64 time
LONG = {
    "nested": "10 for k=1 to 300:for i=1 to 9:x=k*i:if x and 1 then s=s+x\n20 next i,k:print s\n",
    "goto-back": "10 i=i+1:if i<5000 then 10\n20 print i:end\n",
    "nikolaus": PROGRAMS["nikolaus"],
}


@pytest.mark.parametrize("name", LONG)
@pytest.mark.parametrize("max_cycles", [30_000, 100_000, 333_333, 1_000_001])
def test_cycle_limits_stop_where_the_dispatcher_does(name: str, max_cycles: int,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Near the end of the run's C64 time the dispatcher runs one group a chunk: a loop
    in place must then return after each group too."""
    ours = seen(*run(LONG[name], max_cycles=max_cycles))
    assert ours[0] is Stop.CYCLE_LIMIT
    monkeypatch.setattr(linker.Linker, "in_place", _without_loops_in_place)
    assert ours == seen(*run(LONG[name], max_cycles=max_cycles))


@pytest.mark.parametrize("name", LONG)
def test_a_program_s_interrupt_handler_runs_when_it_did(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a program's own IRQ handler the chips catch up after every chunk of
    statement groups: the handler's border increments land at the same times."""
    ours = seen(*run(LONG[name], irq_handler=True))
    assert ours[7] != bytes([14])  # the handler ran (the border's colour was 14)
    monkeypatch.setattr(linker.Linker, "in_place", _without_loops_in_place)
    assert ours == seen(*run(LONG[name], irq_handler=True))


def test_outside_the_dispatcher_nothing_loops_in_place() -> None:
    """After a run (the monitor runs typed lines by calling segments itself) the chunk
    is empty: a loop in place returns to its caller at its first jump."""
    result, session = run(PROGRAMS["if-next"], max_statements=5)
    runtime = session.runtime
    assert runtime is not None and result.stop is Stop.STATEMENT_LIMIT
    assert list(runtime.namespace["_GROUPS"]) == []


@pytest.mark.parametrize(("name", "calls"), [("gosub-inside", 1), ("gosub-inside", 2), ("gosub-inside", 3),
                                             ("next-without-for", 1)])
def test_a_break_inside_a_loop_in_place_continues_where_the_dispatcher_s_did(
        name: str, calls: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """RUN/STOP seen inside a statement group (here: in the GOSUB of the n-th call):
    CONT runs that group again from the segment it started at, whether the dispatcher
    called it or a loop in place jumped to it."""
    from toolchain.basic.runner.contract import Ended
    from toolchain.basic.runner.runtime import Runtime

    push_gosub = Runtime.push_gosub
    made: list[int] = []

    def stopping(self: Runtime, resume: int, line: int) -> None:
        made.append(resume)
        if len(made) == calls:
            raise Ended(Stop.BREAK, "BREAK")
        push_gosub(self, resume, line)

    monkeypatch.setattr(Runtime, "push_gosub", stopping)
    ours = seen(*run(PROGRAMS[name]))
    assert ours[0] is Stop.BREAK and ours[-1] is not None
    made.clear()
    monkeypatch.setattr(linker.Linker, "in_place", _without_loops_in_place)
    assert ours == seen(*run(PROGRAMS[name]))
