"""Exhaustive checks of built programs against independent Python models.

A verifier plays every case (for Superhirn II: all 1296 secrets) on the emulated C64
and compares each game with the model.  Verifiers register by name in
:mod:`.games`; ``c64tc verify NAME`` offers what is registered.  Modules:
:mod:`.scoring` (the one Mastermind scorer), :mod:`.superhirn` (Superhirn II's model
and the game player), :mod:`.strategies` (Superhirn III, Knuth, the comparison),
:mod:`.mastermind`, :mod:`.foxhunt`, :mod:`.nikolaus` (the BASIC programs' models).
"""

from toolchain.verify import strategies, superhirn  # noqa: F401  (they register their verifiers)
from toolchain.verify.games import (
    VERIFIERS,
    Game,
    NotTheProgram,
    Progress,
    Verification,
    guess_statistics,
    verify_program,
)

__all__ = ["VERIFIERS", "Game", "NotTheProgram", "Progress", "Verification", "guess_statistics",
           "verify_program"]
