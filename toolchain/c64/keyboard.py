"""What the user types, and the KERNAL's keyboard buffer it arrives in.

Typed input is a script (``--input``: lines separated by ``|`` or line breaks, each
ended by RETURN), or a line source (a function giving the next typed line: a player
at a terminal, an automatic answerer).  Keys reach the program as on the C64:
through the keyboard buffer at $0277-$0280 (KEYD) with its count at $C6 (NDX), which
the KERNAL's interrupt fills from the keyboard matrix.  A headless run types a key
when the program waits for one: the buffer is filled from the typed input only
then, so a program that empties the buffer (``POKE 198,0``) throws away what was in
it, and one that puts keys there itself (the "dynamic keyboard") gets them first.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from toolchain.c64.memory import KEYBOARD_BUFFER, KEYBOARD_BUFFER_SIZE, KEYBOARD_COUNT
from toolchain.petscii import char_to_petscii

RETURN = 0x0D


class UntypableText(ValueError):
    """Typed input with a character no C64 key gives."""


def typed_lines(script: str) -> list[str]:
    """The lines of typed input: separated by | or line breaks, each ended by RETURN
    (a final | or line break ends the last line, it adds no empty one)."""
    if not script:
        return []
    lines = script.replace("|", "\n").split("\n")
    if script.endswith(("|", "\n")):
        lines.pop()
    return lines


def text_to_keys(text: str, strict: bool = True) -> bytes:
    """Typed text to PETSCII key codes: a-z unshifted, A-Z shifted (petcat's rule).  A
    character no key gives is an error (``strict``) or not typed (a player at a
    terminal can press keys a C64 does not have)."""
    keys = bytearray()
    for character in text:
        try:
            keys.append(char_to_petscii(character))
        except ValueError:
            if strict:
                raise UntypableText(f"{character!r} cannot be typed on a C64 (no key gives it)") from None
    return bytes(keys)


def take_key(memory: bytearray) -> int:
    """$E5B4: the first key of the keyboard buffer, the others moved up and the count
    one less.  The ROM moves as many bytes as the count says, so the last slot takes
    the byte after it; with an empty buffer it moves 256 bytes (whatever a program that
    calls it so gets)."""
    count = memory[KEYBOARD_COUNT]
    key = memory[KEYBOARD_BUFFER]
    moves = count if count else 256
    for index in range(moves):
        memory[KEYBOARD_BUFFER + index] = memory[(KEYBOARD_BUFFER + index + 1) & 0xFFFF]
    memory[KEYBOARD_COUNT] = (count - 1) & 0xFF
    return key


class Keyboard:
    """The typed input, and the keyboard buffer in the machine's memory once attached."""

    # polls for a key that find none, in a row, before the program counts as waiting for
    # input that will not come (a game loop polls thousands of times a second)
    IDLE_POLL_LIMIT = 10_000

    def __init__(self, script: str | None = None,
                 line_source: Callable[[], str | None] | None = None,
                 idle_limit: int = IDLE_POLL_LIMIT) -> None:
        self.keys: deque[int] = deque()  # typed, not yet in the buffer
        for line in typed_lines(script or ""):
            self.keys.extend(text_to_keys(line))
            self.keys.append(RETURN)
        self.line_source = line_source
        self.idle_limit = idle_limit
        self.idle_polls = 0
        self.memory: bytearray | None = None
        self.stop_held = False  # RUN/STOP is pressed (a player at the live screen)

    def attach(self, memory: bytearray) -> None:
        """Use the keyboard buffer in ``memory`` (the machine's)."""
        self.memory = memory

    # -- the typed input ---------------------------------------------------------------------
    def _more_typed(self) -> bool:
        """Whether typed keys are waiting (asking the line source for a line when the
        script is used up)."""
        if not self.keys and self.line_source is not None:
            text = self.line_source()
            if text is not None:
                self.keys.extend(text_to_keys(text, strict=False))
                self.keys.append(RETURN)
        return bool(self.keys)

    def next_line(self) -> bytes | None:
        """The next typed line (without its RETURN), or None if there is no more input.

        Trailing spaces are dropped: the screen editor hands over the logical line up
        to its last non-space character (measured on VICE: INPUT of "  hi  " gives
        "  HI")."""
        if not self._more_typed():
            return None
        line = bytearray()
        while self.keys:
            key = self.keys.popleft()
            if key == RETURN:
                break
            line.append(key)
        return bytes(line).rstrip(b" ")

    def type_first(self, line: str) -> None:
        """``line`` and RETURN typed before the rest of the input (a command at READY.)."""
        self.keys.extendleft(reversed(text_to_keys(line) + bytes([RETURN])))

    # -- the keyboard buffer ---------------------------------------------------------------------
    def buffered(self) -> int:
        """How many keys wait in the keyboard buffer ($C6)."""
        return 0 if self.memory is None else min(self.memory[KEYBOARD_COUNT], KEYBOARD_BUFFER_SIZE)

    def fill(self, most: int = KEYBOARD_BUFFER_SIZE) -> int:
        """Type up to ``most`` keys into the buffer (as the KERNAL's keyboard scan puts
        them there); how many were typed."""
        memory = self.memory
        if memory is None:
            return 0
        count = self.buffered()
        typed = 0
        while count < min(most, KEYBOARD_BUFFER_SIZE) and self._more_typed():
            memory[KEYBOARD_BUFFER + count] = self.keys.popleft()
            count += 1
            typed += 1
        memory[KEYBOARD_COUNT] = count
        return typed

    def fill_line(self) -> int:
        """Type the next line's keys into the buffer, up to its RETURN (at most as many
        as the buffer holds: the rest when the program waits again); how many."""
        memory = self.memory
        if memory is None or not self._more_typed():
            return 0
        count = self.buffered()
        typed = 0
        while count < KEYBOARD_BUFFER_SIZE and self._more_typed():
            key = self.keys.popleft()
            memory[KEYBOARD_BUFFER + count] = key
            count += 1
            typed += 1
            if key == RETURN:
                break
        memory[KEYBOARD_COUNT] = count
        return typed

    def take(self) -> int | None:
        """The first key of the buffer, the rest moved up (the KERNAL's $E5B4), or None
        when the buffer is empty."""
        memory = self.memory
        if memory is None or self.buffered() == 0:
            return None
        return take_key(memory)

    def next_key(self) -> int | None:
        """A key for a program that polls (GETIN, GET): from the buffer, typing the
        next key into it first when it is empty; None when nothing is typed (counted:
        see :attr:`exhausted`)."""
        if self.memory is not None:
            if not self.buffered():
                self.fill(1)
            key = self.take()
        else:
            key = self.keys.popleft() if self._more_typed() else None
        if key is None:
            self.idle_polls += 1
        else:
            self.idle_polls = 0
        return key

    def key_waiting(self) -> bool:
        """Whether a key is in the buffer or typed (for WAIT 198 and PEEK(198): a key
        counts as typed when the program waits for it)."""
        if self.buffered():
            return True
        if self.memory is not None:
            return self.fill(1) > 0
        return self._more_typed()

    def stop_pressed(self) -> bool:
        """Whether RUN/STOP is held now (STOP, $FFE1; BASIC checks between statements)."""
        held, self.stop_held = self.stop_held, False
        return held

    @property
    def exhausted(self) -> bool:
        """Whether the program has polled for a key so often in vain that it waits for
        input that is not there."""
        return self.idle_polls > self.idle_limit
