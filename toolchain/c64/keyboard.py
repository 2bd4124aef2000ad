"""What the user types, and the KERNAL's keyboard buffer it arrives in.

Typed input is a script (``--input``: lines separated by ``|``, line breaks or VICE's
``\\n``, each ended by RETURN; see :func:`typed_keys`), or a line source (a function
giving the next typed line: a player at a terminal, an automatic answerer).  Keys
reach the program as on the C64: through the keyboard buffer at $0277-$0280 (KEYD)
with its count at $C6 (NDX), which the KERNAL's interrupt fills from the keyboard
matrix.  A headless run types a key
when the program waits for one: the buffer is filled from the typed input only
then, so a program that empties the buffer (``POKE 198,0``) throws away what was in
it, and one that puts keys there itself (the "dynamic keyboard") gets them first.

A live run (a player at the live screen, :class:`KeySource`) is different: keys go
into the buffer when they are pressed, as the KERNAL's keyboard scan puts them there
sixty times a second, whether or not the program waits (at most XMAX keys, 10: the
rest are lost, as on a C64); a program that waits for a key waits for the player,
and the input is never used up.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Protocol

from toolchain.c64.memory import (
    CURSOR_BLINK,
    KEYBOARD_BUFFER,
    KEYBOARD_BUFFER_SIZE,
    KEYBOARD_COUNT,
    MAX_KEYBOARD_BUFFER,
)
from toolchain.petscii import char_to_petscii

RETURN = 0x0D
RUN_STOP = 0x100  # a key source's RUN/STOP: not a PETSCII code (the KERNAL reads the key itself)
RUN_STOP_CODE = 0x03  # what the KERNAL's keyboard table puts into the buffer for RUN/STOP ($EB81)
AUTODN = 0x0292  # the editor's loop waiting for a key stores the empty count here and in BLNSW


class KeySource(Protocol):
    """Keys a player presses as the program runs (the live screen)."""

    def pressed(self) -> list[int]:
        """The keys pressed since the last call, as PETSCII codes (``RUN_STOP`` for
        RUN/STOP); never waits."""
        ...

    def wait(self, polling: bool) -> None:
        """The program waits for a key and none is there: let a little time pass
        (show the screen, wait a moment for a key).  ``polling``: it polls (GET,
        GETIN) and goes on without one; else it waits until a key comes (INPUT, the
        editor, WAIT 198)."""
        ...


class UntypableText(ValueError):
    """Typed input with a character no C64 key gives."""


# VICE's -keybuf escapes (src/kbdbuf.c, kbd_buf_parse_string): \n RETURN, \\ a backslash
# (PETSCII $5C, the pound key), \xNN the PETSCII code NN
KEYBUF_ESCAPES = "\\n (RETURN), \\\\ (the \\ key, the C64's pound), \\xNN (the PETSCII code NN)"


def typed_keys(script: str) -> bytes:
    """Typed input (``--input``, ``--input-file``, a manifest's dialogue) as the keys
    typed: lines separated by ``|`` or line breaks, or by VICE's -keybuf escape ``\\n``,
    each line ended by RETURN (a final separator adds no empty line); ``\\xNN`` types
    the PETSCII code NN (``\\x85`` F1, ``\\x93`` CLR, ``\\x0d`` RETURN), ``\\\\`` the
    backslash (pound) key.  Other characters as :func:`text_to_keys` types them; a
    backslash before anything else is an error (VICE would drop it silently)."""
    keys = bytearray()
    line = bytearray()  # the keys of the line being read
    plain = ""  # its characters not yet turned into keys
    ended = True  # the last thing read ended a line (or nothing was read)
    index = 0
    while index < len(script):
        character = script[index]
        code: int | None = None
        if character == "\\":
            escape = script[index + 1 : index + 2]
            if escape == "n":
                code, index = RETURN, index + 2
            elif escape == "\\":
                plain, index = plain + "\\", index + 2
                continue
            elif escape == "x" and _is_hex(script[index + 2 : index + 4]):
                code, index = int(script[index + 2 : index + 4], 16), index + 4
            else:
                shown = script[index : index + 4 if escape == "x" else index + 2]
                raise UntypableText(f"{shown!r} is not one of VICE's keybuf escapes: {KEYBUF_ESCAPES}")
        elif character in "|\n":
            code, index = RETURN, index + 1
        else:
            plain, index = plain + character, index + 1
            ended = False
            continue
        line += text_to_keys(plain)
        plain = ""
        if code == RETURN:
            keys += line + bytes([RETURN])
            line = bytearray()
            ended = True
        else:
            line.append(code)
            ended = False
    line += text_to_keys(plain)
    if not ended:
        keys += line + bytes([RETURN])
    return bytes(keys)


def _is_hex(text: str) -> bool:
    return len(text) == 2 and all(digit in "0123456789abcdefABCDEF" for digit in text)


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
                 idle_limit: int = IDLE_POLL_LIMIT, live: KeySource | None = None) -> None:
        self.keys: deque[int] = deque(typed_keys(script or ""))  # typed, not yet in the buffer
        self.line_source = line_source
        self.idle_limit = idle_limit
        self.idle_polls = 0
        self.memory: bytearray | None = None
        self.stop_held = False  # RUN/STOP is pressed (a player at the live screen)
        self.live = live  # keys as they are pressed (then script and line source are not used)
        # what RUN/STOP puts into the buffer in a live run: the KERNAL's $03, which machine
        # code polling GETIN sees; None where BASIC runs (it checks STOP before every
        # statement, so a GET never gets the key: the caller says so)
        self.run_stop_code: int | None = RUN_STOP_CODE

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
        if self.live is not None:
            return self._wait_live(editor=False)
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
        if memory is not None and self.live is not None:
            return self.wait_for_key()
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

    def wait_for_key(self) -> int:
        """The screen editor waits for a key ($E5CD): one typed into the empty buffer;
        how many were typed (0: the input is used up).  Live, it waits for the player,
        with BLNSW ($CC) and AUTODN ($0292) 0 as the editor's loop leaves them while the
        buffer is empty: the cursor blinks."""
        if self.live is None or self.memory is None:
            return self.fill(1)
        return self._wait_live(editor=True)

    def poll(self) -> bool:
        """A program polls for a key (GETIN with an empty buffer): whether one is in the
        buffer now, the next typed key put there first.  A poll that finds none counts
        towards :attr:`exhausted`; live, it lets the C64's time pass (see
        :meth:`KeySource.wait`)."""
        if self.live is None:
            typed = self.fill(1) > 0
        else:
            typed = bool(self.scan() or self.buffered())
            if not typed:
                self.live.wait(polling=True)
                typed = bool(self.scan() or self.buffered())
        self.idle_polls = 0 if typed else self.idle_polls + 1
        return typed

    # -- a live run: the keyboard scan -----------------------------------------------------------
    def scan(self) -> int:
        """A live run's keyboard scan (the KERNAL's, sixty times a second): the keys
        pressed since the last scan go into the buffer while it has room; how many went
        in.  The ROM's decode ($EAE0) stores a key only while NDX ($C6) is below XMAX
        ($0289, 10): a key pressed while the buffer is full is lost, as on a C64.
        RUN/STOP is held from its press until the program checks it or another key is
        pressed (a terminal says when a key goes down, not when it goes up)."""
        if self.live is None or self.memory is None:
            return 0
        memory = self.memory
        typed = 0
        for key in self.live.pressed():
            if key == RUN_STOP:
                self.stop_held = True
                if self.run_stop_code is None:
                    continue
                key = self.run_stop_code
            else:
                self.stop_held = False
            count = memory[KEYBOARD_COUNT]
            if count < memory[MAX_KEYBOARD_BUFFER]:
                memory[(KEYBOARD_BUFFER + count) & 0xFFFF] = key
                memory[KEYBOARD_COUNT] = count + 1
                typed += 1
        return typed

    def _wait_live(self, editor: bool) -> int:
        """Until the player presses a key (the program waits); how many were typed."""
        assert self.live is not None and self.memory is not None
        typed = self.scan()
        while not self.buffered():
            if editor:
                self.memory[CURSOR_BLINK] = self.memory[AUTODN] = 0
            self.live.wait(polling=False)
            typed += self.scan()
        self.idle_polls = 0
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
        if self.memory is not None and self.live is not None:
            if not self.buffered() and not self.scan():
                self.live.wait(polling=True)
                self.scan()
            key = self.take()
        elif self.memory is not None:
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
        if self.live is not None:
            return self.scan() > 0
        if self.memory is not None:
            return self.fill(1) > 0
        return self._more_typed()

    def stop_pressed(self) -> bool:
        """Whether RUN/STOP is held now (STOP, $FFE1; BASIC checks between statements).
        The caller does what STOP does then: the keyboard buffer emptied."""
        self.scan()
        held, self.stop_held = self.stop_held, False
        return held

    @property
    def exhausted(self) -> bool:
        """Whether the program has polled for a key so often in vain that it waits for
        input that is not there (never in a live run: the player is there)."""
        return self.live is None and self.idle_polls > self.idle_limit
