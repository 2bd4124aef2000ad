"""c64tc's sound against VICE's: the programs of tests/sound_programs.py, recorded by
``c64tc run --audio`` (reSIDfp, the 8580) and measured as VICE's recordings were
(reSID, the 8580: tests/data/sound/vice-8580.json): the sound's length within 2%, the
dominant frequency within 1% (and where the program plays one tone, that tone:
Fn x 985248 / 2^24 Hz), the RMS per 10 ms correlated at least 0.9, and for noise and
the filter the spectral centroid within 10%."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.sound_analysis import Measurement, correlation, measure, pal_frequency
from tests.sound_programs import PROGRAMS, SID_MODEL, SoundProgram, measured_file
from toolchain.cli import main
from toolchain.sound import read_wav

pytest.importorskip("pyresidfp._pyresidfp", reason="the sound engine (pyresidfp) is not installed")

MODELS = (SID_MODEL, "6581")  # every program on the 8580; the filter and a few tones on the 6581 too
MEASURED = {model: json.loads(measured_file(model).read_text()) for model in MODELS}


def record_in_c64tc(program: SoundProgram, folder: Path, model: str = SID_MODEL,
                    extra: tuple[str, ...] = ()) -> Measurement:
    path = folder / f"{program.name}.prg"
    path.write_bytes(program.prg())
    wav = folder / f"{program.name}.wav"
    arguments = ["run", str(path), "--audio", str(wav), "--sid-model", model, *extra]
    if not program.basic:
        arguments += ["--sys", "49152"]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 0, result.output
    sound = read_wav(wav)
    return measure(sound.samples, sound.rate)


def comparison(name: str, folder: Path, model: str = SID_MODEL,
               extra: tuple[str, ...] = ()) -> dict[str, float]:
    """The figures of the comparison for one program (``extra``: options for c64tc run)."""
    program, vice = PROGRAMS[name], MEASURED[model][name]
    assert vice["digest"] == program.digest(), f"{name}: the program changed since VICE measured it"
    ours = record_in_c64tc(program, folder, model, extra)
    # the envelopes aligned at the sound's start (each kept from 10 windows before it)
    return {"length": ours.windows / vice["windows"],
            "dominant": ours.dominant_hz / vice["dominant_hz"],
            "envelope": correlation(ours.envelope, vice["envelope"]),
            "centroid": ours.centroid_hz / vice["centroid_hz"] if vice["centroid_hz"] else 0.0,
            "ours_hz": ours.dominant_hz, "vice_hz": vice["dominant_hz"]}


def check(figures: dict[str, float], program: SoundProgram, envelope: bool = True) -> None:
    assert abs(figures["length"] - 1) <= 0.02, figures
    if program.dominant:
        assert abs(figures["dominant"] - 1) <= 0.01, figures
    if program.frequency is not None:
        assert abs(figures["ours_hz"] / pal_frequency(program.frequency) - 1) <= 0.01, figures
    if envelope:
        assert figures["envelope"] >= 0.9, figures
    if program.centroid:
        assert abs(figures["centroid"] - 1) <= 0.10, figures


@pytest.mark.parametrize(("model", "name"), [(model, name) for model in MODELS
                                             for name in sorted(MEASURED[model]) if not PROGRAMS[name].basic])
def test_the_sound_matches_vices(model: str, name: str, tmp_path: Path) -> None:
    check(comparison(name, tmp_path, model), PROGRAMS[name])


def test_a_melody_from_basic_in_rom_matches_vices(tmp_path: Path) -> None:
    """BASIC itself (the ROM's interpreter on the 6502 core, --boot) times the POKEs as
    on VICE."""
    from tests.conftest import c64_rom_folder

    figures = comparison("melody", tmp_path, extra=("--boot", "--roms", str(c64_rom_folder())))
    check(figures, PROGRAMS["melody"])


def test_a_melody_from_compiled_basic_matches_vices_length_and_pitch(tmp_path: Path) -> None:
    """The compiled runner's POKEs reach the SID at its clock's cycles: a statement
    group is a millisecond of the C64's time, where the ROM's interpreter takes 40 ms for
    the melody's line 55 (six POKEs with expressions).  The chords start that much
    sooner after their jiffy (the tempo, kept by TI, is the same), so the envelope
    waits for the C64's own clock in the runner (the time issue)."""
    check(comparison("melody", tmp_path), PROGRAMS["melody"], envelope=False)


if __name__ == "__main__":  # the comparison's figures, program by program
    import sys
    import tempfile

    for model in MODELS:
        for name in sorted(MEASURED[model]):
            with tempfile.TemporaryDirectory() as folder:
                extra: tuple[str, ...] = ()
                if "--rom-basic" in sys.argv and PROGRAMS[name].basic:
                    from tests.conftest import c64_rom_folder

                    extra = ("--boot", "--roms", str(c64_rom_folder()))
                figures = comparison(name, Path(folder), model, extra)
            print(f"{model} {name:12} length {figures['length']:.3f}  dominant {figures['dominant']:.4f} "
                  f"({figures['ours_hz']:.1f} Hz, VICE {figures['vice_hz']:.1f})  "
                  f"envelope {figures['envelope']:.3f}  centroid {figures['centroid']:.3f}")
