"""Playing a program on a terminal: the live screen, or a line teletype.

:class:`LivePlay` shows the C64's screen while the program runs (frames from the
machine's memory, as the VIC-II shows it) and types the player's keys into the
keyboard buffer as they are pressed; it is the :class:`~toolchain.c64.keyboard.KeySource`
of the run's keyboard.  :class:`LineTerminal` is the teletype for terminals that
cannot show a screen (``TERM=dumb``, no known size): what the program printed, then
a line read.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TextIO

import click

from toolchain.c64.chips.keyboard import KEY_PRESSES
from toolchain.c64.io import Ticker
from toolchain.c64.keyboard import RUN_STOP, Keyboard
from toolchain.c64.memory import COLOUR_RAM, KEYBOARD_COUNT, SCREEN_CELLS, SCREEN_PAGE, visible_screen
from toolchain.c64.outcome import PAL_CLOCK_HZ, Stop
from toolchain.display.keys import WARP_TOGGLE
from toolchain.display.live import LiveScreen
from toolchain.display.state import COLUMNS, ScreenImage

if TYPE_CHECKING:
    from toolchain.c64.machine import C64

BLNSW, GDBLN, BLNON, GDCOL = 0xCC, 0xCE, 0xCF, 0x0287  # the editor's cursor blink (see editor.py)
RUN_STOP_POSITION = (KEY_PRESSES[0x03].row, KEY_PRESSES[0x03].column)  # row 7, column 7
RUN_STOP_HOLD_CYCLES = PAL_CLOCK_HZ // 10  # Esc holds RUN/STOP down for a tenth of a second
LOOK_SECONDS = 0.01  # while the program computes, keys and frames are looked at this often
POLL_SECONDS = 0.002  # the terminal is asked for keys at most this often (a program may call STOP
#                       in a tight loop: a system call each time would slow it to half the C64's speed)
TICK_CYCLES = 50_000  # ... asked for every so many cycles of machine code
TICK_STATEMENTS = 64  # ... and every so many BASIC statement groups
PACE_SLACK_SECONDS = 0.25  # a program polling for keys is held to the C64's pace within this


def can_show_live_screen(stdin: TextIO | None, stdout: TextIO | None,
                         environment: dict[str, str] | None = None) -> bool:
    """Whether the player's terminal can show the live screen: standard input and
    output are terminals, ``TERM`` is not ``dumb`` (an editor's shell buffer, a
    teletype) and the terminal knows its size (a size of 0x0 means it does not)."""
    if stdin is None or stdout is None or not stdin.isatty() or not stdout.isatty():
        return False
    if (environment if environment is not None else os.environ).get("TERM", "") == "dumb":
        return False
    try:
        size = os.get_terminal_size(stdout.fileno())
    except OSError:
        return False
    return size.columns > 0 and size.lines > 0


def final_screen_text(machine: C64) -> str:
    """The screen as the live run left it, as text: its rows up to the last that is
    not empty."""
    rows = machine.screen.text_rows()
    while rows and not rows[-1]:
        rows.pop()
    return "".join(row + "\n" for row in rows)


class LivePlay:
    """A program played on the live screen: the key source of its keyboard, the
    frames drawn while it runs, and its pace while it polls for keys.

    ``name`` names the program on the status line, ``basic`` says whether the BASIC
    runner runs it (it checks RUN/STOP between statements), ``work`` describes the
    work done so far ("1,234 statement groups"), ``machine_cycles`` reads the C64's
    clock.  Use it as a context manager around the run (the terminal is taken and
    always given back); :attr:`keyboard` is the run's keyboard.  While machine code
    runs, a ticker of the machine's looks at keys and frames; a BASIC program's run
    calls :meth:`tick` every so many statement groups (:meth:`statement_tick`)."""

    def __init__(self, machine: C64, name: str, *, basic: bool, work: Callable[[], str],
                 machine_cycles: Callable[[], int], screen: LiveScreen | None = None,
                 ascii: bool = False, warp: bool = False) -> None:
        self.machine = machine
        # at the C64's speed (a game's delay loops as on a C64), or as fast as it goes (VICE's warp)
        self.warp = warp
        self._speed_base: tuple[float, int] | None = None
        self.name = name
        self.basic = basic
        self.work = work
        self.machine_cycles = machine_cycles
        self.screen = screen if screen is not None else LiveScreen(ascii=ascii)
        self.clock = self.screen.clock
        self.keyboard = Keyboard(live=self)
        if basic:
            self.keyboard.run_stop_code = None  # BASIC's STOP check empties the buffer first
        # with the real ROMs, machine code reads RUN/STOP from the keyboard matrix (the
        # IRQ's UDTIM keeps STKEY, $91, and its scan types $03): Esc holds the key there
        self.stop_in_matrix = machine.roms is not None and not basic
        self.warnings: list[str] = []  # the machine's warnings, shown after the run
        self._next_look = 0.0
        self._next_poll = 0.0
        self._last_wait = -1.0
        self._pace_base: tuple[float, int] | None = None
        self._shown: tuple[bytes, ScreenImage] | None = None  # the last image and the memory it shows
        self._told_cells = False

    def __enter__(self) -> LivePlay:
        self.screen.__enter__()
        machine = self.machine
        self._saved_warn = machine.warn
        machine.warn = self.warnings.append  # a warning would scribble over the screen
        self._ticker = Ticker(TICK_CYCLES, self.tick_machine, machine.cpu.cycles)
        machine.io.tickers.append(self._ticker)
        from toolchain.c64.video import FrameRecorder

        self.recorder = FrameRecorder(machine)  # the VIC-II's frames, for pictures beyond text
        return self

    def __exit__(self, *exception: Any) -> None:
        machine = self.machine
        if self._ticker in machine.io.tickers:
            machine.io.tickers.remove(self._ticker)
        self.recorder.detach()
        machine.warn = self._saved_warn
        self.screen.__exit__(*exception)

    def show_warnings(self) -> None:
        """The warnings kept while the screen was live (call after the run)."""
        for warning in self.warnings:
            self.machine.warn(warning)
        self.warnings.clear()

    # -- what is shown ---------------------------------------------------------------------------
    def image(self) -> ScreenImage:
        """The screen as the VIC-II shows it, the cursor where the editor has it while
        it blinks (BLNSW, $CC, is 0: the editor waits for a key, or a program set it).
        The live screen blinks it by the wall clock, so the cell is drawn as it is
        under the KERNAL's blink (its character GDBLN and colour GDCOL while BLNON).
        While the screen does not change the last image is given again (a frame costs a
        comparison then, not a picture)."""
        memory = self.machine.memory
        start = visible_screen(memory)
        state = None
        end = start + SCREEN_CELLS
        if (end <= 0xA000 or 0xC000 <= start and end <= 0xD000) and self.machine.map.io_shown():
            # the screen in RAM the CPU sees, colour RAM and the chips' registers visible:
            # their bytes, and the editor's cursor variables, say all the picture shows
            state = b"".join((memory[start:end], memory[COLOUR_RAM : COLOUR_RAM + SCREEN_CELLS],
                              memory[0xC6:0xDA], memory[0xD018:0xD019], memory[0xD020:0xD022],
                              memory[0xDD00:0xDD01], memory[SCREEN_PAGE : SCREEN_PAGE + 1],
                              memory[GDCOL : GDCOL + 1]))
            if self._shown is not None and self._shown[0] == state:
                return self._shown[1]
        # the editor's cursor is on the screen the VIC-II shows unless a program moved one
        blinking = memory[BLNSW] == 0 and memory[SCREEN_PAGE] << 8 == start
        image = self.machine.screen_image(cursor_visible=blinking)
        if blinking and memory[BLNON] & 1 and image.cursor is not None:
            index = image.cursor[0] * COLUMNS + image.cursor[1]
            codes, colours = bytearray(image.codes), bytearray(image.colours)
            codes[index], colours[index] = memory[GDBLN], memory[GDCOL] & 0x0F
            image = replace(image, codes=bytes(codes), colours=bytes(colours))
        if state is not None:
            self._shown = (state, image)
        return image

    def waiting(self) -> bool:
        """Whether the program waits for a key (it asked for one a moment ago)."""
        return self.clock() - self._last_wait < 0.1

    def status(self) -> str:
        state = ", waiting for a key" if self.waiting() else ""
        return f"{self.name}: {self.work()}{state}   Esc: RUN/STOP  Ctrl-C: quit"

    def draw(self) -> None:
        """A frame, if one is due: the text screen, or the VIC-II's picture when it shows
        more than text (the first time in character cells, that is said after the run)."""
        beyond = self.recorder.shows()
        if beyond is None:
            self.screen.maybe_draw(self.image, self.status)
            return
        from toolchain.display.graphics import GraphicsKind

        if self.screen.graphics is GraphicsKind.CELLS and not self._told_cells:
            self._told_cells = True
            how = "one coloured space a pixel" if self.screen.ascii else "2x3 pixels a character"
            self.warnings.append(f"the program shows {beyond}: the live screen drew the VIC-II's frames in "
                                 f"character cells ({how}, at a fraction of their resolution; this terminal "
                                 "offers neither the kitty graphics protocol nor sixels): --screenshot and "
                                 "--film draw them whole")
        self.screen.maybe_draw_frame(self.recorder.picture, self.status)

    # -- while the program runs ------------------------------------------------------------------
    def statement_tick(self) -> tuple[int, Callable[[], None]]:
        """For a BASIC run (``Session.run``'s ``every``): :meth:`tick` every
        TICK_STATEMENTS statement groups."""
        return TICK_STATEMENTS, self.tick

    def tick(self) -> None:
        """While the program runs: now and then the keys pressed go into the buffer
        (the KERNAL's interrupt scans the keyboard), a frame is drawn, and a BASIC
        program sees RUN/STOP (its check before each statement, $A82C: BREAK)."""
        now = self.clock()
        # the pace is kept at every tick, not only at a look: a short run (a delay loop of a
        # second) would otherwise end inside the first look's interval, at Python's speed
        self.keep_speed(now)
        if now < self._next_look:
            return
        self._next_look = now + LOOK_SECONDS
        self.keyboard.scan()
        if self.basic and self.keyboard.stop_pressed():
            from toolchain.basic.runner.contract import Ended

            self.machine.memory[KEYBOARD_COUNT] = 0  # STOP ($F6ED) empties the buffer
            raise Ended(Stop.BREAK, "BREAK")
        self.draw()

    def tick_machine(self) -> None:
        """:meth:`tick` while machine code runs: no BASIC check (BASIC does not run);
        keys wait while the code has interrupts off (the keyboard scan is the IRQ's)."""
        now = self.clock()
        # the pace is kept at every tick, not only at a look: a short run (a delay loop of a
        # second) would otherwise end inside the first look's interval, at Python's speed
        self.keep_speed(now)
        if now < self._next_look:
            return
        self._next_look = now + LOOK_SECONDS
        if not self.machine.cpu.i:
            self.keyboard.scan()
        self.draw()

    def keep_speed(self, now: float) -> None:
        """Unless in warp: hold the run to the C64's speed, waiting while its clock is
        ahead of the wall clock (a run slower than a C64 goes as fast as it can)."""
        if self.warp:
            self._speed_base = None
            return
        cycles = self.machine_cycles()
        if self._speed_base is None:
            self._speed_base = (now, cycles)
            return
        wall, start = self._speed_base
        ahead = (cycles - start) / PAL_CLOCK_HZ - (now - wall)
        if ahead < -PACE_SLACK_SECONDS:  # slower than a C64: no debt to catch up later
            self._speed_base = (now, cycles)
        elif ahead > 0:
            self.screen.idle(min(ahead, PACE_SLACK_SECONDS))

    # -- the key source --------------------------------------------------------------------------
    def pressed(self) -> list[int]:
        now = self.clock()
        if now < self._next_poll:
            return []
        self._next_poll = now + POLL_SECONDS
        keys = self.screen.poll_keys()
        if WARP_TOGGLE in keys:  # F12: warp on or off, as in VICE
            self.warp = not self.warp
            keys = [key for key in keys if key != WARP_TOGGLE]
        if self.stop_in_matrix and RUN_STOP in keys:
            self._hold_run_stop()
            keys = [key for key in keys if key != RUN_STOP]
        return keys

    def _hold_run_stop(self) -> None:
        matrix = self.machine.io.cia1.ports.keyboard  # type: ignore[attr-defined]
        matrix.held = [RUN_STOP_POSITION]
        matrix.held_until = self.machine.cpu.cycles + RUN_STOP_HOLD_CYCLES

    def wait(self, polling: bool) -> None:
        """The program waits for a key: a frame (the cursor blinking), then wait for a
        key for at most a frame's time.  A program that polls (GET, GETIN) is held to
        the C64's pace: it waits only while its clock is ahead of the wall clock, so
        a GET loop runs about as fast as on a C64 (and a game's animation with it)."""
        now = self.clock()
        self._last_wait = now
        self.draw()
        self._next_poll = 0.0  # a key that comes while it waits is taken at once
        if not polling:
            self.screen.idle(self.screen.frame_seconds)
            self._pace_base = None
            return
        cycles = self.machine_cycles()
        if self._pace_base is None:
            self._pace_base = (now, cycles)
            return
        wall, start = self._pace_base
        ahead = (cycles - start) / PAL_CLOCK_HZ - (now - wall)
        if abs(ahead) > PACE_SLACK_SECONDS:  # it computed (or slept) a while: start again
            self._pace_base = (now, cycles)
        elif ahead > 0:
            self.screen.idle(min(ahead, self.screen.frame_seconds))


class LineTerminal:
    """Interactive play: what the program printed is shown, then a line is read.

    The terminal moves to a new line when the player presses Enter; on the C64 the
    cursor stays behind the typed text until the program prints its RETURN.  So the
    first RETURN printed after a typed line is already on the terminal: skip it."""

    def __init__(self, machine: Any) -> None:
        self.machine = machine
        self.shown = 0
        self.after_input = False

    def flush(self) -> None:
        from toolchain.c64.editor import petscii_to_screen_code
        from toolchain.c64.screen import screen_code_to_text

        text = []
        for byte in self.machine.output_log[self.shown :]:
            if byte in (0x0D, 0x8D) and self.after_input:
                self.after_input = False
                continue
            self.after_input = False
            if byte in (0x0D, 0x8D, 0x93):
                text.append("\n")
            elif byte == 0x1D:  # cursor right: on a terminal's fresh line, a space
                text.append(" ")
            elif (code := petscii_to_screen_code(byte)) is not None:  # a printable character
                text.append(screen_code_to_text(code))
        self.shown = len(self.machine.output_log)
        click.echo("".join(text), nl=False)

    def __call__(self) -> str | None:
        self.flush()
        try:
            line = input()
        except EOFError:
            return None
        self.after_input = True
        return line

