"""Every command on mutated real inputs (issue 12): BASIC listings, assembler sources,
MSE dumps, PRGs (BASIC and machine code), disk images and the build manifest, with
bytes flipped, inserted, deleted, duplicated and cut off.  Whatever a command gets, it
ends with exit status 0, 1, 2 or 3, prints no traceback, finishes within seconds, and
when it fails it leaves its output file as it was.  The default run tries a few
examples per command and ``-m slow`` a long profile, both derandomized (the same run
every time); ``C64TC_FUZZ_RANDOM=1`` makes the long one draw new examples.  The disk
commands' own damage fuzzing is in test_disk_fuzz.py, the assembler's in
test_asm_hardening.py."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import DATA, FUZZ_RANDOM, REPO
from toolchain.asm import assemble
from toolchain.basic import tokenize_text
from toolchain.cli import main
from toolchain.disk import d64

SOURCES = REPO / "sources"
SECONDS = 30  # the bound on one command's work (generous for a loaded 2-core machine)
FUZZ = dict(deadline=None, derandomize=True, database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                   HealthCheck.function_scoped_fixture])
LONG = FUZZ | {"derandomize": not FUZZ_RANDOM, "print_blob": True}

# bytes that tend to matter to the readers: line ends, quotes, braces, token bytes,
# the PRG's link bytes, the disk's track/sector numbers and padding
NASTY = [b"\x00", b"\r", b"\n", b'"', b"{", b"}", b":", b"$", b"\xff", b"\x80", b"\xa0", b"\x12", b"\x01\x08",
         b"{999999999 down}", b"9" * 80, b"(" * 300, b"\x22\x22"]


@st.composite
def mutated(draw: st.DrawFn, original: bytes) -> bytes:
    """A few small changes, so that most inputs still get past the first check."""
    data = bytearray(original)
    for _ in range(draw(st.integers(1, 4))):
        position = draw(st.integers(0, len(data)))
        action = draw(st.integers(0, 11))
        if action <= 4 and position < len(data):
            data[position] = draw(st.integers(0, 255))
        elif action <= 6:
            data[position:position] = draw(st.sampled_from(NASTY))
        elif action <= 8:
            del data[position : position + draw(st.integers(1, 8))]
        elif action == 9:
            length = draw(st.integers(1, 256))
            data[position:position] = data[position : position + length]
        elif action == 10:
            data[position:position] = draw(st.binary(max_size=16))
        else:
            del data[position:]
    return bytes(data)


def invoke(arguments: list[str], stdin: bytes | None = None) -> tuple[int, str]:
    started = time.monotonic()
    result = CliRunner().invoke(main, arguments, input=stdin)
    elapsed = time.monotonic() - started
    output = result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"c64tc {' '.join(arguments)}: {result.exception!r}\n{output[-2000:]}")
    assert "Traceback" not in output, output[-2000:]
    assert result.exit_code in (0, 1, 2, 3), f"exit status {result.exit_code}: {output[-2000:]}"
    assert elapsed < SECONDS, f"c64tc {' '.join(arguments)} took {elapsed:.1f} s"
    return result.exit_code, output


def unchanged_on_failure(output: Path, command: Callable[[], int]) -> None:
    """Runs ``command``; when it fails, ``output`` holds the bytes it held before."""
    before = output.read_bytes()
    if command() != 0:
        assert output.read_bytes() == before, f"{output} changed by a failing command"


# -- the inputs ------------------------------------------------------------------------------------

LISTING = (SOURCES / "mastermind.bas").read_bytes()
ASSEMBLER = (SOURCES / "superhirn2.asm").read_bytes()
MSE = (SOURCES / "superhirn2.mse").read_bytes()
MANIFEST = (SOURCES / "manifest.toml").read_bytes()
MLX_LISTING = (DATA / "checksums" / "mlx-1985-printed.mlx").read_bytes()
# a listing with printed checksums in every style a reader types from the page
CHECKSUMMED = b"".join(f"{number} print\"line {number}\":goto {number + 10} <{value}>\n".encode()
                       for number, value in ((10, 123), (20, 45), (32, 200), (8224, 7))) + \
    b'40 a=1 :rem 77\nEM 50 b$="x y"\n60 poke 1,2   QS\n70 data 1,2,3 < 007 >\n'
BASIC_PRG = tokenize_text((SOURCES / "foxhunt.bas").read_text(encoding="utf-8")).to_bytes()
_CODE = assemble((SOURCES / "superhirn2.asm").read_text(encoding="utf-8"), "superhirn2.asm")
CODE_PRG = _CODE.start.to_bytes(2, "little") + _CODE.image


def _disk(tmp_path: Path) -> bytes:
    image = tmp_path / "seed.d64"
    d64.build_image(image, "FUZZ", "FZ", [("FOXHUNT", "PRG", BASIC_PRG), ("SUPERHIRN", "PRG", CODE_PRG)])
    return image.read_bytes()


def _write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


def _fresh(tmp_path: Path, name: str) -> Path:
    """A new folder per example (hypothesis runs the examples in one test call)."""
    folder = tmp_path / f"{name}-{time.monotonic_ns()}"
    folder.mkdir()
    return folder


# -- the commands ----------------------------------------------------------------------------------

def _listing_commands(tmp_path: Path, data: bytes) -> None:
    folder = _fresh(tmp_path, "bas")
    listing = _write(folder, "p.bas", data)
    output = _write(folder, "p.prg", b"previous")
    unchanged_on_failure(output, lambda: invoke(["tok", str(listing), "-o", str(output)])[0])
    invoke(["run", str(listing), "--input", "3|3|+|-||", "--max-statements", "3000"])


def _assembler_commands(tmp_path: Path, data: bytes) -> None:
    folder = _fresh(tmp_path, "asm")
    source = _write(folder, "p.asm", data)
    output = _write(folder, "p.prg", b"previous")
    listing = _write(folder, "p.lst", b"previous listing")
    status, _ = invoke(["asm", str(source), "-o", str(output), "-l", str(listing)])
    if status != 0:
        assert output.read_bytes() == b"previous" and listing.read_bytes() == b"previous listing"


def _mse_commands(tmp_path: Path, data: bytes) -> None:
    folder = _fresh(tmp_path, "mse")
    dump = _write(folder, "p.mse", data)
    invoke(["mse", "check", str(dump)])
    output = _write(folder, "p.prg", b"previous")
    unchanged_on_failure(output, lambda: invoke(["mse", "toprg", str(dump), "-o", str(output)])[0])


def _mlx_commands(tmp_path: Path, data: bytes) -> None:
    folder = _fresh(tmp_path, "mlx")
    listing = _write(folder, "p.mlx", data)
    invoke(["mlx", "check", str(listing)])
    invoke(["mlx", "check", str(listing), "--format", "1984"])
    output = _write(folder, "p.prg", b"previous")
    unchanged_on_failure(output, lambda: invoke(["mlx", "toprg", str(listing), "-o", str(output)])[0])
    unchanged_on_failure(output, lambda: invoke(["mlx", "toprg", str(listing), "-o", str(output), "--end",
                                                 "$C020"])[0])


def _checksums_commands(tmp_path: Path, data: bytes) -> None:
    folder = _fresh(tmp_path, "sums")
    listing = _write(folder, "p.bas", data)
    output = _write(folder, "p.prg", b"previous")
    for kind in ("", "=64er", "=64er-v3", "=proofreader", "=proofreader-1986"):
        arguments = ["tok", str(listing), f"--checksums{kind}", "-o", str(output)]
        unchanged_on_failure(output, lambda arguments=arguments: invoke(arguments)[0])


def _basic_prg_commands(tmp_path: Path, data: bytes) -> None:
    folder = _fresh(tmp_path, "prg")
    program = _write(folder, "p.prg", data)
    invoke(["detok", str(program)])
    invoke(["list", str(program)])
    invoke(["run", str(program), "--input", ".5|3|2.7|6.0|1.1|", "--max-statements", "3000"])


def _code_prg_commands(tmp_path: Path, data: bytes) -> None:
    folder = _fresh(tmp_path, "code")
    program = _write(folder, "p.prg", data)
    invoke(["disasm", str(program)])
    invoke(["disasm", str(program), "--format", "source"])
    invoke(["run", str(program), "--sys", "13312", "--input", "1|1|0|0|1|2", "--max-cycles", "300000"])
    invoke(["monitor", str(program), "--sys", "13312", "--monitor-commands", "-", "--input", "1|1",
            "--max-cycles", "300000"],
           stdin=b"break 3436\ng\nr\nm 0340 0360\nz\nn\nx\n")


# a monitor script with every kind of command (issue 26): mutated, it must still end in
# a message or a run, never a traceback; files go to the example's folder (and device 8,
# the disk in memory)
MONITOR_SCRIPT = b"""\
break 3436 if A == $31
f 1000 10ff 00 "text" 1234
h 1000 1100 74 xx 78
c 1000 10ff 1001
t 1000 100f 2000
a c000 lda #$01 : sta $d020
a c010 ldx #0
inx
bne c011

d c000 c014
m 1000 1010
bank ram
m a000 a010
bank cpu
io d000
io dc00
s "m.prg" 8 1000 10ff
l "m.prg" 8 2000
bl "m.prg" 8 3000
l "missing" 0
> 0400 01 02
z
n 3
g
r
io
x
"""
BREAK_SCRIPT = b"""\
vars
print a*2;b$
? "x";a
a=42
b$(2)="y"
print a$(
print "a"+1
goto 10
n
g
x
"""


def _monitor_commands(tmp_path: Path, data: bytes) -> None:
    folder = _fresh(tmp_path, "monitor")
    script = _write(folder, "p.mon", data)
    program = _write(folder, "p.prg", CODE_PRG)
    disk = _write(folder, "p.d64", _empty_disk(folder))
    previous = Path.cwd()
    os.chdir(folder)  # where the script's files go
    try:
        invoke(["monitor", str(program), "--monitor-commands", str(script), "--disk", str(disk),
                "--input", "1|1|0|0", "--max-cycles", "300000"])
    finally:
        os.chdir(previous)


def _break_commands(tmp_path: Path, data: bytes) -> None:
    folder = _fresh(tmp_path, "break")
    script = _write(folder, "p.txt", data)
    listing = _write(folder, "p.bas", b'10 a=1:b$="hi"\n20 for i=1 to 3:print a;b$\n30 next\n')
    invoke(["run", str(listing), "--break-line", "20", "--monitor-commands", str(script),
            "--max-statements", "3000"])


def _empty_disk(folder: Path) -> bytes:
    image = folder / "empty.d64"
    d64.build_image(image, "FUZZ", "FZ", [])
    return image.read_bytes()


def _disk_commands(tmp_path: Path, data: bytes) -> None:
    folder = _fresh(tmp_path, "disk")
    image = _write(folder, "p.d64", data)
    invoke(["d64", "list", str(image)])
    invoke(["d64", "validate", str(image)])
    invoke(["run", f"{image}:foxhunt", "--input", ".5|3|", "--max-statements", "3000"])
    extracted = folder / "out"
    extracted.mkdir()
    invoke(["d64", "extract", str(image), "--all", "-d", str(extracted)])
    new = _write(folder, "new.prg", b"\x01\x08\x00\x00\x00")
    unchanged_on_failure(image, lambda: invoke(["d64", "add", str(image), str(new)])[0])
    unchanged_on_failure(image, lambda: invoke(["d64", "rm", str(image), "superhirn"])[0])


def _manifest_commands(tmp_path: Path, data: bytes) -> None:
    folder = _fresh(tmp_path, "manifest")
    (folder / "sources").mkdir()
    for path in SOURCES.iterdir():
        if path.name != "manifest.toml":
            _write(folder / "sources", path.name, path.read_bytes())
    _write(folder / "sources", "manifest.toml", data)
    out = folder / "build"
    out.mkdir()
    marker = _write(out, "previous.txt", b"the previous build")
    status, _ = invoke(["build", "--manifest", str(folder / "sources" / "manifest.toml"), "--out", str(out)])
    if status != 0:
        assert marker.read_bytes() == b"the previous build" and sorted(p.name for p in out.iterdir()) == [
            "previous.txt"]


COMMANDS: dict[str, tuple[Callable[[Path, bytes], None], Callable[[Path], bytes], int]] = {
    # name: (the commands, the original input, examples in the default run)
    "listing": (_listing_commands, lambda _: LISTING, 12),
    "assembler": (_assembler_commands, lambda _: ASSEMBLER, 12),
    "mse": (_mse_commands, lambda _: MSE, 12),
    "mlx": (_mlx_commands, lambda _: MLX_LISTING, 12),
    "checksums": (_checksums_commands, lambda _: CHECKSUMMED, 8),
    "basic-prg": (_basic_prg_commands, lambda _: BASIC_PRG, 12),
    "code-prg": (_code_prg_commands, lambda _: CODE_PRG, 8),
    "disk": (_disk_commands, _disk, 8),
    "manifest": (_manifest_commands, lambda _: MANIFEST, 6),
    "monitor-script": (_monitor_commands, lambda _: MONITOR_SCRIPT, 8),
    "break-script": (_break_commands, lambda _: BREAK_SCRIPT, 8),
}


def _fuzz(name: str, tmp_path: Path, examples: int, profile: Mapping[str, object]) -> None:
    commands, original_of, _ = COMMANDS[name]
    original = original_of(tmp_path)

    @settings(max_examples=examples, **profile)  # type: ignore[arg-type]
    @given(mutated(original))
    def check(data: bytes) -> None:
        commands(tmp_path, data)

    check()


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_mutated_inputs_end_with_a_status_and_no_traceback(name: str, tmp_path: Path) -> None:
    _fuzz(name, tmp_path, COMMANDS[name][2], FUZZ)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_mutated_inputs_long_profile(name: str, tmp_path: Path) -> None:
    _fuzz(name, tmp_path, 300, LONG)


def test_the_unmutated_inputs_work(tmp_path: Path) -> None:
    """The originals pass every command: the fuzzing starts from working inputs."""
    assert invoke(["tok", "-o", str(tmp_path / "m.prg"), str(SOURCES / "mastermind.bas")])[0] == 0
    assert invoke(["asm", str(SOURCES / "superhirn2.asm"), "-o", str(tmp_path / "s.prg")])[0] == 0
    assert invoke(["mse", "check", str(SOURCES / "superhirn2.mse")])[0] == 0
    assert invoke(["mlx", "check", str(DATA / "checksums" / "mlx-1985-printed.mlx")])[0] == 0
    listing = _write(tmp_path, "sums.bas", CHECKSUMMED)
    # the sums are made up: every line is a mismatch, reported as an error
    assert invoke(["tok", str(listing), "--checksums", "-o", str(tmp_path / "sums.prg")])[0] == 1
    image = _write(tmp_path, "seed.d64", _disk(tmp_path))
    assert invoke(["d64", "validate", str(image)])[0] == 0
    status, output = invoke(["run", f"{image}:superhirn", "--sys", "13312",
                             "--input", "1|1|0|0|1|2|1|2|3|0|4"])
    assert status == 0 and "3436" in output
    script = _write(tmp_path, "p.mon", MONITOR_SCRIPT.removesuffix(b"x\n") + b"q\n")
    disk = _write(tmp_path, "p.d64", _empty_disk(tmp_path))
    program = _write(tmp_path, "p.prg", CODE_PRG)
    status, output = invoke(["monitor", str(program), "--monitor-commands", str(script), "--disk", str(disk),
                             "--input", "1|1|0|0"])
    # every command ran (g ends the run where the program waits for more input: status 3)
    assert status == 3 and "Loading 'm.prg' from 2000 to 20FF (0100 bytes)" in output, output
    script = _write(tmp_path, "p.txt", BREAK_SCRIPT)
    listing = _write(tmp_path, "p.bas", b'10 a=1:b$="hi"\n20 for i=1 to 3:print a;b$\n30 next\n')
    status, output = invoke(["run", str(listing), "--break-line", "20", "--monitor-commands", str(script)])
    assert status == 0 and "?TYPE MISMATCH  ERROR" in output, output
