"""Running programs in VICE (x64sc): interactively, and as a headless check.

How a program is started, as a user would, typed through the C64's keyboard buffer
ahead of the program's own input: a BASIC program with ``LOAD"NAME",8`` and ``RUN``
from the disk (a PRG file is put on a temporary disk first); a machine-code program
loaded (from a disk: ``LOAD"NAME",8,1``) and started with SYS.
VICE runs monitor commands from a file (``-moncommands``) when it first enters its
monitor; ``-initbreak`` at BASIC's READY ($A474) makes that happen once the machine
has booted.  The same file loads our VICE label file, so the monitor shows the
program's labels.

The headless check (VICE's headless build has no interactive monitor input) saves
screen memory ($0400-$07E7) from a breakpoint in the KERNAL's interrupt handler
($EA31, sixty times a second) and stops VICE after the given cycles
(``-limitcycles``); the file left behind is the screen at the end.  The screen codes
are turned into text by the same decoder as our own machine model's.  With a
screenshot, VICE also saves its picture of the final screen (``-exitscreenshot``),
drawn with the Pepto palette so that its colours compare with ours by value.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from toolchain.c64.keyboard import typed_keys
from toolchain.c64.memory import BASIC_PROGRAM_START
from toolchain.c64.screen import COLUMNS, ROWS, screen_row_text
from toolchain.diagnostics import UserError
from toolchain.disk.prg import Prg
from toolchain.display.charset import strip_row
from toolchain.display.picture_files import picture_file
from toolchain.fileio import read_bytes, write_atomic

Labels = Sequence[tuple[str, int]]  # (".name", address): the monitor's label files, read
EMULATOR_ENV = "C64TC_VICE"
DATA_ENV = "C64TC_VICE_DATA"  # VICE's data folder, for a VICE built but not installed
BASIC_START = BASIC_PROGRAM_START
READY = 0xA474  # BASIC's READY: the machine has booted
IRQ_HANDLER = 0xEA31  # the KERNAL's interrupt handler, entered sixty times a second
SCREEN = (0x0400, 0x07E7)
# The picture for --screenshot: VICE's default colours are computed from its colour
# sliders (and the headless build's defaults are not neutral); the Pepto palette file
# with neutral sliders gives exactly the palette's RGB values, as c64tc's PNGs use
# (toolchain.display.palette), and no CRT filter blends neighbouring pixels.
SCREENSHOT_OPTIONS = ["-VICIIextpal", "-VICIIpalette", "pepto-pal", "-VICIIsaturation", "1000",
                      "-VICIIcontrast", "1000", "-VICIIbrightness", "1000", "-VICIIgamma", "1000",
                      "-VICIItint", "1000", "-VICIIfilter", "0"]

HOW_TO_GET_VICE = (
    "VICE's x64sc was not found.  Install VICE (for example your distribution's 'vice' "
    "package, or a build from the official sources at vice-emu.sourceforge.io, configured "
    "with --enable-headlessui for checks), then put x64sc on the PATH, or name it with "
    f"--emulator or the {EMULATOR_ENV} environment variable.")


def find_emulator(explicit: str | None = None) -> Path:
    """x64sc: --emulator, then $C64TC_VICE, then the PATH."""
    for candidate in (explicit, os.environ.get(EMULATOR_ENV)):
        if candidate:
            path = Path(candidate)
            if path.is_file() and os.access(path, os.X_OK):
                return path
            raise UserError.single(candidate, f"not an executable file. {HOW_TO_GET_VICE}")
    found = shutil.which("x64sc")
    if found is None:
        raise UserError.single("x64sc", HOW_TO_GET_VICE)
    return Path(found)


# VICE's headless build (./configure --enable-headlessui) says so in its log as it starts
# (src/arch/headless/ui.c: ui_init); no windowed build (GTK3, SDL) has the words.  Its
# -help is no help: VICE 3.10's headless build crashes half way through the list.
HEADLESS_MARK = b"Initialising headless ui"


def is_headless(emulator: Path) -> bool:
    """Whether ``emulator`` is VICE's headless build (it opens no window): its program
    file holds the headless UI's words (a wrapper script around x64sc does not, and
    counts as windowed)."""
    overlap = len(HEADLESS_MARK) - 1
    try:
        with emulator.open("rb") as program:
            tail = b""
            while chunk := program.read(1 << 20):
                if HEADLESS_MARK in tail + chunk:
                    return True
                tail = chunk[-overlap:]
    except OSError:
        return False
    return False


def data_directory(emulator: Path) -> Path | None:
    """Where the ROMs are, for a VICE that was built but not installed (src/x64sc
    beside data/); None when VICE finds its own."""
    configured = os.environ.get(DATA_ENV)
    if configured:
        return Path(configured)
    beside = emulator.resolve().parent.parent / "data"
    return beside if (beside / "C64").is_dir() else None


@dataclass(frozen=True)
class Target:
    """What to start: a PRG file, or a program on a D64 image."""

    path: Path
    program: str | None  # the name on the disk (D64 only)
    load_address: int
    sys_address: int | None  # for machine code; None for BASIC

    @property
    def is_disk(self) -> bool:
        return self.path.suffix.lower() == ".d64"

    @property
    def name_on_disk(self) -> str:
        """The name LOAD is typed with (a PRG file is put on a disk under a name first)."""
        if self.program is None:
            raise ValueError(f"{self.path} is not on a disk")
        return self.program

    @property
    def is_basic(self) -> bool:
        return self.sys_address is None


def target_for(path: Path, program: str | None = None, sys_address: int | None = None) -> Target:
    """Work out how to start ``path``; a PRG not loaded at $0801 is machine code."""
    from toolchain.disk import d64

    if path.suffix.lower() == ".d64":
        directory = d64.directory(path)
        names = [entry.name for entry in directory.files if entry.file_type == "PRG"]
        if not names:
            raise UserError.single(str(path), "the disk holds no PRG file to start")
        if program is None:
            program = names[0]
        elif program.upper() not in names:
            raise UserError.single(str(path), f'"{program.upper()}" is not on the disk '
                                   f"(it has: {', '.join(names)})")
        prg = Prg.from_bytes(d64.extract(path, program), f"{path}:{program}")
    else:
        prg = Prg.from_bytes(read_bytes(path), str(path))
    if sys_address is None and prg.load_address != BASIC_START:
        sys_address = prg.load_address
    return Target(path, program.upper() if program else None, prg.load_address, sys_address)


def _keys(text: str) -> str:
    """Typed keys for VICE's keybuf, with the meaning our own --input has (lines
    separated by |, line breaks or \\n, each ended by RETURN; \\xNN): letters, digits
    and spaces as themselves (VICE's charset_p_topetscii gives them the codes c64tc
    does), RETURN as \\n, every other key as \\xNN."""
    plain = {code: chr(code).lower() for code in (*range(0x41, 0x5B), *range(0x30, 0x3A), 0x20)}
    plain[0x0D] = "\\n"
    return "".join(plain.get(key, f"\\x{key:02x}") for key in typed_keys(text))


def _quoted(path: Path) -> str:
    return '"' + str(path).replace("\\", "\\\\").replace('"', '\\"') + '"'


def monitor_commands(target: Target, typed: str = "", labels: Labels | None = None,
                     screen_file: Path | None = None) -> str:
    """The monitor command file: labels (name and address, as monitor.labels.read_labels
    reads a label file or symbol table), loading and starting, the typed input, and (for
    a check) the screen dumps."""
    lines = [f"al C:{address:04x} {name}" for name, address in labels or ()]
    keys = ""
    if target.is_basic:
        # typed like the machine code below, not autostarted: the typed input then
        # follows LOAD and RUN in one queue (with -autostart it raced them)
        keys += f'load"{target.name_on_disk.lower()}",8\\nrun\\n'
    else:
        if target.is_disk:
            keys += f'load"{target.name_on_disk.lower()}",8,1\\n'  # lower case: unshifted, as typed
        else:
            lines.append(f"l {_quoted(target.path.resolve())} 0")
        keys += f"sys{target.sys_address}\\n"
    keys += _keys(typed)
    if keys:
        lines.append(f"keybuf {keys}")
    if screen_file is not None:
        lines.append(f"break ${IRQ_HANDLER:04x}")
        # the breakpoint just made is number 2 (number 1 is -initbreak's)
        inner = f"s {_quoted(screen_file)} 0 {SCREEN[0]:04x} {SCREEN[1]:04x}"
        lines.append('command 2 "' + inner.replace("\\", "\\\\").replace('"', '\\"') + '"')
    lines.append("x")
    return "\n".join(lines) + "\n"


def sound_options(audio: Path, sid_model: str = "8580", rate: int = 44_100) -> list[str]:
    """x64sc's options that record the SID's sound into a WAV file: the wav sound device
    (-sounddev wav -soundarg FILE), one channel, the reSID engine (-sidengine 1, VICE's
    only one; its default sampling method, resampling in VICE 3.10) and the model
    (-sidmodel 0: 6581, 1: 8580).  VICE writes no sound in warp mode (sound.c skips the
    devices then), so a recording runs at the C64's speed."""
    return ["-sound", "-sounddev", "wav", "-soundarg", str(audio), "-soundrate", str(rate),
            "-soundoutput", "1", "-sidengine", "1", "-sidmodel", "0" if sid_model == "6581" else "1"]


def finish_wav(data: bytes) -> bytes:
    """A WAV file as VICE leaves it when -limitcycles ends it: VICE exits without
    closing the device, so the header still says 0 bytes of data; the lengths are
    filled in from the file's size."""
    if len(data) < 44 or data[:4] != b"RIFF" or data[36:40] != b"data":
        return data
    size = len(data) - 44
    size -= size % 2
    return (data[:4] + (size + 36).to_bytes(4, "little") + data[8:40] + size.to_bytes(4, "little")
            + data[44 : 44 + size])


def command_line(emulator: Path, target: Target, commands_file: Path, warp: bool = False,
                 headless_cycles: int | None = None, audio: Path | None = None,
                 sid_model: str = "8580") -> list[str]:
    """The x64sc command line (``audio``: record the sound there, see sound_options)."""
    args = [str(emulator)]
    if headless_cycles is not None:
        # -default first: it resets every setting made before it on the command line
        args += ["-default", "+sound", "-limitcycles", str(headless_cycles)]
        warp = audio is None
        if audio is not None:
            args += sound_options(audio, sid_model)
    data = data_directory(emulator)
    if data is not None:
        args += ["-directory", str(data)]
    if warp:
        args.append("-warp")
    if target.is_disk:
        args += ["-8", str(target.path)]
    args += ["-initbreak", f"0x{READY:04x}", "-moncommands", str(commands_file)]
    return args


def _environment(state: Path) -> dict[str, str]:
    """VICE needs writable configuration and state folders (without them it crashes
    while logging): give it its own."""
    environment = dict(os.environ)
    for variable in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        folder = state / variable.lower()
        (folder / "vice").mkdir(parents=True, exist_ok=True)
        environment[variable] = str(folder)
    return environment


def on_disk(target: Target, folder: Path) -> Target:
    """A BASIC PRG file is LOADed from drive 8 like any other: put it on a disk image
    in ``folder`` (machine code and disk images stay as they are)."""
    from toolchain.disk import d64

    if not target.is_basic or target.is_disk:
        return target
    name = re.sub(r"[^a-z0-9 .-]", "", target.path.stem.lower())[:16] or "program"
    disk = folder / "program.d64"
    d64.create(disk, "c64tc", "64")
    d64.add(disk, name, read_bytes(target.path))
    return Target(disk, name.upper(), target.load_address, None)


def start(emulator: Path, target: Target, typed: str = "", labels: Labels | None = None,
          warp: bool = False) -> int:
    """Start VICE with its window and wait for the user to close it."""
    state = Path(tempfile.mkdtemp(prefix="c64tc-vice-"))
    try:
        target = on_disk(target, state)
        commands = state / "start.mon"
        commands.write_text(monitor_commands(target, typed, labels))
        return subprocess.call(command_line(emulator, target, commands, warp), env=_environment(state))
    finally:
        shutil.rmtree(state, ignore_errors=True)


@dataclass
class CheckResult:
    screen: list[str]  # 25 rows of text
    log: str


def run_headless(emulator: Path, target: Target, typed: str, cycles: int, labels: Labels | None = None,
                 timeout: float = 600, screenshot: Path | None = None, audio: Path | None = None,
                 sid_model: str = "8580") -> CheckResult:
    """Run VICE without a window for ``cycles`` cycles; return the final screen.
    ``screenshot``: where to write VICE's PNG of the final screen (384x272); ``audio``:
    where to write its sound (a WAV file from the power-on to the end, the reSID engine
    with the SID ``sid_model``; the run then takes the C64's time, not warp's)."""
    state = Path(tempfile.mkdtemp(prefix="c64tc-vice-"))
    try:
        target = on_disk(target, state)
        screen_file = state / "screen.bin"
        commands = state / "check.mon"
        commands.write_text(monitor_commands(target, typed, labels, screen_file))
        log_file = state / "vice.log"
        sound = state / "sound.wav"
        arguments = command_line(emulator, target, commands, headless_cycles=cycles,
                                 audio=sound if audio is not None else None, sid_model=sid_model)
        arguments += ["-logfile", str(log_file)]
        picture = state / "screen.png"
        if screenshot is not None:
            arguments += ["-exitscreenshot", str(picture), *SCREENSHOT_OPTIONS]
        try:
            subprocess.run(arguments, env=_environment(state), stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout,
                           check=False)  # -limitcycles ends VICE with a non-zero status
        except subprocess.TimeoutExpired:
            raise UserError.single(str(emulator), f"VICE did not finish within {timeout:.0f} s") from None
        log = log_file.read_text(errors="replace") if log_file.exists() else ""
        if not screen_file.exists():
            tail = "\n".join(log.splitlines()[-8:])
            raise UserError.single(str(emulator), "VICE ended without saving the screen (is it a "
                                   f"headless build, and are its ROMs found?). Its log ends:\n{tail}")
        if screenshot is not None:
            if not picture.exists():
                raise UserError.single(str(emulator), "VICE ended without saving its screenshot")
            write_atomic(screenshot, picture_file(screenshot, picture.read_bytes()))
        if audio is not None:
            if not sound.exists():
                raise UserError.single(str(emulator), "VICE ended without writing its sound")
            write_atomic(audio, finish_wav(sound.read_bytes()))
        data = screen_file.read_bytes()[2:]  # the monitor saves a PRG: load address first
        rows = [screen_row_text(data[row * COLUMNS : (row + 1) * COLUMNS]) for row in range(ROWS)]
        return CheckResult(rows, log)
    finally:
        shutil.rmtree(state, ignore_errors=True)


def compare(screen: list[str], expected_texts: list[str], expected_screen: list[str] | None) -> list[str]:
    """What does not match: each expected text must appear on the screen, in the order
    given; an expected screen must equal the screen row by row."""
    problems = []
    text = "\n".join(screen)
    position = 0
    for expected in expected_texts:
        found = text.find(expected, position)
        if found < 0:
            where = "after the previous expected text" if position else "on the screen"
            problems.append(f"expected {expected!r} {where}, not found")
        else:
            position = found + len(expected)
    if expected_screen is not None:
        wanted = [strip_row(row) for row in expected_screen] + [""] * (ROWS - len(expected_screen))
        for number, (got, want) in enumerate(zip(screen, wanted[:ROWS], strict=True), start=1):
            if got != want:
                problems.append(f"row {number}: expected {want!r}, got {got!r}")
    return problems
