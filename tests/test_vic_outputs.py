"""The VIC-II's frames as files: ``run --screenshot`` (the final frame),
``--screenshot-every`` (numbered frames), ``--film`` (an animated GIF or APNG of every
frame), ``c64tc screen --memory`` (saved memory drawn as the VIC-II draws it).  The
frames compared are VICE's (tests/data/vic, see test_vic_frames.py)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image, ImageSequence

from tests.conftest import c64_rom_folder, c64_roms
from tests.test_vic_frames import START, program_bytes, reference_frame
from toolchain.cli import main
from toolchain.display.png import FRAME_MILLISECONDS, Film, _durations, frame_image

pytestmark = pytest.mark.vice_roms


def program_file(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.prg"
    path.write_bytes(program_bytes(name))
    return path


def run(arguments: list[str]) -> str:
    result = CliRunner().invoke(main, ["run", *arguments])
    assert result.exit_code == 2, result.output  # the programs loop until the cycle limit
    return result.output


def test_run_screenshot_is_vices_frame(tmp_path: Path) -> None:
    """A split screen of text and bitmap (register writes in the frame) as VICE shows it."""
    shot = tmp_path / "split.png"
    run([str(program_file(tmp_path, "split-modes")), "--sys", str(START), "--max-cycles", "300000",
         "--roms", str(c64_rom_folder()), "--screenshot", str(shot)])
    with Image.open(shot) as picture:
        assert picture.mode == "P" and picture.size == (384, 272)
        assert picture.tobytes() == reference_frame("split-modes")


def test_screenshot_every_writes_numbered_frames(tmp_path: Path) -> None:
    """Every 100,000 cycles a picture; the later ones show the finished picture."""
    shot = tmp_path / "sprites.png"
    run([str(program_file(tmp_path, "sprites")), "--sys", str(START), "--max-cycles", "350000",
         "--roms", str(c64_rom_folder()), "--screenshot", str(shot), "--screenshot-every", "100000"])
    numbered = sorted(path.name for path in tmp_path.glob("sprites-*.png"))
    assert numbered == ["sprites-0001.png", "sprites-0002.png", "sprites-0003.png"]
    for name in numbered[1:]:
        with Image.open(tmp_path / name) as picture:
            assert picture.tobytes() == reference_frame("sprites")


@pytest.mark.parametrize("suffix", [".gif", ".png"])
def test_film_holds_every_frame(tmp_path: Path, suffix: str) -> None:
    """The film of a run: its frames decode to the palette indices drawn, each lasting its
    time; the last is VICE's picture; a still screen is one frame however long."""
    film = tmp_path / f"film{suffix}"
    run([str(program_file(tmp_path, "charset-ram")), "--sys", str(START), "--max-cycles", "200000",
         "--roms", str(c64_rom_folder()), "--film", str(film)])
    with Image.open(film) as animation:
        frames = [frame.convert("RGB").tobytes() for frame in ImageSequence.Iterator(animation)]
        durations = [frame.info.get("duration") for frame in ImageSequence.Iterator(animation)]
    expected = frame_image(reference_frame("charset-ram")).convert("RGB").tobytes()
    assert frames[-1] == expected
    assert 2 <= len(frames) <= 12  # the picture being set up, then still
    assert abs(sum(durations) - 200000 / 985248 * 1000) < 2 * FRAME_MILLISECONDS


def test_film_durations_add_up_to_the_c64s_time() -> None:
    """GIF counts hundredths: the rounded durations never drift from the C64's clock."""
    durations = _durations([1] * 500, FRAME_MILLISECONDS, 10)
    assert set(durations) <= {10, 20, 30}
    running = 0
    for count, duration in enumerate(durations, start=1):
        running += duration
        assert abs(running - count * FRAME_MILLISECONDS) <= 10


def test_film_keeps_a_still_picture_as_one_frame() -> None:
    film = Film()
    frame = reference_frame("blank")
    for _ in range(50):
        film.add(frame)
    film.add(reference_frame("text"))
    assert len(film) == 51 and film.lengths == [50, 1]


def test_film_refuses_other_files(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["run", str(program_file(tmp_path, "blank")), "--sys", str(START),
                                       "--film", str(tmp_path / "film.avi")])
    assert result.exit_code == 2 and "a film is a .gif or .png (APNG) file" in result.output


def saved_machine(tmp_path: Path, name: str) -> dict[str, Path]:
    """Run ``name`` and save what VICE's monitor would: all RAM, the VIC-II's registers
    and colour RAM, as PRG files."""
    from toolchain.c64.machine import C64
    from toolchain.c64.run import Session, program_from_prg
    from toolchain.disk.prg import Prg

    machine = C64(roms=c64_roms())
    program = program_from_prg(Prg.from_bytes(program_bytes(name), name), name, START)
    Session(program, machine=machine).run(max_cycles=300_000)
    files = {"memory": tmp_path / "ram.prg", "registers": tmp_path / "vic.prg",
             "colours": tmp_path / "col.prg"}
    files["memory"].write_bytes(b"\x00\x00" + bytes(machine.memory[:0xD000]))
    files["registers"].write_bytes(b"\x00\xd0" + bytes(machine.io.vic.registers[:47]))  # type: ignore[attr-defined]
    files["colours"].write_bytes(b"\x00\xd8" + bytes(machine.memory[0xD800:0xDBE8]))
    return files


@pytest.mark.parametrize("name", ["sprites", "bitmap-multicolour", "charset-ram"])
def test_screen_draws_saved_memory_as_vice_showed_it(tmp_path: Path, name: str) -> None:
    from toolchain.cli.screen import screen_command

    files = saved_machine(tmp_path, name)
    out = tmp_path / "out.png"
    result = CliRunner().invoke(screen_command, ["--memory", str(files["memory"]), "--registers",
                                                 str(files["registers"]), "--colours", str(files["colours"]),
                                                 "--roms", str(c64_rom_folder()), "-o", str(out)])
    assert result.exit_code == 0, result.output
    with Image.open(out) as picture:
        assert picture.tobytes() == reference_frame(name)


def test_screen_memory_errors_are_messages(tmp_path: Path) -> None:
    from toolchain.cli.screen import screen_command

    short = tmp_path / "vic.bin"
    short.write_bytes(bytes(20))
    ram = tmp_path / "ram.bin"
    ram.write_bytes(bytes(65536))
    result = CliRunner().invoke(screen_command, ["--memory", str(ram), "--registers", str(short)])
    assert result.exit_code == 1 and "vic.bin: error: 20 bytes is not a dump of the VIC-II's registers" \
        in result.output
    past = tmp_path / "past.prg"
    past.write_bytes(b"\xff\xff" + bytes(4))
    result = CliRunner().invoke(screen_command, ["--memory", str(past)])
    assert result.exit_code == 1 and "goes past $FFFF" in result.output
    result = CliRunner().invoke(screen_command, [])
    assert result.exit_code == 2 and "give SCREEN_FILE" in result.output


def test_a_film_keeps_at_most_its_limit_of_different_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run as long as the user likes makes a film of bounded size: past MAX_FILM_FRAMES
    different frames the film is full (and run warns), a still frame still lengthens
    the last one, and the frames kept decode to what was added."""
    import toolchain.display.png as png

    monkeypatch.setattr(png, "MAX_FILM_FRAMES", 3)
    film = Film()
    frames = [reference_frame(name) for name in ("blank", "text", "sprites", "ecm")]
    for frame in frames:
        film.add(frame)
    assert film.full and film.lengths == [1, 1, 1]
    film.add(frames[2])  # the last frame kept, shown longer: not a new frame
    assert film.lengths == [1, 1, 2]
    with Image.open(io.BytesIO(film.encode("GIF"))) as animation:
        kept = [frame.convert("RGB").tobytes() for frame in ImageSequence.Iterator(animation)]
    assert kept == [frame_image(frame).convert("RGB").tobytes() for frame in frames[:3]]
