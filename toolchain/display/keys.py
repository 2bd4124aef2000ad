"""Terminal key presses as the C64 keyboard's PETSCII codes.

A terminal sends a key as bytes: a character (UTF-8), a control byte, or an escape
sequence for the cursor, editing and function keys.  The sequences decoded here are
those of xterm and the terminals that follow it (CSI ``ESC [`` and SS3 ``ESC O``
forms, with or without modifier parameters), rxvt's and the VT220's ``ESC [ n ~``
forms, and the Linux console's ``ESC [ [ A``-``E`` for F1-F5.

What each key gives, as on the C64: the cursor keys CRSR down $11, up $91, right
$1D, left $9D; Home HOME $13, shift+Home CLR $93 (where the terminal passes it
on); Backspace (and Delete) DEL $14; Insert INST $94; Enter RETURN $0D; F1-F8
$85 $89 $86 $8A $87 $8B $88 $8C; letters
as the C64 types them (a-z unshifted $41-$5A, A-Z shifted $C1-$DA) and other
characters as ``toolchain.petscii.char_to_petscii`` converts them; Esc is RUN/STOP.
RUN/STOP is not a typed character to the KERNAL: it reads the key from the
keyboard matrix (STOP, $FFE1), so it comes as ``RUN_STOP``, a value outside 0-255
(the KERNAL's keyboard table also puts $03 into the buffer for it).
"""

from __future__ import annotations

from toolchain.petscii import char_to_petscii

RUN_STOP = 0x100  # not a PETSCII byte: the RUN/STOP key

RETURN, DEL, INST, HOME, CLR = 0x0D, 0x14, 0x94, 0x13, 0x93
CURSOR = {"A": 0x91, "B": 0x11, "C": 0x1D, "D": 0x9D}  # up, down, right, left
FUNCTION_KEYS = (0x85, 0x89, 0x86, 0x8A, 0x87, 0x8B, 0x88, 0x8C)  # F1-F8
# F12 is no C64 key: it toggles warp (the live screen at the C64's speed or as fast as it
# goes, as in VICE); a code no PETSCII key has (RUN_STOP is 0x100), which the live play
# takes for itself
WARP_TOGGLE = 0x101
_TILDE_KEYS = {1: HOME, 7: HOME, 2: INST, 3: DEL,  # vt220/rxvt: Home, Insert, Delete
               11: FUNCTION_KEYS[0], 12: FUNCTION_KEYS[1], 13: FUNCTION_KEYS[2], 14: FUNCTION_KEYS[3],
               15: FUNCTION_KEYS[4], 17: FUNCTION_KEYS[5], 18: FUNCTION_KEYS[6], 19: FUNCTION_KEYS[7],
               24: WARP_TOGGLE}
_SS3_FUNCTION_KEYS = {"P": FUNCTION_KEYS[0], "Q": FUNCTION_KEYS[1], "R": FUNCTION_KEYS[2],
                      "S": FUNCTION_KEYS[3]}
_LINUX_FUNCTION_KEYS = {ord("A") + i: FUNCTION_KEYS[i] for i in range(5)}  # ESC [ [ A-E
LONE_ESCAPE_SECONDS = 0.05  # an ESC with nothing after it for this long is the Esc key


class KeyboardInterruptKey(KeyboardInterrupt):
    """Ctrl-C arrived as a byte (the terminal did not turn it into SIGINT)."""


def _shifted(parameters: list[int]) -> bool:
    """xterm's modifier parameter: 1 + (1 shift, 2 alt, 4 ctrl)."""
    return len(parameters) >= 2 and (parameters[1] - 1) & 1 == 1


def _parameters(text: str) -> list[int]:
    return [int(part) if part.isdigit() else 0 for part in text.split(";")] if text else []


class KeyDecoder:
    """Bytes from the terminal in, C64 keys out; holds an incomplete sequence or
    UTF-8 character until the rest arrives."""

    def __init__(self) -> None:
        self.pending = bytearray()
        self.pending_since: float | None = None

    def feed(self, data: bytes, now: float) -> list[int]:
        """Decode what has arrived; ``now`` (seconds, any clock) times a lone ESC."""
        if data:
            if not self.pending:
                self.pending_since = now
            self.pending += data
        keys: list[int] = []
        while self.pending:
            used, key = self._one(now)
            if used == 0:
                break
            del self.pending[:used]
            if key is not None:
                keys.append(key)
            self.pending_since = now
        return keys

    def _one(self, now: float) -> tuple[int, int | None]:
        """(bytes used, key or None); (0, None) while the start is incomplete."""
        data = self.pending
        first = data[0]
        if first == 0x1B:
            return self._escape(now)
        if first == 0x03:
            raise KeyboardInterruptKey
        if first in (0x0D, 0x0A):
            return 1, RETURN
        if first in (0x7F, 0x08):
            return 1, DEL
        if first < 0x20:
            return 1, None  # other control keys: nothing on the C64's keyboard
        return self._character()

    def _character(self) -> tuple[int, int | None]:
        first = self.pending[0]
        length = 1 if first < 0xC0 else 2 if first < 0xE0 else 3 if first < 0xF0 else 4
        if len(self.pending) < length and first >= 0xC0:
            return 0, None
        char = bytes(self.pending[:length]).decode("utf-8", errors="replace")
        try:
            return length, char_to_petscii(char[0])
        except ValueError:
            return length, None  # no such key on a C64

    def _escape(self, now: float) -> tuple[int, int | None]:
        data = self.pending
        if len(data) == 1:
            waited = now - (self.pending_since if self.pending_since is not None else now)
            return (1, RUN_STOP) if waited >= LONE_ESCAPE_SECONDS else (0, None)
        second = data[1]
        if second == ord("O"):  # SS3: ESC O x
            if len(data) < 3:
                return 0, None
            final = chr(data[2])
            key = CURSOR.get(final) or _SS3_FUNCTION_KEYS.get(final)
            if final == "H":
                key = HOME
            elif final == "M":
                key = RETURN  # keypad Enter
            return 3, key
        if second != ord("["):
            return 1, RUN_STOP  # Esc, then another key (or Alt+key): both count
        if len(data) >= 3 and data[2] == ord("["):  # Linux console F1-F5: ESC [ [ A
            if len(data) < 4:
                return 0, None
            return 4, _LINUX_FUNCTION_KEYS.get(data[3])
        end = 2
        # parameters and intermediates; rxvt ends shifted keys with "$" (ESC [ 7 $)
        while end < len(data) and 0x20 <= data[end] <= 0x3F and data[end] != ord("$"):
            end += 1
        if end == len(data):
            return 0, None
        final = chr(data[end])
        parameters = _parameters(bytes(data[2:end]).decode("ascii", errors="replace"))
        return end + 1, self._csi(final, parameters)

    @staticmethod
    def _csi(final: str, parameters: list[int]) -> int | None:
        if final in CURSOR:
            return CURSOR[final]
        if final == "H":
            return CLR if _shifted(parameters) else HOME
        if final in _SS3_FUNCTION_KEYS:  # xterm's F1-F4 with modifiers: ESC [ 1 ; 2 P
            return _SS3_FUNCTION_KEYS[final]
        if final in "~$" and parameters:
            key = _TILDE_KEYS.get(parameters[0])
            if key == HOME and (_shifted(parameters) or final == "$"):
                return CLR
            return key
        return None  # End, Page Up/Down, Shift+Tab...: no C64 key
