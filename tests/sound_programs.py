"""The sound programs c64tc's sound is compared with VICE's on (tests/test_sound_vice.py),
and how they were measured on VICE 3.10 (``python tests/sound_programs.py [--model 6581] [NAME ...]``
with x64sc on the PATH or in C64TC_VICE writes tests/data/sound/vice-8580.json, or
vice-6581.json, and the read-back screen tests/data/sound/readback.vice.txt).

Each program is ours: machine code at $C000 started by typing SYS49152, or a BASIC
program loaded from a disk and RUN, in a headless x64sc (its defaults: a PAL C64C
with the 8580) that records its sound with the reSID engine into a WAV file
(``c64tc vice --check --audio``: -sound -sounddev wav -sidengine 1 -sidmodel 1, 44.1
kHz mono, at the C64's speed: VICE writes no sound in warp mode).  The WAV runs from
the power-on to the cycle limit; what is kept of it is measured by
tests/sound_analysis.py (the sound's length, its dominant frequency and spectral
centroid, and its RMS per 10 ms from 100 ms before it to 100 ms after), too big to
keep as samples (about 90 KB a second).

The machine-code programs time their notes in frames (the raster's bit 8, $D011 bit 7,
rises once a frame: 50 a second), the BASIC ones by the jiffy clock TI, so the same
note lasts as long on both whatever a cycle costs.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

DATA = REPO / "tests" / "data" / "sound"
READBACK_SCREEN = DATA / "readback.vice.txt"
SID_MODEL = "8580"  # the programs' model (VICE's default); the 6581's filter is measured too


def measured_file(model: str = SID_MODEL) -> Path:
    return DATA / f"vice-{model}.json"
VICE_BOOT_SECONDS = 1.5  # the power-on's click and the boot are not the program's sound (READY. at 2.2 s)

# Clear the SID, then set it up (voice 1 unless said), play for FRAMES frames with the
# gate on, gate off, and let the release ring for RELEASE frames.
_HEAD = """*= $c000
 lda #0
 ldx #$18
clear sta $d400,x
 dex
 bpl clear
"""
_WAIT = """wait bit $d011
 bpl wait
waitb bit $d011
 bmi waitb
 dex
 bne wait
 rts
"""


def _tone(setup: dict[int, int], control: int, frames: int, release_frames: int, volume: int = 0x0F) -> str:
    """A note on voice 1: ``setup`` register -> value ($D400 + register), then the
    control register with the gate, held ``frames``, released for ``release_frames``."""
    lines = [_HEAD]
    for register, value in sorted(setup.items()):
        lines.append(f" lda #${value:02x}\n sta ${0xD400 + register:04x}\n")
    lines.append(f" lda #${volume:02x}\n sta $d418\n")
    lines.append(f" lda #${control | 1:02x}\n sta $d404\n ldx #{frames}\n jsr wait\n")
    lines.append(f" lda #${control:02x}\n sta $d404\n ldx #{release_frames}\n jsr wait\n")
    lines.append(" rts\n" + _WAIT)  # the volume stays: setting it to 0 clicks
    return "".join(lines)


def _frequency(register: int) -> dict[int, int]:
    return {0x00: register & 0xFF, 0x01: register >> 8}


TRIANGLE, SAWTOOTH, PULSE, NOISE = 0x10, 0x20, 0x40, 0x80
SUSTAIN_FULL = {0x05: 0x00, 0x06: 0xF0}  # attack 2 ms, sustain at the top, release 6 ms

# a melody of eight three-voice chords (triangle, sawtooth, pulse); a chord starts every
# 18 jiffies, on the jiffy clock's tick (the tempo is kept by TI: BASIC's own time
# between the chords does not add up), its gates on for 15.  Every note is a multiple of
# 100 Hz (the frequency registers Fn = f x 2^24 / 985248, rounded): a 10 ms window then
# holds whole periods of each voice and of their differences, so the RMS per 10 ms does
# not depend on the voices' phases (which the C64 leaves wherever they were)
MELODY = """10 s=54272:fori=0to24:pokes+i,0:next
20 pokes+24,15:pokes+17,8
30 fori=0to2:pokes+i*7+5,9:pokes+i*7+6,160:next
40 w=ti+2
45 ifti<wthen45
50 fort=1to8:reada,b,c
55 pokes,aand255:pokes+1,a/256:pokes+7,band255:pokes+8,b/256:pokes+14,cand255:pokes+15,c/256
60 pokes+4,17:pokes+11,33:pokes+18,65
70 w=w+15
80 ifti<wthen80
90 pokes+4,16:pokes+11,32:pokes+18,64
100 w=w+3
110 ifti<wthen110
120 next
140 data 3406,5109,6811,5109,6811,8514,6811,8514,10217,3406,6811,10217
150 data 5109,8514,13623,6811,10217,13623,3406,5109,8514,3406,6811,13623
"""

# voice 3 read back in BASIC loops: the envelope at each sustain level (attack and decay
# 2 ms and 6 ms, release 6 ms: read 50 ms after the gate changes), and the oscillator of
# each waveform (combinations too) with the accumulators held at 0 by the test bit and
# the frequency 0, the pulse width 0
READBACK = """5 print"{clr}";
10 s=54272:fori=0to24:pokes+i,0:next
20 pokes+24,15:pokes+19,0
30 fori=0to15:pokes+20,i*16
40 pokes+18,17:w=ti+3
50 ifti<wthen50
60 a=peek(s+28):pokes+18,16:w=ti+3
70 ifti<wthen70
80 printi;a;peek(s+28):next
90 forv=1to15:pokes+18,v*16+8:pokes+18,v*16
100 printv;peek(s+27);:next
110 print:pokes+24,0
"""


@dataclass(frozen=True)
class SoundProgram:
    name: str
    text: str  # assembler source (machine code at $C000) or a BASIC listing
    basic: bool = False
    frequency: int | None = None  # the voice's frequency register when one tone sounds
    centroid: bool = False  # compare the spectral centroid (noise, the filter)
    dominant: bool = True  # compare the dominant frequency
    what: str = ""

    @property
    def suffix(self) -> str:
        return ".bas" if self.basic else ".asm"

    def prg(self) -> bytes:
        """The program as a PRG file's bytes."""
        if self.basic:
            from toolchain.basic.tokenizer import C64_BASIC_START, link, tokenize_lines

            return C64_BASIC_START.to_bytes(2, "little") + link(tokenize_lines(self.text, self.name))
        from toolchain.asm.assembler import assemble

        program = assemble(self.text, self.name)
        return program.start.to_bytes(2, "little") + program.image

    def digest(self) -> str:
        """A fingerprint of the program's bytes: a measurement belongs to the program it was made with."""
        return hashlib.sha256(self.prg()).hexdigest()[:12]


PROGRAMS = {program.name: program for program in (
    SoundProgram("triangle", _tone({**_frequency(0x1D45), **SUSTAIN_FULL}, TRIANGLE, 50, 10),
                 frequency=0x1D45, what="440 Hz triangle for a second"),
    SoundProgram("sawtooth", _tone({**_frequency(0x1167), **SUSTAIN_FULL}, SAWTOOTH, 50, 10),
                 frequency=0x1167, what="261.6 Hz (C4) sawtooth for a second"),
    SoundProgram("pulse", _tone({**_frequency(0x0EA3), 0x02: 0x00, 0x03: 0x08, **SUSTAIN_FULL}, PULSE, 50,
                                10),
                 frequency=0x0EA3, what="220 Hz square wave (pulse width $800) for a second"),
    SoundProgram("adsr", _tone({**_frequency(0x15F3), 0x05: 0x8A, 0x06: 0x89}, TRIANGLE, 75, 75),
                 frequency=0x15F3, what="330 Hz triangle: attack 100 ms, decay 750 ms to sustain 8, "
                 "release 750 ms"),
    SoundProgram("noise", _tone({**_frequency(0x4000), **SUSTAIN_FULL}, NOISE, 50, 10), centroid=True,
                 what="noise (frequency $4000) for a second"),
    SoundProgram("filter", _tone({**_frequency(0x0751), **SUSTAIN_FULL, 0x15: 0x00, 0x16: 0x30, 0x17: 0xF1},
                                 SAWTOOTH, 50, 10, volume=0x1F),
                 frequency=0x0751, centroid=True,
                 what="110 Hz sawtooth through the low-pass filter, cutoff $180, resonance 15"),
    SoundProgram("filter-band", _tone({**_frequency(0x06A7), **SUSTAIN_FULL, 0x15: 0x00, 0x16: 0x60,
                                       0x17: 0x81}, SAWTOOTH, 50, 10, volume=0x2F),
                 centroid=True, dominant=False,
                 what="100 Hz sawtooth through the band-pass filter, cutoff $300, resonance 8 (the band "
                 "passes a few harmonics about as loud: which is loudest says nothing of the tone, so the "
                 "dominant frequency is not compared; 100 Hz: whole periods in each 10 ms window)"),
    SoundProgram("filter-dark", _tone({**_frequency(0x0EA3), 0x02: 0x00, 0x03: 0x08, **SUSTAIN_FULL,
                                       0x15: 0x00, 0x16: 0x10, 0x17: 0x01}, PULSE, 50, 10, volume=0x1F),
                 frequency=0x0EA3, centroid=True,
                 what="220 Hz square wave through the low-pass filter, cutoff $80, no resonance"),
    SoundProgram("melody", MELODY, basic=True, what="eight three-voice chords from BASIC (POKEs, TI timing)"),
)}


def measure_on_vice(names: list[str], model: str = SID_MODEL) -> dict[str, dict[str, object]]:
    """Each program in a fresh headless x64sc, recorded and measured."""
    import tempfile

    from tests.sound_analysis import measure
    from toolchain import vice
    from toolchain.sound import read_wav

    emulator = vice.find_emulator(None)
    measured = {}
    for name in names:
        program = PROGRAMS[name]
        with tempfile.TemporaryDirectory(prefix="c64tc-sound-") as folder:
            prg = Path(folder) / f"{name}.prg"
            prg.write_bytes(program.prg())
            target = vice.target_for(prg, None, None if program.basic else 0xC000)
            wav = Path(folder) / "vice.wav"
            cycles = 12_000_000 if program.basic else 6_000_000  # LOADed from a disk: a few seconds more
            vice.run_headless(emulator, target, "", cycles, audio=wav, sid_model=model, timeout=120)
            sound = read_wav(wav)
        result = measure(sound.samples, sound.rate, skip=VICE_BOOT_SECONDS)
        measured[name] = {"digest": program.digest(), "seconds": round(result.seconds, 3),
                          "windows": result.windows, "dominant_hz": round(result.dominant_hz, 2),
                          "centroid_hz": round(result.centroid_hz, 1),
                          "envelope": [round(level) for level in result.envelope]}
        print(f"{name}: {result.length:.2f} s of sound, dominant {result.dominant_hz:.1f} Hz, "
              f"centroid {result.centroid_hz:.0f} Hz", file=sys.stderr)
    return measured


def readback_on_vice() -> list[str]:
    """The read-back program's screen on VICE (its sound emulated: else reSID is not
    clocked and $D41B/$D41C do not move)."""
    import tempfile

    from toolchain import vice

    emulator = vice.find_emulator(None)
    with tempfile.TemporaryDirectory(prefix="c64tc-sound-") as folder:
        prg = Path(folder) / "readback.prg"
        prg.write_bytes(SoundProgram("readback", READBACK, basic=True).prg())
        result = vice.run_headless(emulator, vice.target_for(prg), "", 12_000_000,
                                   audio=Path(folder) / "x.wav", sid_model=SID_MODEL, timeout=120)
    return result.screen


def main(arguments: list[str]) -> None:
    model = SID_MODEL
    if arguments[:1] == ["--model"]:
        model, arguments = arguments[1], arguments[2:]
    names = arguments
    DATA.mkdir(parents=True, exist_ok=True)
    if model == SID_MODEL and (not names or "readback" in names):
        READBACK_SCREEN.write_text("\n".join(readback_on_vice()).rstrip("\n") + "\n")
    names = [name for name in names if name != "readback"]
    path = measured_file(model)
    kept = json.loads(path.read_text()) if path.exists() else {}
    kept.update(measure_on_vice(names or list(PROGRAMS), model))
    path.write_text("{\n" + ",\n".join(f"{json.dumps(name)}: {json.dumps(kept[name], sort_keys=True)}"
                                         for name in sorted(kept)) + "\n}\n")


if __name__ == "__main__":
    main(sys.argv[1:])
