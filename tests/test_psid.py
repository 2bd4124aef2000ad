"""SID tunes (PSID/RSID files) made here: the header read as the format says, init
called once with the song number, play called from the interrupt the speed bit names
(the SID writes' cycles: 19,656 apart for the raster interrupt, a PAL frame; 16,422 for
CIA 1's timer A at the KERNAL's $4025), the RAM under the ROMs banked in, and the
command line around it."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolchain.asm.assembler import assemble
from toolchain.c64.chips import CYCLES_PER_FRAME
from toolchain.c64.machine import C64
from toolchain.cli import main
from toolchain.diagnostics import UserError
from toolchain.inputs import Kind, classify
from toolchain.sound.psid import PAL_TIMER, SidTune, bank_for, driver_page, load_tune, parse_tune

INIT_MARK, PLAY_COUNT, BANK_MARK = 0x0E, 0x01, 0x0F  # SID registers the test tune writes


def tune_code(load: int) -> bytes:
    """init stores the song number (A) in $D40E and the processor port in $D40F; play
    counts in $D401."""
    program = assemble(f"""*= ${load:04x}
 jmp init
 jmp play
init sta $d400+{INIT_MARK}
 lda $01
 sta $d400+{BANK_MARK}
 lda #$0f
 sta $d418
 rts
play inc count
 lda count
 sta $d400+{PLAY_COUNT}
 rts
count .byt 0
""")
    return program.image


def header(magic: bytes = b"PSID", version: int = 2, load: int = 0x1000, init: int = 0x1000,
           play: int = 0x1003, songs: int = 3, start: int = 2, speed: int = 0, flags: int = 0x14,
           start_page: int = 0, title: bytes = b"Test tune") -> bytes:
    offset = 0x76 if version == 1 else 0x7C
    data = magic + struct.pack(">HHHHHHHI", version, offset, load, init, play, songs, start, speed)
    data += title.ljust(32, b"\0") + b"c64tc".ljust(32, b"\0") + b"2025 tests".ljust(32, b"\0")
    if version > 1:
        data += struct.pack(">HBBBB", flags, start_page, 0, 0, 0)
    return data


def sid_file(load: int = 0x1000, **fields: int | bytes) -> bytes:
    return header(load=load, init=fields.pop("init", load), play=fields.pop("play", load + 3),  # type: ignore[arg-type]
                  **fields) + tune_code(load)  # type: ignore[arg-type]


def play_writes(data: bytes, song: int, cycles: int = 12 * CYCLES_PER_FRAME) -> list[tuple[int, int, int]]:
    """The SID writes of the tune in ``data`` played for ``cycles``."""
    tune = parse_tune(data, "test.sid")
    machine = C64()
    start = load_tune(machine, tune, song)
    log: list[tuple[int, int, int]] = []
    machine.io.sid.write_log = log  # type: ignore[attr-defined]
    machine.cpu.pc = start
    machine.run(cycles)
    return log


def test_the_header_is_read_as_the_format_says() -> None:
    tune = parse_tune(sid_file(speed=0b10, flags=0x24), "test.sid")
    assert (tune.magic, tune.version, tune.load, tune.init, tune.play) == ("PSID", 2, 0x1000, 0x1000, 0x1003)
    assert (tune.songs, tune.start_song, tune.title, tune.author, tune.released) == (
        3, 2, "Test tune", "c64tc", "2025 tests")
    assert (tune.clock, tune.sid_model) == ("PAL", "8580")
    assert not tune.uses_cia(1) and tune.uses_cia(2) and not tune.uses_cia(3)
    # a load address of 0: the data's first two bytes are it, as in a PRG; init 0 is the load address
    data = header(load=0, init=0, play=0x2003) + b"\x00\x20" + tune_code(0x2000)
    tune = parse_tune(data, "test.sid")
    assert (tune.load, tune.init, tune.end) == (0x2000, 0x2000, 0x2000 + len(tune_code(0x2000)))
    # songs past 32 share bit 31
    assert SidTune.uses_cia(parse_tune(sid_file(songs=40, speed=1 << 31), "x"), 40)
    v1 = header(version=1) + tune_code(0x1000)
    assert parse_tune(v1, "v1.sid").flags == 0


def test_init_is_called_once_with_the_song_and_play_every_frame() -> None:
    log = play_writes(sid_file(), song=2)
    inits = [(cycle, value) for cycle, register, value in log if register == INIT_MARK]
    assert [value for _, value in inits] == [1]  # song 2: A = 1
    plays = [(cycle, value) for cycle, register, value in log if register == PLAY_COUNT]
    assert [value for _, value in plays] == list(range(1, len(plays) + 1)) and len(plays) >= 10
    assert all(cycle > inits[0][0] for cycle, _ in plays)
    gaps = [later - earlier for (earlier, _), (later, _) in zip(plays, plays[1:], strict=False)]
    # the raster interrupt at line 0 of each frame; the handler starts within an
    # instruction of it (the idle loop's JMP takes 3 cycles)
    assert all(abs(gap - CYCLES_PER_FRAME) <= 3 for gap in gaps), gaps
    assert abs((plays[-1][0] - plays[0][0]) / len(gaps) - CYCLES_PER_FRAME) < 1


def test_the_speed_bit_plays_from_cia_1s_timer() -> None:
    log = play_writes(sid_file(speed=0b10), song=2)
    plays = [cycle for cycle, register, _ in log if register == PLAY_COUNT]
    gaps = [later - earlier for earlier, later in zip(plays, plays[1:], strict=False)]
    assert len(plays) >= 12 and all(abs(gap - (PAL_TIMER + 1)) <= 3 for gap in gaps), gaps
    # the same tune's song 1 has its bit clear: the raster interrupt
    log = play_writes(sid_file(speed=0b10), song=1)
    plays = [cycle for cycle, register, _ in log if register == PLAY_COUNT]
    assert all(abs(later - earlier - CYCLES_PER_FRAME) <= 3 for earlier, later in zip(plays, plays[1:],
                                                                                        strict=False))


@pytest.mark.parametrize(("load", "bank"), [(0x1000, 0x37), (0xA000, 0x36), (0xE000, 0x35)])
def test_init_sees_the_ram_it_is_in(load: int, bank: int) -> None:
    log = play_writes(sid_file(load=load), song=1, cycles=3 * CYCLES_PER_FRAME)
    assert [value for _, register, value in log if register == BANK_MARK] == [bank]
    assert [value for _, register, value in log if register == PLAY_COUNT][:2] == [1, 2]  # under the ROM too
    assert bank_for(0xD000, 0xD100) == 0x34


def test_a_tune_without_play_runs_its_own_interrupt_handler() -> None:
    # init points $0314 at its handler; CIA 1's timer A interrupts (the driver enables it)
    program = assemble("""*= $1000
 lda #<irq
 sta $0314
 lda #>irq
 sta $0315
 rts
irq inc $d401
 lda $dc0d
 jmp $ea81
""")
    for magic in (b"PSID", b"RSID"):
        data = header(magic=magic, play=0, speed=0, flags=0) + program.image
        log = play_writes(data, song=1, cycles=10 * CYCLES_PER_FRAME)
        # (INC writes the old value back before the new one: a play is a new value; the
        # register starts at 0)
        counts = [(cycle, value) for cycle, register, value in log if register == PLAY_COUNT]
        plays = [cycle for (cycle, value), (_, before) in zip(counts, [(0, 0), *counts], strict=False)
                 if value != before]
        assert len(plays) >= 10, magic
        # CIA 1's timer A at the KERNAL's 60 Hz, as the C64 is after its reset
        assert all(abs(later - earlier - (PAL_TIMER + 1)) <= 8
                   for earlier, later in zip(plays, plays[1:], strict=False)), magic


def test_the_driver_goes_where_the_tune_leaves_room() -> None:
    assert driver_page(parse_tune(sid_file(), "x")) == 0x11  # after the tune: $1100-$9FFF is the largest
    assert driver_page(parse_tune(sid_file(start_page=0xC0), "x")) == 0xC0
    with pytest.raises(UserError, match="no free page"):
        driver_page(parse_tune(sid_file(start_page=0xFF), "x"))


@pytest.mark.parametrize(("data", "message"), [
    (b"PSID\x00", "too short"),
    (header(version=5) + b"\x00", "version 5"),
    (header(magic=b"RSID", version=1) + b"\x00", "version 1"),
    (header()[:0x70], "header alone"),
    (header(songs=0) + b"\x00", "0 songs"),
    (header(load=0xFFF0) + bytes(32), "run past $FFFF"),
    (header(flags=0x01) + b"\x00", "Sidplayer"),
    (header(), "no data"),
    (header(load=0) + b"\x01", "should start with it"),
    # (the run broke off with a message of the runner's, named <prg>: error: broken link ...)
    (header(magic=b"RSID", load=0x0801, flags=0x02) + bytes([0x0B, 0x08, 10, 0, 0x99, 0, 0, 0]),
     "a BASIC program .RUN., but its data .$0801-$0808. holds no BASIC lines"),
])
def test_a_broken_header_is_said_to_be(data: bytes, message: str) -> None:
    with pytest.raises(UserError, match=message.replace("$", r"\$")):
        parse_tune(data, "broken.sid")


@settings(derandomize=True, max_examples=200)
@given(st.binary(min_size=0, max_size=160))
@example(b"")
@example(bytes(0x7C))
def test_any_bytes_after_the_magic_are_a_tune_or_a_message(tail: bytes) -> None:
    for magic in (b"PSID", b"RSID"):
        try:
            tune = parse_tune(magic + tail, "fuzz.sid")
        except UserError:
            continue
        assert 1 <= tune.start_song <= tune.songs <= 256 and tune.end <= 0x10000


def test_the_file_kind_names_a_tune_and_other_commands_say_so(tmp_path: Path) -> None:
    path = tmp_path / "tune.sid"
    path.write_bytes(sid_file())
    kind = classify(path.read_bytes(), str(path))
    assert kind.kind is Kind.SID_TUNE and kind.phrase == 'a SID tune (PSID v2, "Test tune" by c64tc)'
    for command in (["list"], ["detok"], ["disasm"]):
        result = CliRunner().invoke(main, [*command, str(path)])
        assert result.exit_code == 1
        assert "is a SID tune (PSID v2" in result.output and f"c64tc run {path}` plays it" in result.output


def test_run_records_a_tune_as_long_as_asked(tmp_path: Path) -> None:
    pytest.importorskip("pyresidfp._pyresidfp", reason="the sound engine (pyresidfp) is not installed")
    from toolchain.sound import read_wav

    path, wav = tmp_path / "tune.sid", tmp_path / "tune.wav"
    path.write_bytes(sid_file())
    result = CliRunner().invoke(main, ["run", str(path), "--audio", str(wav), "--max-cycles", "985248"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Test tune\nby c64tc\n2025 tests\nPSID v2: song 2 of 3; $1000-")
    assert "played from the raster interrupt (50 Hz); SID 6581" in result.output  # the tune's model (flags)
    assert read_wav(wav).seconds == pytest.approx(1.0, abs=1 / 44100)
    result = CliRunner().invoke(main, ["run", str(path), "--song", "4", "--audio", str(wav)])
    assert result.exit_code == 2 and "--song 4: the tune has 3 songs" in result.output
    # no terminal and no --audio: nothing to play it on
    result = CliRunner().invoke(main, ["run", str(path)])
    assert result.exit_code == 1 and "give --audio FILE.wav to record the tune" in result.output


def test_an_rsid_basic_tune_is_run_with_its_song_in_780() -> None:
    from tests.sound_programs import SoundProgram
    from toolchain.cli.tune import _prepare

    basic = SoundProgram("tune", "10 pokes4272+14,peek(780)\n20 pokes4272+1,peek(781)+1:goto20\n".replace(
        "s4272", "54272"), basic=True).prg()
    data = header(magic=b"RSID", load=0, init=0, play=0, flags=0x02) + basic
    tune = parse_tune(data, "basic.sid")
    assert tune.is_basic and tune.load == 0x0801
    machine = C64()
    run, clock = _prepare(machine, tune, 3)
    log: list[tuple[int, int, int]] = []
    machine.io.sid.write_log = log  # type: ignore[attr-defined]
    result = run(2 * CYCLES_PER_FRAME)
    assert result.stop.name == "CYCLE_LIMIT"  # BASIC's time is the C64's (issue 22)
    assert log[0][1:] == (INIT_MARK, 2) and {value for _, register, value in log[1:]} == {3}
    assert clock() >= 2 * CYCLES_PER_FRAME - 1000  # the runner's clock ran the time asked for
