"""``c64tc vice``: the program in VICE, interactive or as a headless check."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import click

from toolchain.cli.common import ADDRESS, COUNT, TYPED_INPUT, not_built, reports_user_errors
from toolchain.diagnostics import UserError
from toolchain.fileio import read_text, refuse_replacing_inputs

if TYPE_CHECKING:
    from toolchain.vice import Target

_WANTED = "a disk image, a PRG or a BASIC listing"


def resolve_target(argument: str, program: str | None, sys_address: int | None, folder: Path) -> Target:
    """What VICE starts for TARGET and --program: a PRG file, or a program on a D64 image,
    as they are; a file on another image (a D71, D81 or T64), a BASIC listing
    (tokenized) or standard input as a PRG file written into ``folder`` first."""
    from toolchain import vice
    from toolchain.disk import d64
    from toolchain.inputs import PRG_KINDS, Kind, read_input, read_program, wrong_kind

    given = read_input(argument)
    kind = given.kind.kind
    if kind is Kind.DISK_IMAGE and not given.is_stdin:
        image = Path(argument)
        if program is None:  # the first program, as LOAD"*",8 would
            names = [entry.name for entry in d64.directory(image).files if entry.file_type == "PRG"]
            if image.suffix.lower() == ".d64" and not (names and _is_listing_text(argument, names[0])):
                return vice.target_for(image, None, sys_address)
            if not names:
                raise UserError.single(argument, "the disk holds no PRG file to start")
            program = names[0]
        given = read_input(f'{argument}:"{program}"')  # the name as LOAD finds it (wildcards too)
    elif program is not None:
        what = "names its program already" if given.image is not None else f"is {given.kind.phrase}"
        raise click.UsageError(f"--program picks a program on a disk image; {given.shown} {what}")
    if given.image is not None and given.file_type != "PRG":
        raise wrong_kind(given, "a program (a PRG file)", "vice")
    listing_on_disk = given.image is not None and given.kind.kind is Kind.BASIC_LISTING
    if given.image is not None and given.image.suffix.lower() == ".d64" and not listing_on_disk:
        return vice.target_for(given.image, given.title, sys_address)
    loaded = read_program(given, "vice", _WANTED, PRG_KINDS | {Kind.BASIC_LISTING})
    if listing_on_disk:  # an older `d64 add` stored the text: VICE's LOAD would read it as garbage
        click.echo(f"{given.shown}: a BASIC listing stored as text in a PRG file; VICE gets it tokenized, "
                   "as `c64tc tok` does (`c64tc d64 add --replace` stores it so on the disk)", err=True)
    if given.image is None and not given.is_stdin and loaded.kind is not Kind.BASIC_LISTING:
        return vice.target_for(Path(argument), None, sys_address)  # VICE loads the file itself
    written = folder / f"{given.stem[:16]}.prg"
    written.write_bytes(loaded.prg.to_bytes())
    return vice.target_for(written, None, sys_address)


def _is_listing_text(image: str, name: str) -> bool:
    """Whether the disk's program ``name`` is a BASIC listing's text, not a program."""
    from toolchain.inputs import Kind, read_input

    return read_input(f'{image}:"{name}"').kind.kind is Kind.BASIC_LISTING


@click.command("vice")
@click.argument("target", required=False)
@click.option("--program", help="Which program of the disk image to start (default: the first).")
@click.option("--sys", "sys_address", type=ADDRESS, help="Start address of machine code (default: where "
              "it loads).")
@click.option("--warp", is_flag=True, help="Start in warp mode.")
@click.option("--labels", type=click.Path(path_type=Path),
              help="Labels for VICE's monitor: a VICE label file (c64tc asm --vice-labels) or a symbol "
                   "table (c64tc asm --symbols).")
@click.option("--emulator", help=f"Path of x64sc (default: ${'C64TC_VICE'}, then the PATH).")
@click.option("--check", is_flag=True, help="Run headless and compare the final screen.")
@click.option("--input", "input_text", default="", help="Keys to type; " + TYPED_INPUT)
@click.option("--max-cycles", type=COUNT, default=20_000_000, show_default=True,
              help="With --check: stop after this many cycles.")
@click.option("--expect", multiple=True, help="With --check: text that must be on the final screen "
              "(several: in this order).")
@click.option("--expect-screen", type=click.Path(path_type=Path),
              help="With --check: the whole expected screen, as text.")
@click.option("--screenshot", type=click.Path(dir_okay=False, path_type=Path),
              help="With --check: save VICE's picture of the final screen (384x272, Pepto palette): PNG, "
              "or the format the name's extension asks for (.gif, .jpg, ...).")
@click.option("--audio", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE.wav",
              help="With --check: record VICE's sound into a WAV file (reSID, 44.1 kHz mono, from the "
              "power-on to the end; the check then runs at the C64's speed), to compare with c64tc run "
              "--audio.")
@click.option("--sid-model", type=click.Choice(["6581", "8580"]), default="8580", show_default=True,
              help="With --audio: the SID VICE emulates.")
@reports_user_errors
def vice_command(target: str | None, program: str | None, sys_address: int | None, warp: bool,
                 labels: Path | None, emulator: str | None, check: bool, input_text: str, max_cycles: int,
                 expect: tuple[str, ...], expect_screen: Path | None, screenshot: Path | None,
                 audio: Path | None = None, sid_model: str = "8580") -> None:
    """Run a disk image or PRG in VICE, or check it headless on the real emulator.

    TARGET is a disk image (D64, D71, D81, T64; --program picks the program, default the
    first), a program on one (IMAGE:NAME, e.g. build/seeds.d64:"fox hunt"), a PRG, a
    BASIC listing (tokenized first) or '-' (standard input); it defaults to
    build/seeds.d64.  Machine code is started as a user would: SYS typed after the load
    (Superhirn II: SYS 13312).
    """
    from toolchain import vice
    from toolchain.inputs import input_path

    if target is None:
        target = "build/seeds.d64"
        if not Path(target).exists():
            raise not_built(target, "TARGET (a disk image, a PRG or a BASIC listing)")
    if screenshot is not None and not check:
        raise click.UsageError("--screenshot needs --check (the picture of a headless run's final screen)")
    if screenshot is not None:
        from toolchain.display.picture_files import picture_format

        picture_format(screenshot)  # a format that cannot be written: said before VICE runs
    if audio is not None and not check:
        raise click.UsageError("--audio needs --check (the sound of a headless run)")
    if audio is not None:
        from toolchain.sound.wav import check_wav_name

        check_wav_name(audio)  # VICE records WAV (-sounddev wav) whatever the name says
    inputs = [input_path(target), labels, expect_screen]
    for output in (screenshot, audio):
        if output is not None:
            refuse_replacing_inputs(output, inputs)  # said before VICE runs
    from toolchain.monitor.labels import read_labels

    # a VICE label file or a symbol table, checked as the monitor checks it
    named = read_labels(str(labels)) if labels is not None else None
    with tempfile.TemporaryDirectory(prefix="c64tc-vice-") as folder:
        start = resolve_target(target, program, sys_address, Path(folder))
        executable = vice.find_emulator(emulator)
        if not check:
            if vice.is_headless(executable):  # it would run with no window, until killed
                raise UserError.single(str(executable), "this x64sc is VICE's headless build: it opens no "
                                       "window to play in.  `c64tc vice --check` runs the program on it "
                                       "(--input, --expect, --screenshot); to play, install a VICE with a "
                                       "window (GTK3 or SDL) and name it with --emulator or C64TC_VICE")
            sys.exit(vice.start(executable, start, input_text, named, warp))
        result = vice.run_headless(executable, start, input_text, max_cycles, named, screenshot=screenshot,
                                   audio=audio, sid_model=sid_model)
    click.echo("\n".join(result.screen).rstrip("\n") + "\n", nl=False)
    if audio is not None:
        from toolchain.sound import read_wav

        seconds = read_wav(audio).seconds
        click.echo(f"{audio}: {seconds:.2f} s of VICE's sound (reSID, SID {sid_model})", err=True)
    expected_screen = read_text(expect_screen).splitlines() if expect_screen else None
    problems = vice.compare(result.screen, list(expect), expected_screen)
    for problem in problems:
        click.echo(f"{target}: mismatch: {problem}", err=True)
    sys.exit(1 if problems else 0)
