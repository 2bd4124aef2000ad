"""How a run ended: one stop reason and one result type for machine code and BASIC.

The exit status is the command line's: 0 the program ended as it should (END, the
last line, READY., a return to BASIC, STOP), 1 it stopped on an error (a BASIC
error, BRK, a JAM, a ROM routine c64tc does not model), 2 a limit was reached, 3
the program waits for input that is not there.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

PAL_CLOCK_HZ = 985_248  # the C64's PAL clock: cycles per second


class Stop(enum.Enum):
    """Why a run ended, with the exit status the command line uses."""

    END = ("program ended", 0)
    RETURNED = ("returned to BASIC", 0)
    READY = ("back at BASIC's READY.", 0)
    BREAK = ("STOP statement", 0)
    ERROR = ("BASIC error", 1)
    BRK = ("BRK", 1)
    HALTED = ("CPU halted", 1)
    ROM_CALL = ("call into a ROM routine that is not modelled", 1)
    STATEMENT_LIMIT = ("statement limit reached", 2)
    CYCLE_LIMIT = ("cycle limit reached", 2)
    INPUT_EXHAUSTED = ("input exhausted while the program waits for input", 3)

    def __init__(self, description: str, exit_status: int) -> None:
        self.description = description
        self.exit_status = exit_status


@dataclass
class RunResult:
    """The end of a run: why, the C64's message, and what it cost.

    ``cycles`` and ``instructions`` count machine code (a BASIC program's SYS and USR
    calls included); ``statements`` counts the BASIC runner's statement groups;
    ``wall_seconds`` is the host's time.  ``line`` is the BASIC line of an error or
    BREAK; ``printer`` what was printed on device 4."""

    stop: Stop
    message: str
    cycles: int = 0
    instructions: int = 0
    statements: int = 0
    wall_seconds: float = 0.0
    line: int | None = None
    printer: bytes = b""

    @property
    def seconds(self) -> float:
        """The time a PAL C64 takes for the machine code's cycles."""
        return self.cycles / PAL_CLOCK_HZ

    @property
    def exit_status(self) -> int:
        return self.stop.exit_status
