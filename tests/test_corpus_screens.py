"""The 64'er corpus listings end on the screen a real C64 shows.

The screens were measured on VICE 3.10 with the original ROMs by scripts/corpus-vs-vice
(tests/data/corpus: per listing the screen codes, colour RAM, text and how the run
ended; plan.toml says what was typed and when the screen was taken).  The listings the
plan marks ``matches = true`` must end in c64tc on the same screen, in the same colours,
the same way, with the same bytes in memory and on the printer (but what the plan's
``differs`` names, which must still differ); the others wait for issue 14's features
and are strict xfails, so the day one matches the test says so (set ``matches`` then).
The listings themselves stay in ../shared (the tests skip without them); the
measurements are ours and checked always.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import REPO, shared_path


def load_tool() -> ModuleType:
    """scripts/corpus-vs-vice as a module (a script, so its name has no .py)."""
    name = "corpus_vs_vice"
    if name not in sys.modules:
        loader = importlib.machinery.SourceFileLoader(name, str(REPO / "scripts" / "corpus-vs-vice"))
        spec = importlib.util.spec_from_loader(name, loader)
        assert spec is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up while it loads
        loader.exec_module(module)
    return sys.modules[name]


tool = load_tool()
PLAN = tool.load_plan(tool.PLAN, tool.CORPUS)


def assert_ends_as_on_vice(entry: Any, folder: Path) -> None:
    """The program of a plan ``entry`` ends in c64tc as VICE's stored measurement in
    ``folder`` does: the screen (both shown side by side when not), then colours,
    ending, memory, printer and disk."""
    comparison = tool.compare(entry, tool.load_measurement(folder, entry.name))
    assert comparison.same_screen, "\n" + tool.side_by_side(comparison.ours.rows(), comparison.theirs.rows)
    assert comparison.differing_aspects() == set(entry.differs), \
        f"{comparison.differences() or 'nothing'} differs, the plan says {list(entry.differs)}; " \
        f"c64tc: {comparison.ours.message}"


def _param(name: str) -> object:
    entry = PLAN[name]
    marks = [pytest.mark.slow] if entry.slow else []
    if not entry.matches:
        marks.append(pytest.mark.xfail(strict=True, reason=f"issue 14: {entry.cause}"))
    return pytest.param(name, marks=marks)


@pytest.mark.parametrize("name", [_param(name) for name in sorted(PLAN)])
def test_listing_ends_on_the_screen_of_a_real_c64(name: str) -> None:
    entry = PLAN[name]
    shared_path("corpus", "basic", entry.source.name)
    assert_ends_as_on_vice(entry, tool.CORPUS_DATA)


# -- the measurements themselves ---------------------------------------------------------------

def x64sc() -> Path:
    """VICE's headless x64sc, or skip."""
    found = os.environ.get("C64TC_VICE") or shutil.which("x64sc")
    if not found:
        pytest.skip("VICE's x64sc is not installed (set C64TC_VICE to measure on VICE)")
    return Path(found)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PLAN))
def test_vice_shows_the_stored_screen_again(name: str) -> None:
    """The measurement is reproducible: VICE runs from a fixed start with the same keys
    (`python scripts/corpus-vs-vice --measure` rewrites the data)."""
    emulator = x64sc()
    entry = PLAN[name]
    shared_path("corpus", "basic", entry.source.name)
    stored = tool.load_measurement(tool.CORPUS_DATA, name)
    screen = tool.measure(emulator, entry)
    assert screen.rows() == stored.rows
    assert (screen.colours, screen.stop, screen.memory) == (stored.colours, stored.facts["stop"],
                                                           stored.facts["memory"])
    assert screen.printer == stored.printer


@pytest.mark.parametrize("name", sorted(PLAN))
def test_every_listing_has_its_measurement(name: str) -> None:
    stored = tool.load_measurement(tool.CORPUS_DATA, name)
    assert stored is not None, f"run: python scripts/corpus-vs-vice --measure {name}"
    assert len(stored.codes) == len(stored.colours) == 1000
    assert all(colour < 16 for colour in stored.colours)
    assert stored.rows == tool.screen_rows(stored.codes)  # the text is the screen codes decoded
    assert stored.facts["stop"] in tool.AGREEING_ENDS
    assert stored.facts["input"] == PLAN[name].input  # measured with the plan's input
    assert set(stored.facts["memory"]) == {f"${start:04X}-${end:04X}" for start, end in PLAN[name].memory}


def test_the_plan_covers_the_corpus_and_explains_each_entry() -> None:
    corpus = shared_path("corpus", "basic")
    assert sorted(path.name[:-4] for path in corpus.glob("*.txt")) == sorted(PLAN)
    for entry in PLAN.values():
        assert entry.reason, entry.name
        assert entry.matches or entry.cause, f"{entry.name}: say why it differs"
        assert not entry.differs or (entry.matches and entry.cause), f"{entry.name}: say why it differs"


def test_the_report_counts_same_screens() -> None:
    shared_path("corpus", "basic")
    name = "8504_ez_datum_l5"  # a one-liner: a date typed, its weekday printed
    comparison = tool.compare(PLAN[name], tool.load_measurement(tool.CORPUS_DATA, name))
    lines = tool.report([comparison], show=False).splitlines()
    assert lines[1].split()[:2] == [name, "same"]
    assert lines[-1] == "1 of 1 end on the same screen as VICE (1 also with the same colours, ending, " \
        "memory and printer output)"


def test_a_different_screen_is_shown_side_by_side() -> None:
    assert tool.side_by_side(["A"] + [""] * 24, ["B"] + [""] * 24).splitlines()[1] == \
        "≠  1 A                                        | B"


def test_typed_keys_are_c64tcs_and_the_run_line_clears_the_screen() -> None:
    assert tool.typed_keys("ab|1") == [0x41, 0x42, 0x0D, 0x31, 0x0D]
    keys = tool.boot_keys("p")
    assert bytes(keys) == b'LOAD"P",8\r?"\x93";:RUN\r'


def test_plan_settings_are_checked(tmp_path: Path) -> None:
    plan = tmp_path / "plan.toml"
    plan.write_text('[program.x]\nstop = "never"\n')
    with pytest.raises(tool.UserError, match="stop must be one of"):
        tool.load_plan(plan, tmp_path)
    plan.write_text('[program.x]\nspeed = 1\n')
    with pytest.raises(tool.UserError, match="unknown setting"):
        tool.load_plan(plan, tmp_path)
    plan.write_text('[program.x]\ndiffers = ["screen"]\n')
    with pytest.raises(tool.UserError, match="differs takes some of"):
        tool.load_plan(plan, tmp_path)


def test_stored_json_is_what_the_script_writes(tmp_path: Path) -> None:
    screen = tool.ViceScreen(bytes(range(200)) * 5, bytes([1]) * 1000, {"d018": 0x15}, (3, 4), "line",
                             1234, {"$C000-$C001": "ab"}, 0x0400, b"HI\r")
    entry = tool.Entry("x", tmp_path / "x.txt", input="5|", memory=((0xC000, 0xC001),))
    tool.save_measurement(tmp_path, entry, screen)
    stored = tool.load_measurement(tmp_path, "x")
    assert (stored.codes, stored.colours, stored.printer) == (screen.codes, screen.colours, b"HI\r")
    assert stored.rows == screen.rows()
    facts = json.loads((tmp_path / "x.vice.json").read_text())
    assert facts["cursor"] == [3, 4] and facts["vic"] == {"d018": "$15"} and facts["input"] == "5|"


class ScriptedVice:
    """Stands in for VICE: stops where the script says (which wait, in direct mode or
    not) and records what is typed into the keyboard buffer."""

    def __init__(self, script: list[tuple[str, bool]]) -> None:
        self.script = list(script)
        self.memory = bytearray(0x10000)
        self.memory[0xD018], self.memory[0xDD00] = 0x15, 0x97  # the screen at $0400
        self.memory[0x0400:0x07E8] = b"\x08\x09" + b" " * 998  # "HI"
        self.checkpoints: list[int] = []
        self.typed: list[bytes] = []
        self.now = 0

    def checkpoint(self, address: int, condition: str | None = None) -> int:
        self.checkpoints.append(address)
        return len(self.checkpoints)

    def run_until_stopped(self, deadline: float) -> object:
        where, direct = self.script.pop(0)
        self.memory[tool.MESSAGE_FLAG] = 0x80 if direct else 0
        self.now += 1000
        number = 1 + self.checkpoints.index({"editor": tool.EDITOR_WAITS, "get": tool.GETIN,
                                             "wait": tool.WAIT_LOOP, "irq": tool.IRQ_ENTRY}[where])
        return tool.Stopped([number], 0)

    def clock(self) -> int:
        return self.now

    def read(self, start: int, end: int, bank: str = "cpu") -> bytes:
        return bytes(self.memory[start : end + 1])

    def write(self, start: int, values: bytes) -> None:
        self.memory[start : start + len(values)] = values
        if start == tool.KEYBOARD_BUFFER:
            self.typed.append(values)


def test_keys_are_typed_when_the_c64_waits_for_them() -> None:
    vice = ScriptedVice([("editor", True), ("editor", True), ("irq", False), ("editor", False),
                         ("editor", False), ("get", False), ("wait", False), ("get", False)])
    screen = tool._measure(vice, True, "abcdefghijkl|m", "wait", 10**9, [], 60)
    # ten keys at most at a time, as the KERNAL's buffer holds; a line's rest when it waits again
    assert vice.typed == [b'LOAD"P",8\r', b'?"\x93";:RUN\r', b"ABCDEFGHIJ", b"KL\r", b"M", b"\r"]
    assert (screen.stop, screen.matrix, screen.rows()[0], screen.cycles) == ("key", 0x0400, "HI", 6000)


def test_the_screen_is_taken_back_at_ready_or_when_the_input_is_used_up() -> None:
    boot = [("editor", True), ("editor", True)]
    assert tool._measure(ScriptedVice(boot + [("editor", True)]), True, "1|", "wait", 10**9, [],
                         60).stop == "ready"  # the program ended: the rest is not typed
    assert tool._measure(ScriptedVice(boot + [("editor", False)]), True, "", "wait", 10**9, [],
                         60).stop == "line"
    polling = ScriptedVice(boot + [("get", False), ("irq", False)])
    assert tool._measure(polling, True, "", "cycles", 1500, [], 60).stop == "cycles"
    assert tool._measure(ScriptedVice([("editor", True)]), False, "", "wait", 10**9, [],
                         60).stop == "ready"  # the power-on screen


def test_the_data_loaders_machine_code_is_compared_with_the_dumps() -> None:
    shared_path("corpus", "mse", "derived", "8409_list-stop.bin")
    comparisons = [tool.compare(PLAN[name], tool.load_measurement(tool.CORPUS_DATA, name))
                   for name in ("8409_list-stop", "8507_merk-zettel_v2.0", "8504_ez_datum_l5")]
    assert tool.derived_report(comparisons).splitlines()[1:] == [
        "8409_list-stop             $9F00-$9FD4  the dump      same       same",
        # the listing pokes one byte after loading (POKE 49152+214,0: the text colour)
        "8507_merk-zettel_v2.0      $C000-$C107  other bytes   same       same"]
