"""The C64's screen live on a terminal, and its keyboard.

``LiveScreen`` takes over the terminal while a program runs: the 40x25 screen in
its border, redrawn in place (only the cells that changed, at most ``fps`` frames a
second of wall time), a status line below it, and key presses as they happen, with
no Enter needed.  When the VIC-II shows more than text (a bitmap, sprites, a
character set in RAM, raster effects: the caller decides), ``maybe_draw_frame`` shows
its frame instead: a picture through the kitty graphics protocol or sixels where the
terminal has them, else in character cells (:mod:`toolchain.display.graphics`).

Built on the standard library (termios, select, ANSI escape sequences) rather than a
terminal library: curses in Python cannot show 24-bit colour (its colours are
palette slots that it redefines in the user's terminal); prompt_toolkit and textual
want to own the event loop, where here the emulator's run loop is in charge and
asks for a frame when it can spare the time; blessed would decode the keys from
terminfo, but the handful of sequences terminals send for the C64's keys is a small
table (``toolchain.display.keys``), and restoring the terminal is ours to get right
either way.

The terminal is always put back: on leaving the ``with`` block, also by an
exception, by Ctrl-C (which stays a signal: SIGINT raises KeyboardInterrupt at once,
however busy the emulator is; the caller exits with status 130), and by SIGTERM or
SIGHUP (they raise SystemExit(128 + signal) here so that the block unwinds).
Ctrl-Z gives the terminal back while c64tc is stopped and takes it again on ``fg``.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import signal
import struct
import sys
import termios
import time
from collections.abc import Callable
from types import FrameType, TracebackType

from toolchain.diagnostics import UserError
from toolchain.display.ansi import RESET, Cell, ColourDepth, screen_cells, sgr
from toolchain.display.graphics import (
    WHO_ARE_YOU,
    GraphicsKind,
    cells,
    detect,
    fit,
    kitty,
    kitty_delete,
    sixel,
)
from toolchain.display.keys import KeyDecoder
from toolchain.display.state import COLUMNS, ROWS, ScreenImage

NEEDED_COLUMNS, NEEDED_LINES = COLUMNS, ROWS + 1  # the screen and the status line
BLINK_SECONDS = 20 / 60  # the KERNAL's cursor blink: every 20 jiffies (BLNCT, $CD)

_ENTER = "\x1b[?1049h\x1b[?25l\x1b[?7l\x1b[2J"  # alternate screen, no cursor, no wrap, clear
_LEAVE = RESET + "\x1b[?7h\x1b[?25h\x1b[?1049l"  # wrap, cursor and the normal screen again


class TerminalTooSmall(UserError):
    pass


def too_small_message(columns: int, lines: int) -> str:
    return (f"the terminal is {columns}x{lines}; the C64 screen needs at least "
            f"{NEEDED_COLUMNS}x{NEEDED_LINES} (40x25 and a status line): make the window larger")


class LiveScreen:
    """A context manager owning the terminal: ``maybe_draw`` shows frames,
    ``poll_keys`` hands out key presses.

    ``ascii``: plain ASCII glyphs; ``fps``: the most frames a second; ``depth``:
    colour depth (default: from $COLORTERM); ``clock``: seconds (for tests)."""

    def __init__(self, *, ascii: bool = False, fps: float = 30.0, depth: ColourDepth | None = None,
                 input_fd: int | None = None, output_fd: int | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.ascii = ascii
        self.frame_seconds = 1.0 / fps
        self.depth = depth or ColourDepth.of_terminal()
        self.input_fd = sys.stdin.fileno() if input_fd is None else input_fd
        self.output_fd = sys.stdout.fileno() if output_fd is None else output_fd
        self.clock = clock
        self.decoder = KeyDecoder()
        self._saved_attributes: list | None = None
        self._saved_handlers: dict[int, object] = {}
        self._next_frame = 0.0
        self._started = 0.0
        self._resized = False
        self._active = False
        self._status = ""
        self.graphics: GraphicsKind | None = None  # how frames are shown (found when the terminal is taken)
        self._frame_shown: tuple[bytes, tuple[int, int]] | None = None  # the frame on screen, and the layout
        self._next_frame_picture = 0.0
        self._forget_screen()

    # -- taking the terminal and giving it back ----------------------------------------------
    def __enter__(self) -> LiveScreen:
        for fd, what in ((self.input_fd, "input"), (self.output_fd, "output")):
            if not os.isatty(fd):
                raise UserError.single("terminal", f"the live screen needs a terminal (standard {what} "
                                       "is not one)")
        columns, lines = self.size()
        if columns < NEEDED_COLUMNS or lines < NEEDED_LINES:
            raise TerminalTooSmall.single("terminal", too_small_message(columns, lines))
        self._saved_attributes = termios.tcgetattr(self.input_fd)
        try:
            self._install_signal_handlers()
            self._take_terminal()
            if self.graphics is None:
                self.graphics = self._graphics_of_terminal()
        except BaseException:
            self.restore()
            raise
        self._started = self.clock()
        return self

    def _graphics_of_terminal(self) -> GraphicsKind:
        """The terminal's way of showing pictures: from the environment, else its answer
        to DA1 (read here, before any key is, for at most a fifth of a second)."""
        found = detect()
        if found is not GraphicsKind.CELLS or os.environ.get("C64TC_GRAPHICS"):
            return found
        self._write(WHO_ARE_YOU)
        answer = b""
        deadline = time.monotonic() + 0.2
        while not answer.endswith(b"c") and time.monotonic() < deadline:
            ready = select.select([self.input_fd], [], [], max(0.0, deadline - time.monotonic()))[0]
            if not ready:
                break
            try:
                chunk = os.read(self.input_fd, 256)
            except (BlockingIOError, InterruptedError):
                continue
            if not chunk:
                break
            answer += chunk
        return detect(answer=answer.decode("latin-1"))

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.restore()

    def _take_terminal(self) -> None:
        assert self._saved_attributes is not None
        attributes = termios.tcgetattr(self.input_fd)
        # cbreak: keys arrive one by one, unechoed; ISIG stays on, so Ctrl-C is SIGINT
        attributes[0] &= ~(termios.IXON | termios.ICRNL)  # iflag: Ctrl-S/Ctrl-Q are keys, Enter is CR
        attributes[3] &= ~(termios.ICANON | termios.ECHO | termios.IEXTEN)  # lflag
        attributes[6][termios.VMIN] = 0  # reads never wait
        attributes[6][termios.VTIME] = 0
        termios.tcsetattr(self.input_fd, termios.TCSANOW, attributes)
        self._active = True
        self._write(_ENTER)
        self._forget_screen()

    def _give_back_terminal(self) -> None:
        if not self._active:
            return
        self._active = False
        with contextlib.suppress(OSError):
            if self._frame_shown is not None and self.graphics is GraphicsKind.KITTY:
                self._write(kitty_delete())
            self._write(_LEAVE)
        if self._saved_attributes is not None:
            with contextlib.suppress(termios.error, OSError):
                termios.tcsetattr(self.input_fd, termios.TCSADRAIN, self._saved_attributes)

    def restore(self) -> None:
        """Put the terminal back as it was (safe to call twice)."""
        self._give_back_terminal()
        for number, handler in self._saved_handlers.items():
            with contextlib.suppress(ValueError, OSError):
                signal.signal(number, handler)  # type: ignore[arg-type]
        self._saved_handlers = {}

    def _install_signal_handlers(self) -> None:
        handlers: dict[int, Callable[[int, FrameType | None], None]] = {
            signal.SIGTERM: self._on_termination, signal.SIGHUP: self._on_termination,
            signal.SIGWINCH: self._on_resize, signal.SIGTSTP: self._on_suspend,
            signal.SIGCONT: self._on_resume}
        for number, handler in handlers.items():
            try:
                self._saved_handlers[number] = signal.signal(number, handler)
            except ValueError:  # not the main thread: no handlers, the with block still restores
                return

    def _on_termination(self, number: int, frame: FrameType | None) -> None:
        raise SystemExit(128 + number)

    def _on_resize(self, number: int, frame: FrameType | None) -> None:
        self._resized = True

    def _on_suspend(self, number: int, frame: FrameType | None) -> None:
        self._give_back_terminal()
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTSTP)  # stops here until fg

    def _on_resume(self, number: int, frame: FrameType | None) -> None:
        with contextlib.suppress(ValueError):
            signal.signal(signal.SIGTSTP, self._on_suspend)
        if not self._active and self._saved_attributes is not None:
            self._take_terminal()
            self._resized = True  # draw the whole screen at the next chance

    # -- drawing -------------------------------------------------------------------------------
    def size(self) -> tuple[int, int]:
        size = os.get_terminal_size(self.output_fd)
        return size.columns, size.lines

    def pixel_size(self) -> tuple[int, int]:
        """The terminal's size in pixels (0, 0 where it does not say)."""
        try:
            packed = fcntl.ioctl(self.output_fd, termios.TIOCGWINSZ, b"\0" * 8)
        except OSError:
            return 0, 0
        _, _, width, height = struct.unpack("HHHH", packed)
        return width, height

    def _forget_screen(self) -> None:
        self._shown: list[Cell | None] = [None] * (COLUMNS * ROWS)
        self._shown_border: int | None = None
        self._shown_status: str | None = None
        self._shown_image: tuple[ScreenImage, bool] | None = None
        self._layout: tuple[int, int, int, int] | None = None  # columns, lines, border columns, rows
        self._too_small_shown = False

    def _write(self, text: str) -> None:
        data = text.encode("utf-8")
        while data:
            written = os.write(self.output_fd, data)
            data = data[written:]

    def maybe_draw(self, image_provider: Callable[[], ScreenImage],
                   status: str | Callable[[], str] | None = None) -> bool:
        """Draw a frame if one is due (at most ``fps`` a second): only then are the
        image and the status text (a string or a function making one) built.
        Returns whether a frame was drawn."""
        now = self.clock()
        if now < self._next_frame and not self._resized:
            return False
        self._next_frame = now + self.frame_seconds
        self.draw(image_provider(), status() if callable(status) else status)
        return True

    def cursor_shown(self) -> bool:
        """The blink phase of wall time: on for 20 jiffies, off for 20."""
        return int((self.clock() - self._started) / BLINK_SECONDS) % 2 == 0

    def draw(self, image: ScreenImage, status: str | None = None) -> None:
        """Bring the terminal up to date with ``image`` (and the status line)."""
        if status is not None:
            self._status = status
        if self._frame_shown is not None:  # from a picture back to text: start again
            self._leave_picture()
            self._forget_screen()
        if self._resized:
            self._resized = False
            self._forget_screen()
        columns, lines = self.size()
        if columns < NEEDED_COLUMNS or lines < NEEDED_LINES:
            if not self._too_small_shown:
                self._write(RESET + "\x1b[2J\x1b[H" + too_small_message(columns, lines)[: columns - 1])
                self._too_small_shown = True
            return
        if self._too_small_shown:
            self._forget_screen()
        if self._layout is None:
            border_columns = min(4, (columns - COLUMNS) // 2)
            border_rows = min(2, (lines - NEEDED_LINES) // 2)
            self._layout = (columns, lines, border_columns, border_rows)
            self._write(RESET + "\x1b[2J")
        out: list[str] = []
        cursor_on = image.cursor_visible and self.cursor_shown()
        self._draw_border(image.border, out)
        if (image, cursor_on) != self._shown_image:  # the same image again: no cell changed
            self._draw_cells(screen_cells(image, self.ascii, cursor_on), out)
            self._shown_image = (image, cursor_on)
        self._draw_status(out)
        if out:
            self._write("".join(out) + RESET)

    def _draw_border(self, border: int, out: list[str]) -> None:
        if border == self._shown_border:
            return
        self._shown_border = border
        assert self._layout is not None
        _, _, border_columns, border_rows = self._layout
        width = COLUMNS + 2 * border_columns
        out.append(sgr(border, border, self.depth))
        for line in range(2 * border_rows + ROWS):
            if border_rows <= line < border_rows + ROWS:
                if border_columns:
                    out.append(f"\x1b[{line + 1};1H" + " " * border_columns)
                    out.append(f"\x1b[{line + 1};{border_columns + COLUMNS + 1}H" + " " * border_columns)
            else:
                out.append(f"\x1b[{line + 1};1H" + " " * width)

    def _draw_cells(self, cells: list[Cell], out: list[str]) -> None:
        assert self._layout is not None
        _, _, border_columns, border_rows = self._layout
        current: tuple[int, int] | None = None
        for row in range(ROWS):
            column = 0
            base = row * COLUMNS
            while column < COLUMNS:
                if cells[base + column] == self._shown[base + column]:
                    column += 1
                    continue
                out.append(f"\x1b[{border_rows + row + 1};{border_columns + column + 1}H")
                while column < COLUMNS and cells[base + column] != self._shown[base + column]:
                    char, foreground, background = cells[base + column]
                    if (foreground, background) != current:
                        current = (foreground, background)
                        out.append(sgr(foreground, background, self.depth))
                    out.append(char)
                    self._shown[base + column] = cells[base + column]
                    column += 1

    def _draw_status(self, out: list[str]) -> None:
        if self._status == self._shown_status:
            return
        self._shown_status = self._status
        assert self._layout is not None
        columns, _, _, border_rows = self._layout
        line = 2 * border_rows + ROWS + 1
        text = self._status.replace("\n", " ")[: columns - 1]
        out.append(f"{RESET}\x1b[{line};1H{text}\x1b[K")

    # -- pictures ----------------------------------------------------------------------------------
    def maybe_draw_frame(self, frame_provider: Callable[[], bytes],
                         status: str | Callable[[], str] | None = None) -> bool:
        """Draw the VIC-II's frame (384x272 palette indices, made only when due) if one is
        due: at most half as many a second as text frames (a picture costs more)."""
        now = self.clock()
        if now < self._next_frame_picture and not self._resized:
            return False
        self._next_frame_picture = now + 2 * self.frame_seconds
        self.draw_frame(frame_provider(), status() if callable(status) else status)
        return True

    def _leave_picture(self) -> None:
        if self.graphics is GraphicsKind.KITTY:
            self._write(kitty_delete())
        self._write(RESET + "\x1b[2J")
        self._frame_shown = None

    def picture_layout(self) -> tuple[int, int]:
        """The cells (columns, lines) the frame takes: as large as the terminal allows
        above the status line, undistorted."""
        columns, lines = self.size()
        width, height = self.pixel_size()
        aspect = (width / columns) / (height / lines) if width and height else 0.5
        return fit(columns, max(1, lines - 1), aspect)

    def draw_frame(self, pixels: bytes, status: str | None = None) -> None:
        """Show the frame (and the status line below it)."""
        if status is not None:
            self._status = status
        if self._resized or self._frame_shown is None:
            self._resized = False
            self._write(RESET + "\x1b[2J")
            self._forget_screen()
            self._frame_shown = None
        layout = self.picture_layout()
        out: list[str] = []
        if self._frame_shown != (pixels, layout):
            out.append("\x1b[H")
            kind = self.graphics or GraphicsKind.CELLS
            if kind is GraphicsKind.KITTY:
                from toolchain.display.png import frame_png

                out.append(kitty(frame_png(pixels), *layout))
            elif kind is GraphicsKind.SIXEL:
                width, height = self.pixel_size()
                columns, lines = self.size()
                scale = 1
                if width and height:
                    room = (width * layout[0] // columns, height * layout[1] // lines)
                    scale = max(1, min(room[0] // 384, room[1] // 272))
                out.append(sixel(pixels, scale=scale))
            else:
                for line, text in enumerate(cells(pixels, *layout, ascii=self.ascii, depth=self.depth)):
                    out.append(f"\x1b[{line + 1};1H{text}")
            self._frame_shown = (pixels, layout)
            self._shown_status = None
        if self._status != self._shown_status:
            self._shown_status = self._status
            columns, lines = self.size()
            out.append(f"{RESET}\x1b[{lines};1H{self._status.replace(chr(10), ' ')[: columns - 1]}\x1b[K")
        if out:
            self._write("".join(out))

    # -- keys ----------------------------------------------------------------------------------
    def poll_keys(self) -> list[int]:
        """The keys pressed since the last call, as PETSCII codes (``keys.RUN_STOP``
        for Esc); never waits.  An Esc alone is told from the start of an escape
        sequence by the time that passes: it is reported by a call at least 50 ms
        after it arrived.  Ctrl-C raises KeyboardInterrupt (as a signal, or here
        when the terminal passes it on as a byte)."""
        data = b""
        while select.select([self.input_fd], [], [], 0)[0]:
            try:
                chunk = os.read(self.input_fd, 1024)
            except (BlockingIOError, InterruptedError):
                break
            if not chunk:
                break
            data += chunk
        return self.decoder.feed(data, self.clock())

    def idle(self, seconds: float) -> None:
        """Wait up to ``seconds`` for a key press (while the C64 waits for one)."""
        with contextlib.suppress(InterruptedError):
            select.select([self.input_fd], [], [], max(0.0, seconds))
