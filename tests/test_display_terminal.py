"""The live screen on pseudo-terminals: in this process with a stand-in clock (frame
limiting, diffed drawing, the restored terminal), and the demo program as a user
runs it (keys without Enter, cursor keys, Esc, Ctrl-C, SIGTERM, a small window)."""

from __future__ import annotations

import os
import select
import signal
import sys
import termios
from collections.abc import Callable, Iterator

import pytest

from tests.pseudo_terminal import DEADLINE, PseudoTerminal, pty_pair, read_available, set_size
from toolchain.diagnostics import UserError
from toolchain.display.ansi import ColourDepth
from toolchain.display.live import LiveScreen
from toolchain.display.state import ScreenImage


@pytest.fixture
def terminal() -> Iterator[tuple[int, int]]:
    with pty_pair(80, 30) as ends:
        yield ends


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_frames_are_limited_drawn_by_difference_and_the_terminal_restored(terminal: tuple[int, int]) -> None:
    master, slave = terminal
    before = termios.tcgetattr(slave)
    clock = Clock()
    built = []

    def provider(image: ScreenImage) -> Callable[[], ScreenImage]:
        def build() -> ScreenImage:
            built.append(image)
            return image
        return build

    blank = ScreenImage.blank()
    with LiveScreen(input_fd=slave, output_fd=slave, clock=clock, fps=30,
                    depth=ColourDepth.TRUE_COLOUR) as live:
        assert termios.tcgetattr(slave)[3] & termios.ICANON == 0
        assert live.maybe_draw(provider(blank), "status one")
        first = read_available(master)
        assert b"\x1b[?1049h" in first and b"status one" in first and len(first) > 1000
        assert not any(live.maybe_draw(provider(blank)) for _ in range(100))  # not due yet
        assert len(built) == 1
        codes = bytearray(blank.codes)
        codes[41] = 0x01  # an A at row 1, column 1
        clock.now += 1 / 30
        assert live.maybe_draw(provider(ScreenImage(bytes(codes))))
        second = read_available(master)
        assert b"\x1b[4;6H" in second and b"A" in second and len(second) < 100  # one cell moved
        clock.now += 1 / 30
        assert live.maybe_draw(provider(ScreenImage(bytes(codes)))) and read_available(master) == b""
    assert b"\x1b[?1049l" in read_available(master)
    assert termios.tcgetattr(slave) == before


def test_the_terminal_is_restored_after_an_exception(terminal: tuple[int, int]) -> None:
    master, slave = terminal
    before = termios.tcgetattr(slave)
    with pytest.raises(RuntimeError), LiveScreen(input_fd=slave, output_fd=slave) as live:
        live.draw(ScreenImage.blank())
        raise RuntimeError("boom")
    assert termios.tcgetattr(slave) == before
    assert read_available(master).endswith(b"\x1b[?25h\x1b[?1049l")
    assert signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, signal.default_int_handler)


def test_a_small_terminal_is_refused_with_a_message(terminal: tuple[int, int]) -> None:
    master, slave = terminal
    set_size(slave, 40, 25)
    with pytest.raises(UserError, match="40x25; the C64 screen needs at least 40x26"):
        LiveScreen(input_fd=slave, output_fd=slave).__enter__()
    assert read_available(master) == b""  # nothing drawn, nothing to restore


def test_keys_arrive_without_enter(terminal: tuple[int, int]) -> None:
    master, slave = terminal
    with LiveScreen(input_fd=slave, output_fd=slave) as live:
        os.write(master, b"q\x1b[D")
        assert select.select([slave], [], [], DEADLINE)[0]  # the keys have arrived
        assert live.poll_keys() == [0x51, 0x9D]
        assert live.poll_keys() == []


# -- the demo, as a user runs it -----------------------------------------------------------------

def demo_on_terminal(columns: int = 80, lines: int = 30) -> PseudoTerminal:
    """``python -m toolchain.display.live_demo`` on a pseudo-terminal of its own
    (its controlling terminal, so Ctrl-C is SIGINT as for a user)."""
    return PseudoTerminal([sys.executable, "-m", "toolchain.display.live_demo"], size=(columns, lines),
                          environment={"COLORTERM": "truecolor"})


@pytest.fixture
def demo() -> Iterator[PseudoTerminal]:
    with demo_on_terminal() as running:
        yield running


def test_demo_draws_echoes_keys_and_ends_on_ctrl_c_with_the_terminal_restored(demo: PseudoTerminal) -> None:
    shown = demo.wait_for(b"Ctrl-C ends")
    assert b"\x1b[?1049h" in shown and b"READY." in shown and b";48;2;53;40;121m" in shown  # on blue
    demo.type(b"a")  # no Enter
    after_key = demo.wait_for(b"keys: $41   cursor 6,1")
    assert len(after_key) < 400  # the changed cells and the status line, not the whole screen
    demo.type(b"\x1b[A\x1b[A\x1b[D")
    demo.wait_for(b"keys: $41 $91 $91 $9D   cursor 4,0")
    demo.type(b"\x1b")
    demo.wait_for(b"RUN/STOP")
    demo.type(b"\x03")
    assert demo.finish() == 130
    assert demo.output.endswith(b"\x1b[?25h\x1b[?1049l")
    assert termios.tcgetattr(demo.slave) == demo.attributes


def test_demo_restores_the_terminal_on_sigterm(demo: PseudoTerminal) -> None:
    demo.wait_for(b"Ctrl-C ends")
    demo.process.send_signal(signal.SIGTERM)
    assert demo.finish() == 128 + signal.SIGTERM
    assert b"\x1b[?1049l" in demo.output
    assert termios.tcgetattr(demo.slave) == demo.attributes


def test_demo_in_a_small_window_says_so() -> None:
    with demo_on_terminal(columns=39, lines=30) as small:
        assert small.finish() == 1
        assert b"the terminal is 39x30; the C64 screen needs at least 40x26" in small.output
        assert termios.tcgetattr(small.slave) == small.attributes
