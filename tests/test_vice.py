"""VICE integration: command lines and monitor files (always), and real runs of
x64sc when it is installed ($C64TC_VICE or the PATH; skipped otherwise)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import DATA, REPO
from toolchain import vice
from toolchain.basic import tokenize
from toolchain.c64.machine import C64
from toolchain.c64.run import Keyboard, program_from_prg, run_program
from toolchain.c64.screen import screen_codes_to_text
from toolchain.cli import main
from toolchain.diagnostics import UserError
from toolchain.disk import Prg, d64
from toolchain.verify import nikolaus

SUPERHIRN = (DATA / "superhirn2-mse.bin").read_bytes()[:-1]
NIKOLAUS = (DATA / "nikolaus.petcat.prg").read_bytes()
SEED_DIALOGUE = "1|1|0|0|1|2|1|2|3|0|4"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "sh.prg").write_bytes(SUPERHIRN)
    (tmp_path / "nik.prg").write_bytes(NIKOLAUS)
    disk = tmp_path / "seeds.d64"
    d64.create(disk, "c64tc seeds", "64")
    d64.add(disk, "superhirn ii", SUPERHIRN)
    d64.add(disk, "nikolaus", NIKOLAUS)
    (tmp_path / "sh.labels").write_text("al C:3400 .start\nal C:35df .text\n")
    return {"prg": tmp_path / "sh.prg", "basic": tmp_path / "nik.prg", "disk": disk,
            "labels": tmp_path / "sh.labels", "x64sc": tmp_path / "bin" / "x64sc"}


# -- how programs are started ---------------------------------------------------------------

def test_machine_code_prg_is_loaded_and_started_with_sys(files: dict[str, Path]) -> None:
    target = vice.target_for(files["prg"])
    assert (target.load_address, target.sys_address, target.is_basic) == (0x3400, 13312, False)
    commands = vice.monitor_commands(target, SEED_DIALOGUE, [(".start", 0x3400), (".text", 0x35DF)])
    assert commands.splitlines() == [
        "al C:3400 .start", "al C:35df .text", f'l "{files["prg"].resolve()}" 0',
        r"keybuf sys13312\n1\n1\n0\n0\n1\n2\n1\n2\n3\n0\n4\n", "x"]
    line = vice.command_line(Path("/opt/x64sc"), target, Path("/t/c.mon"), warp=True)
    assert line == ["/opt/x64sc", "-warp", "-initbreak", "0xa474", "-moncommands", "/t/c.mon"]


def test_basic_prg_is_loaded_from_a_disk_and_run_as_typed(files: dict[str, Path],
                                                           tmp_path: Path) -> None:
    target = vice.on_disk(vice.target_for(files["basic"]), tmp_path)
    assert target.is_basic and target.is_disk and target.program == "NIK"
    assert d64.extract(target.path, "nik") == NIKOLAUS
    assert vice.monitor_commands(target, "5|") == 'keybuf load"nik",8\\nrun\\n5\\n\nx\n'
    line = vice.command_line(Path("/opt/x64sc"), target, Path("/t/c.mon"))
    assert line[1:3] == ["-8", str(target.path)]


def test_machine_code_on_a_disk_is_loaded_as_typed(files: dict[str, Path]) -> None:
    target = vice.target_for(files["disk"], "superhirn ii")
    assert target.sys_address == 13312 and target.program == "SUPERHIRN II"
    assert r'keybuf load"superhirn ii",8,1\nsys13312\n' in vice.monitor_commands(target)
    line = vice.command_line(Path("/opt/x64sc"), target, Path("/t/c.mon"))
    assert line[1:3] == ["-8", str(files["disk"])]
    basic = vice.target_for(files["disk"], "nikolaus")
    assert vice.on_disk(basic, Path("/unused")) == basic
    assert r'keybuf load"nikolaus",8\nrun\n' in vice.monitor_commands(basic)
    with pytest.raises(UserError, match="is not on the disk"):
        vice.target_for(files["disk"], "missing")


def test_headless_check_saves_the_screen_from_the_irq_handler(files: dict[str, Path]) -> None:
    target = vice.target_for(files["prg"])
    commands = vice.monitor_commands(target, "4", screen_file=Path("/tmp/s p/screen.bin"))
    assert commands.splitlines()[-3:] == [
        "break $ea31", r'command 2 "s \"/tmp/s p/screen.bin\" 0 0400 07e7"', "x"]
    line = vice.command_line(Path("/opt/x64sc"), target, Path("/t/c.mon"), headless_cycles=1000)
    assert line[:5] == ["/opt/x64sc", "-default", "+sound", "-limitcycles", "1000"] and "-warp" in line


def test_vice_data_folder_of_an_uninstalled_build(tmp_path: Path) -> None:
    (tmp_path / "vice" / "src").mkdir(parents=True)
    (tmp_path / "vice" / "data" / "C64").mkdir(parents=True)
    assert vice.data_directory(tmp_path / "vice" / "src" / "x64sc") == tmp_path / "vice" / "data"


def test_missing_vice_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch, files: dict[str, Path]) -> None:
    monkeypatch.delenv(vice.EMULATOR_ENV, raising=False)
    monkeypatch.setenv("PATH", str(files["prg"].parent))
    result = CliRunner().invoke(main, ["vice", str(files["prg"])])
    assert result.exit_code == 1
    assert "x64sc was not found" in result.output and "--enable-headlessui" in result.output
    assert "Traceback" not in result.output


def test_labels_for_vices_monitor_are_read_as_the_monitor_reads_them(
        monkeypatch: pytest.MonkeyPatch, files: dict[str, Path]) -> None:
    """--labels takes a VICE label file or a symbol table (as `monitor --labels` does),
    and a bad line is an error with its place before VICE is looked for."""
    symbols = files["prg"].parent / "sh.symbols"
    symbols.write_text("start      $3400  label\ntext       $35DF  label\n")
    given: dict[str, object] = {}

    def headless(emulator: Path, target: vice.Target, typed: str, cycles: int, labels: object = None,
                 **_: object) -> None:
        given["labels"] = labels
        raise UserError.single("x64sc", "not run in this test")

    monkeypatch.setattr(vice, "find_emulator", lambda name: Path("x64sc"))
    monkeypatch.setattr(vice, "run_headless", headless)
    result = CliRunner().invoke(main, ["vice", "--check", str(files["prg"]), "--labels", str(symbols)])
    assert given["labels"] == [(".start", 0x3400), (".text", 0x35DF)], result.output
    bad = files["prg"].parent / "bad.labels"
    bad.write_text("al C:3400 .start\nal C:zz .text\n")
    result = CliRunner().invoke(main, ["vice", "--check", str(files["prg"]), "--labels", str(bad)])
    assert result.exit_code == 1 and result.output.startswith(f"{bad}:2:"), result.output


def test_keys_end_each_line_with_return() -> None:
    assert vice._keys("1|2") == r"1\n2\n" and vice._keys("a\nb\n") == r"a\nb\n" and vice._keys("") == ""


def test_compare_in_order_and_whole_screen() -> None:
    screen = ["1234", "OK", "READY."] + [""] * 22
    assert vice.compare(screen, ["1234", "OK"], None) == []
    assert vice.compare(screen, ["OK", "1234"], None) == [
        "expected '1234' after the previous expected text, not found"]
    assert vice.compare(screen, [], ["1234", "OK", "READY."]) == []
    assert vice.compare(screen, [], ["1234", "NO"]) == ["row 2: expected 'NO', got 'OK'",
                                                        "row 3: expected '', got 'READY.'"]


def test_screen_memory_decodes_like_the_machine_model() -> None:
    machine = C64(Keyboard(SEED_DIALOGUE))
    machine.load(Prg.from_bytes(SUPERHIRN))
    machine.sys(0x3400)
    memory = machine.screen.codes()
    rows = [screen_codes_to_text(memory[r * 40 : (r + 1) * 40]).rstrip() for r in range(25)]
    assert rows == machine.screen.text_rows()


# -- real runs ----------------------------------------------------------------------------------

def _x64sc() -> str:
    found = os.environ.get(vice.EMULATOR_ENV) or shutil.which("x64sc")
    if not found:
        pytest.skip(f"VICE's x64sc is not installed (set {vice.EMULATOR_ENV} to run these tests)")
    return found


def _our_screen() -> list[str]:
    machine = C64(Keyboard(SEED_DIALOGUE))
    machine.load(Prg.from_bytes(SUPERHIRN))
    machine.sys(0x3400)
    return machine.screen.text_rows()


@pytest.mark.parametrize("how", ["prg", "disk"])
def test_superhirn_in_vice_shows_what_our_emulator_shows(files: dict[str, Path], how: str) -> None:
    emulator = Path(_x64sc())
    target = vice.target_for(files[how], "superhirn ii" if how == "disk" else None)
    result = vice.run_headless(emulator, target, SEED_DIALOGUE, 30_000_000)
    ours = [row for row in _our_screen() if row]
    assert ours[-1] == "OK"
    theirs = result.screen[: len(ours)]
    assert theirs == ours  # 1234 ... 3436, the answers as typed, OK
    assert "READY." in result.screen[len(ours) :]


def test_cli_check_exit_status(files: dict[str, Path]) -> None:
    _x64sc()
    ok = CliRunner().invoke(main, ["vice", "--check", str(files["prg"]), "--input", SEED_DIALOGUE,
                                   "--max-cycles", "25000000", "--expect", "3436", "--expect", "OK"])
    assert ok.exit_code == 0, ok.output
    bad = CliRunner().invoke(main, ["vice", "--check", str(files["prg"]), "--input", SEED_DIALOGUE,
                                    "--max-cycles", "25000000", "--expect", "ERROR"])
    assert bad.exit_code == 1 and "mismatch: expected 'ERROR'" in bad.output


def test_nikolaus_model_finds_the_blogs_44() -> None:
    solutions = nikolaus.solutions()
    assert len(solutions) == 44 and solutions[0] == [1, 2, 3, 1, 4, 3, 5, 4, 2]


@pytest.mark.slow
def test_nikolaus_in_vice_prints_the_models_first_solutions(files: dict[str, Path]) -> None:
    """About 41 minutes of C64 time (3.5 minutes in VICE's warp mode)."""
    emulator = Path(_x64sc())
    target = vice.target_for(files["disk"], "nikolaus")
    result = vice.run_headless(emulator, target, "", 2_400_000_000)
    # print "loesung"c"{left}:"; then str$(k(j)); for each corner: {left} undoes the
    # cursor-right that follows a printed number
    expected = nikolaus.screen_lines(nikolaus.solutions()[:2])
    on_vice = [row.rstrip() for row in result.screen if row.startswith("LOESUNG")]
    assert on_vice[:2] == expected
    # and the BASIC runner shows the same rows, from the same PRG bytes
    _, machine = run_program(program_from_prg(Prg.from_bytes(NIKOLAUS), "nikolaus"))
    ours = [row for row in machine.screen.transcript().splitlines() if row.startswith("LOESUNG")]
    assert ours[: len(on_vice)] == on_vice


def test_basic_prg_with_typed_input_in_vice_shows_what_the_runner_shows(tmp_path: Path) -> None:
    """The typed answers follow LOAD and RUN in the keyboard queue (Mastermind 3x3,
    the document's example scored the standard way)."""
    emulator = Path(_x64sc())
    source = REPO / "sources" / "mastermind.bas"
    prg = tokenize([(str(source), source.read_text())])[0]
    (tmp_path / "mastermind.prg").write_bytes(prg.to_bytes())
    typed = "3|3|--|++|+|+++|"
    result = vice.run_headless(emulator, vice.target_for(tmp_path / "mastermind.prg"), typed, 60_000_000)
    _, machine = run_program(program_from_prg(prg, "mastermind"), Keyboard(typed))
    ours = [row.rstrip() for row in machine.screen.text_rows() if row.strip()]
    run_row = result.screen.index("RUN")
    assert [row for row in result.screen[run_row + 1 :] if row] == ours
    assert "SOLVED IN 4 GUESSES" in ours
