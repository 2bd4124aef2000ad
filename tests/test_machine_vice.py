"""Machine facts measured on a real C64 (VICE 3.10 with the original ROMs): small programs
of ours (tests/data/machine, see its README) that print what a program can observe of the
machine around BASIC, each with VICE's screen.  c64tc must show the same screen; the
programs whose feature is still missing (issue 14) are expected to fail, strictly, so
each one turns into a passing test the day its feature lands (then set ``matches = true``
in tests/data/machine/plan.toml).  With VICE's x64sc installed, the slow tests measure
everything again and check the stored data (``python scripts/corpus-vs-vice --machine
--measure`` rewrites it)."""

from __future__ import annotations

import pytest

from tests.test_corpus_screens import assert_ends_as_on_vice, load_tool, x64sc

tool = load_tool()
PLAN = tool.load_plan(tool.MACHINE_PLAN, tool.MACHINE_DATA, ".bas")


def _param(name: str) -> object:
    entry = PLAN[name]
    marks = [] if entry.matches else [pytest.mark.xfail(strict=True, reason=f"issue 14: {entry.cause}")]
    return pytest.param(name, marks=marks)


@pytest.mark.parametrize("name", [_param(name) for name in sorted(PLAN)])
def test_c64tc_shows_what_a_real_c64_shows(name: str) -> None:
    assert_ends_as_on_vice(PLAN[name], tool.MACHINE_DATA)


@pytest.mark.parametrize("name", sorted(PLAN))
def test_every_program_has_its_measurement_and_says_what_it_measures(name: str) -> None:
    stored = tool.load_measurement(tool.MACHINE_DATA, name)
    assert stored is not None, f"run: python scripts/corpus-vs-vice --machine --measure {name}"
    assert stored.rows == tool.screen_rows(stored.codes) and len(stored.colours) == 1000
    assert stored.facts["input"] == PLAN[name].input
    entry = PLAN[name]
    assert entry.reason and (entry.matches or entry.cause)
    assert f"`{name}`" in (tool.MACHINE_DATA / "README.md").read_text()


def test_the_power_on_screen() -> None:
    """What `c64tc run --boot` will have to show, as VICE shows it after reset."""
    stored = tool.load_measurement(tool.MACHINE_DATA, "power-on")
    assert stored.rows[:6] == ["", "    **** COMMODORE 64 BASIC V2 ****", "",
                               " 64K RAM SYSTEM  38911 BASIC BYTES FREE", "", "READY."]
    assert stored.facts["cursor"] == [6, 0]


# -- measuring again --------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PLAN))
def test_vice_shows_the_stored_screen_again(name: str) -> None:
    emulator = x64sc()
    stored = tool.load_measurement(tool.MACHINE_DATA, name)
    screen = tool.measure(emulator, PLAN[name])
    assert screen.rows() == stored.rows
    assert (screen.colours, screen.stop, screen.cursor) == (stored.colours, stored.facts["stop"],
                                                           tuple(stored.facts["cursor"]))
    assert screen.vic == {name: int(value[1:], 16) for name, value in stored.facts["vic"].items()}


# What the start-up leaves in RAM that c64tc does not reproduce, and why: the processor
# port (VICE's RAM bank shows the RAM under it, c64tc keeps the port's values there);
# the scratch of BASIC's start-up message (the number 38911 in the float accumulators,
# the string temporaries, the index pointers, the conversion buffer at $FF, the last
# printed character); the RAM test's and RESTOR's pointers ($C1-$C4); the screen
# editor's cursor and blink state (c64tc starts a program on a cleared screen, the
# cursor at home, as `?"{clr}";:RUN` leaves it); the stack page.
START_UP_SCRATCH = {
    0x00, 0x01, 0x07, 0x08, 0x0D, 0x17, 0x18, 0x19, 0x1A, 0x1B, 0x22, 0x23, 0x24, 0x25, 0x42, 0x47,
    0x53, 0x5D, *range(0x61, 0x73), 0xC2, 0xC3, 0xC4, 0xC9, 0xCA, 0xCC, 0xCD, 0xCF, 0xD1, 0xD2,
    0xD3, 0xD6, 0xD7, 0xF3, 0xF4, 0xFF, *range(0x0100, 0x0200),
}


def test_power_on_memory_holds_what_the_start_up_leaves_on_vice() -> None:
    """Zero page and pages 2-3 as VICE shows them at READY. after reset
    (tests/data/machine/power-on.ram.bin): every variable, vector and pointer."""
    from tests.conftest import DATA
    from toolchain.c64.memory import power_on_memory

    measured = (DATA / "machine" / "power-on.ram.bin").read_bytes()
    ours = power_on_memory()
    compared = [address for address in range(0x400) if address not in START_UP_SCRATCH]
    differ = [f"${address:04X}: VICE ${measured[address]:02X}, c64tc ${ours[address]:02X}"
              for address in compared if measured[address] != ours[address]]
    assert not differ, "\n".join(differ)
