"""The ``c64tc`` command line.  Thin: it parses options and calls the packages' APIs."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from toolchain.diagnostics import Diagnostic, UserError
from toolchain.fileio import read_bytes, read_text, write_atomic


def _print_diagnostics(diagnostics: list[Diagnostic]) -> None:
    for diagnostic in diagnostics:
        click.echo(diagnostic.format(), err=True)


def reports_user_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """User mistakes become messages and exit status 1, never a traceback."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except UserError as exc:
            _print_diagnostics(getattr(exc, "warnings", []) + exc.diagnostics)
            count = sum(d.severity == "error" for d in exc.diagnostics)
            if count > 1:
                click.echo(f"{count} errors; no output written", err=True)
        sys.exit(1)

    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="c64tc")
def main() -> None:
    """c64tc: from 1980s magazine listings to verified C64 PRG files and D64 disks."""


def _load_asm_source(source: Path) -> str:
    if source.suffix.lower() == ".prg":
        # Profi-Ass kept its sources as BASIC programs: detokenize, then assemble.
        from toolchain.basic import detokenize
        from toolchain.disk import Prg

        return detokenize(Prg.from_bytes(read_bytes(source), str(source)), name=source.name,
                          path=str(source))
    return read_text(source)


@main.command("asm")
@click.argument("source", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Output file (default: build/NAME.prg).")
@click.option("--format", "output_format", type=click.Choice(["prg", "raw"]), default="prg",
              show_default=True, help="prg: two-byte load address + code; raw: code only.")
@click.option("-l", "--listing", type=click.Path(dir_okay=False, path_type=Path),
              help="Write a listing (address, bytes, line, source); '-' for standard output.")
@click.option("--vice-labels", type=click.Path(dir_okay=False, path_type=Path),
              help="Write a VICE monitor label file (al C:xxxx .name).")
@click.option("--symbols", is_flag=True, help="Print the symbol table, by name and by value.")
@reports_user_errors
def asm_command(source: Path, output: Path | None, output_format: str, listing: Path | None,
                vice_labels: Path | None, symbols: bool) -> None:
    """Assemble a Profi-Ass (64'er magazine) 6502 SOURCE into a PRG file.

    SOURCE may be text (with or without BASIC line numbers, or a petcat listing)
    or a tokenized .prg as Profi-Ass saved it.
    """
    from toolchain.asm import assemble
    from toolchain.asm.output import listing as make_listing
    from toolchain.asm.output import symbol_table
    from toolchain.asm.output import vice_labels as make_labels
    from toolchain.disk import Prg

    program = assemble(_load_asm_source(source), str(source))
    _print_diagnostics(program.warnings)
    output = output or Path("build") / f"{source.stem}.prg"
    image = Prg(program.start, program.image).to_bytes() if output_format == "prg" else program.image
    write_atomic(output, image)
    if listing is not None and str(listing) == "-":
        click.echo(make_listing(program), nl=False)
    elif listing is not None:
        write_atomic(listing, make_listing(program))
    elif program.listing_requested:
        click.echo(make_listing(program), nl=False)  # ".opt p" asks for a printed listing
    if vice_labels is not None:
        write_atomic(vice_labels, make_labels(program))
    if symbols:
        click.echo(symbol_table(program), nl=False)
    click.echo(f"{output}: ${program.start:04X}-${program.end - 1:04X}, {len(program.image)} bytes"
               + (" (+2 load address)" if output_format == "prg" else ""), err=True)


def _parse_address(value: str) -> int:
    """An address as users write it: $0801, 0x0801, or hex digits alone as petcat's -l."""
    address = int(value.strip().lower().removeprefix("$").removeprefix("0x"), 16)
    if not 0 <= address <= 0xFFFF:
        raise OutOfRange("outside $0000-$FFFF")
    return address


class OutOfRange(ValueError):
    pass


class IntegerType(click.ParamType):
    """A click parameter read by ``parse``; its ValueError becomes a usage message."""

    def __init__(self, name: str, parse: Callable[[str], int], hint: str) -> None:
        self.name = name
        self.parse = parse
        self.hint = hint

    def convert(self, value: Any, param: Any, ctx: Any) -> int:
        if isinstance(value, int):
            return value
        try:
            return self.parse(value)
        except OutOfRange as exc:
            self.fail(f"{value!r} is {exc}", param, ctx)
        except ValueError:
            self.fail(f"{value!r} is not {self.hint}", param, ctx)


ADDRESS = IntegerType("ADDRESS", _parse_address, "a hex address like $0801")


@main.command("tok")
@click.argument("sources", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Output PRG (default: build/NAME.prg, NAME from the first source).")
@click.option("--load-address", type=ADDRESS, default="0801", show_default=True,
              help="BASIC start of the target machine ($0801 C64, $1001 VIC-20/C16).")
@click.option("-v", "--verbose", is_flag=True, help="Say which lines the errata replaced or deleted.")
@reports_user_errors
def tok_command(sources: tuple[Path, ...], output: Path | None, load_address: int, verbose: bool) -> None:
    """Tokenize BASIC V2 listings (petcat text) into a PRG, as a C64 crunches typed lines.

    Later SOURCES correct earlier ones, as typing them on a C64 would: a line with the
    same number replaces the old one, a line number alone deletes it.
    """
    from toolchain.basic import tokenize

    prg, events = tokenize([(str(path), read_text(path)) for path in sources], load_address)
    if verbose:
        for event in events:
            click.echo(f"{event.by.path}:{event.by.source_line}: line {event.number} {event.action}",
                       err=True)
    output = output or Path("build") / f"{sources[0].stem}.prg"
    write_atomic(output, prg.to_bytes())
    click.echo(f"{output}: ${prg.load_address:04X}-${prg.end_address - 1:04X}, "
               f"{len(prg.data)} bytes (+2 load address)", err=True)


@main.command("detok")
@click.argument("prg_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the text here instead of standard output.")
@click.option("--no-header", is_flag=True, help="Leave out petcat's ';name ==0801==' header line.")
@reports_user_errors
def detok_command(prg_file: Path, output: Path | None, no_header: bool) -> None:
    """Detokenize a BASIC PRG into petcat-format text."""
    from toolchain.basic import detokenize
    from toolchain.disk import Prg

    prg = Prg.from_bytes(read_bytes(prg_file), str(prg_file))
    text = detokenize(prg, None if no_header else prg_file.name, str(prg_file))
    if output is None:
        click.echo(text, nl=False)
    else:
        write_atomic(output, text)


@main.command("list")
@click.argument("prg_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@reports_user_errors
def list_command(prg_file: Path) -> None:
    """Print a BASIC PRG as the C64's LIST shows it (upper case)."""
    from toolchain.basic import list_prg
    from toolchain.disk import Prg

    click.echo(list_prg(Prg.from_bytes(read_bytes(prg_file), str(prg_file)), str(prg_file)), nl=False)


@main.command("build")
@click.option("--manifest", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("sources/manifest.toml"), show_default=True, help="What to build.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("build"),
              show_default=True, help="Where the PRG files and the disk image go.")
@reports_user_errors
def build_command(manifest: Path, out_dir: Path) -> None:
    """Build every program of the manifest, check them, and write the PRGs and the D64.

    Nothing is written unless every program builds and every check passes.
    """
    from toolchain.build import build, summary

    progress = _progress_printer()
    report = build(manifest, out_dir, progress)
    progress("")
    click.echo(summary(report), nl=False)


def _progress_printer() -> Callable[[str], None]:
    """A one-line progress display on a terminal; silent when output is piped."""
    if not sys.stderr.isatty():
        return lambda message: None

    def show(message: str) -> None:
        click.echo("\r\x1b[K" + message, nl=False, err=True)

    return show


@main.group("d64")
def d64_group() -> None:
    """Create, list and change D64 disk images (1541 floppy)."""


@d64_group.command("create")
@click.argument("image", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--name", "disk_name", default="c64tc", show_default=True, help="Disk name (16 characters).")
@click.option("--id", "disk_id", default="64", show_default=True, help="Disk id (2 characters).")
@click.option("--force", is_flag=True, help="Replace an existing image.")
@reports_user_errors
def d64_create(image: Path, disk_name: str, disk_id: str, force: bool) -> None:
    """Create an empty disk image."""
    from toolchain.disk import d64

    if image.exists() and not force:
        raise UserError.single(str(image), "the image exists already (use --force to replace it)")
    d64.create(image, disk_name, disk_id)


@d64_group.command("add")
@click.argument("image", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("files", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--name", "disk_name", help="Name on the disk (default: the file name without extension).")
@click.option("--type", "file_type", type=click.Choice(["prg", "seq", "usr"], case_sensitive=False),
              default="prg", show_default=True)
@click.option("--replace", is_flag=True, help="Overwrite a file of the same name.")
@reports_user_errors
def d64_add(image: Path, files: tuple[Path, ...], disk_name: str | None, file_type: str,
            replace: bool) -> None:
    """Add FILES to the disk image (as stored: a PRG keeps its load address)."""
    from toolchain.disk import d64

    if disk_name and len(files) > 1:
        raise UserError.single(str(image), "--name needs exactly one file")
    for path in files:
        d64.add(image, disk_name or path.stem, read_bytes(path), file_type, replace)


@d64_group.command("list")
@click.argument("image", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@reports_user_errors
def d64_list(image: Path, as_json: bool) -> None:
    """Show the directory as LOAD"$",8 and LIST would."""
    import json

    from toolchain.disk import d64

    directory = d64.directory(image)
    if as_json:
        click.echo(json.dumps(directory.as_dict(), indent=2))
    else:
        click.echo(directory.listing(), nl=False)


@d64_group.command("extract")
@click.argument("image", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("name")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Output file (default: NAME.prg in the current folder).")
@reports_user_errors
def d64_extract(image: Path, name: str, output: Path | None) -> None:
    """Copy the file NAME out of the disk image."""
    from toolchain.disk import d64

    data = d64.extract(image, name)
    write_atomic(output or Path(f"{name.lower().replace(' ', '_')}.prg"), data)


@d64_group.command("rm")
@click.argument("image", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("names", nargs=-1, required=True)
@reports_user_errors
def d64_rm(image: Path, names: tuple[str, ...]) -> None:
    """Delete files from the disk image."""
    from toolchain.disk import d64

    for name in names:
        d64.remove(image, name)


@d64_group.command("rename")
@click.argument("image", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("old")
@click.argument("new")
@reports_user_errors
def d64_rename(image: Path, old: str, new: str) -> None:
    """Rename a file on the disk image."""
    from toolchain.disk import d64

    d64.rename(image, old, new)


@main.group("mse")
def mse_group() -> None:
    """MSE V1 hex dumps, as printed in the 64'er magazine."""


@mse_group.command("check")
@click.argument("dump_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@reports_user_errors
def mse_check(dump_file: Path) -> None:
    """Verify every line's checksum; report each bad line."""
    from toolchain import mse

    dump = mse.parse(read_text(dump_file), str(dump_file))
    problems = mse.check(dump)
    if problems:
        raise UserError(problems)
    click.echo(f"{dump_file}: {len(dump.lines)} lines, all checksums correct")


@mse_group.command("toprg")
@click.argument("dump_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Output PRG (default: build/NAME.prg).")
@reports_user_errors
def mse_toprg(dump_file: Path, output: Path | None) -> None:
    """Turn a verified dump into a PRG file."""
    from toolchain import mse

    prg = mse.to_prg(mse.parse(read_text(dump_file), str(dump_file)))
    output = output or Path("build") / f"{dump_file.stem}.prg"
    write_atomic(output, prg.to_bytes())
    click.echo(f"{output}: ${prg.load_address:04X}-${prg.end_address - 1:04X}, {len(prg.data)} bytes "
               "(+2 load address)", err=True)


@mse_group.command("fromprg")
@click.argument("prg_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--name", help="Program name for the header (default: the file name).")
@reports_user_errors
def mse_fromprg(prg_file: Path, name: str | None) -> None:
    """Print a PRG as an MSE dump in the magazine's format."""
    from toolchain import mse
    from toolchain.disk import Prg

    prg = Prg.from_bytes(read_bytes(prg_file), str(prg_file))
    click.echo(mse.from_prg(prg, name or prg_file.stem), nl=False)


def _parse_number(value: str) -> int:
    """A number as C64 users write it: 13312, $3400 or 0x3400."""
    text = value.strip().lower()
    if text.startswith(("$", "0x")):
        return int(text.removeprefix("$").removeprefix("0x"), 16)
    return int(text)


NUMBER = IntegerType("NUMBER", _parse_number, "a number (13312, $3400 or 0x3400)")


class _Terminal:
    """Interactive play: what the program printed is shown, then a line is read.

    The terminal moves to a new line when the player presses Enter; on the C64 the
    cursor stays behind the typed text until the program prints its RETURN.  So the
    first RETURN printed after a typed line is already on the terminal: skip it."""

    def __init__(self, machine: Any) -> None:
        self.machine = machine
        self.shown = 0
        self.after_input = False

    def flush(self) -> None:
        from toolchain.c64.screen import petscii_to_screen_code, screen_code_to_text

        text = []
        for byte in self.machine.output_log[self.shown :]:
            if byte in (0x0D, 0x8D) and self.after_input:
                self.after_input = False
                continue
            self.after_input = False
            if byte in (0x0D, 0x8D, 0x93):
                text.append("\n")
            elif byte == 0x1D:  # cursor right: on a terminal's fresh line, a space
                text.append(" ")
            elif not (byte < 0x20 or 0x80 <= byte < 0xA0):
                text.append(screen_code_to_text(petscii_to_screen_code(byte)))
        self.shown = len(self.machine.output_log)
        click.echo("".join(text), nl=False)

    def __call__(self) -> str | None:
        self.flush()
        try:
            line = input()
        except EOFError:
            return None
        self.after_input = True
        return line


@main.command("run")
@click.argument("program", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("errata", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--sys", "sys_address", type=NUMBER, help="Start address, as SYS takes it (13312 or $3400).")
@click.option("--input", "input_text", help="What the user types; RETURN is '|' or a line break.")
@click.option("--input-file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Read the typed input from a file.")
@click.option("--max-cycles", type=NUMBER, default=2_000_000_000, show_default=True,
              help="Stop machine code after this many cycles (in BASIC: each SYS or USR call).")
@click.option("--max-statements", type=NUMBER, help="BASIC: stop after this many statement groups "
              "(the runs between jumps).")
@click.option("--screen", "show", flag_value="screen", help="Print the final screen.")
@click.option("--transcript", "show", flag_value="transcript", default=True,
              help="Print every screen line as it scrolled by, then the final screen (default).")
@click.option("--raw", "show", flag_value="raw", help="Print the PETSCII bytes the program printed.")
@click.option("--trace", is_flag=True, help="Machine code: print every instruction to standard error.")
@reports_user_errors
def run_command(program: Path, errata: tuple[Path, ...], sys_address: int | None, input_text: str | None,
                input_file: Path | None, max_cycles: int, max_statements: int | None, show: str,
                trace: bool) -> None:
    """Run PROGRAM on the emulated C64: a BASIC program as RUN would, machine code as
    SYS would.

    PROGRAM is a PRG, or a BASIC listing (.bas, petcat format) that is tokenized
    first, with ERRATA listings merged over it (same line number replaces).  A PRG
    whose bytes are BASIC lines runs as BASIC (loaded at $0801, as LOAD"X",8 would)
    unless --sys is given.  Without --input the program is played interactively on a
    terminal.

    Exit status: 0 END, READY. or returned to BASIC; 1 a BASIC error, BRK, JAM or an
    unmodelled ROM call; 2 cycle or statement limit; 3 input used up while the
    program waits for more.
    """
    from toolchain.basic.runner import RunStop, Runtime, as_loaded
    from toolchain.basic.tokenizer import C64_BASIC_START, link, merge, tokenize_lines
    from toolchain.c64.machine import C64, Keyboard
    from toolchain.cpu.disassembler import trace_line
    from toolchain.disk import Prg

    listing_lines = {}  # BASIC line number -> where it was typed, for a listing
    if program.suffix.lower() == ".bas" or errata:
        listings = [tokenize_lines(read_text(path), str(path)) for path in (program, *errata)]
        lines = merge(listings)[0]
        listing_lines = {line.number: line for line in lines}
        prg = Prg(C64_BASIC_START, link(lines))
    else:
        prg = Prg.from_bytes(read_bytes(program), str(program))
    loaded = as_loaded(prg) if sys_address is None else None
    basic = loaded is not None
    if loaded is not None:
        prg = loaded
    if sys_address is None and not basic:
        raise UserError.single(str(program), f"say where to start: --sys {prg.load_address} "
                               f"(${prg.load_address:04X} is where the program loads)")
    machine = C64()
    interactive = input_text is None and input_file is None and sys.stdin.isatty()
    if input_file is not None:
        input_text = read_text(input_file)
    terminal = _Terminal(machine) if interactive else None
    machine.keyboard = Keyboard(input_text, terminal)
    machine.load(prg)
    if basic:
        runtime = Runtime(prg.data, machine)
        runtime.max_cycles = max_cycles
        # a progress line would mix with the dialogue when the player is typing
        progress = _progress_printer() if terminal is None else (lambda message: None)
        result = runtime.run(max_statements, lambda done, line: progress(
            f"line {line}: {done:,} statement groups"))
        progress("")
        summary = (f"{result.message}: {result.statements:,} statement groups in "
                   f"{result.seconds:.2f} s")
        typed = listing_lines.get(result.line) if result.stop is RunStop.ERROR else None
        if typed is not None:  # where to fix it, for the editor
            summary = f"{typed.path}:{typed.source_line}:1: error: {summary}"
        exit_status = result.stop.exit_status
    else:
        tracer = (lambda cpu: click.echo(trace_line(cpu), err=True)) if trace else None
        result = machine.sys(sys_address, max_cycles, tracer)
        summary = (f"{result.message}: {result.instructions:,} instructions, {result.cycles:,} "
                   f"cycles ({result.seconds:.2f} s on a PAL C64)")
        exit_status = result.stop.exit_status
    if show == "screen":
        click.echo(machine.screen.text(), nl=False)
    elif show == "raw":
        sys.stdout.buffer.write(bytes(machine.output_log))
        sys.stdout.flush()
    elif terminal is None:
        click.echo(machine.screen.transcript(), nl=False)
    else:
        terminal.flush()  # what the program printed after the last answer
        click.echo()
    click.echo(summary, err=True)
    sys.exit(exit_status)


@main.command("verify")
@click.argument("name", type=click.Choice(["superhirn", "superhirn3", "strategies"]))
@click.option("--prg", "prg_file", type=click.Path(dir_okay=False, path_type=Path),
              help="The built program (default: build/superhirn2.prg, build/superhirn3.prg).")
@click.option("--sample", type=int, help="Play this many secrets (chosen at random, fixed seed) "
              "instead of all.")
@reports_user_errors
def verify_command(name: str, prg_file: Path | None, sample: int | None) -> None:
    """Play every game of a built program against an independent Python model.

    superhirn: all 1296 secrets of Superhirn II, each answered correctly by an
    automatic player; every game must agree with the model of the article's algorithm.

    superhirn3: the same for Superhirn III against the minimax model.

    strategies: the Python models of Superhirn II, Superhirn III (minimax over the
    consistent codes) and Knuth's minimax compared over all 1296 codes.
    """
    from toolchain.disk import Prg
    from toolchain.verify import VERIFIERS, guess_statistics
    from toolchain.verify.superhirn import secrets_sample

    if name == "strategies":
        from toolchain.verify import strategies

        click.echo(strategies.comparison([strategies.superhirn2(), strategies.superhirn3(),
                                          strategies.knuth()]), nl=False)
        return

    prg_file = prg_file or Path("build") / ("superhirn3.prg" if name == "superhirn3" else "superhirn2.prg")
    if not prg_file.exists():
        raise UserError.single(str(prg_file), "not built yet: run c64tc build first")
    prg = Prg.from_bytes(read_bytes(prg_file), str(prg_file))
    progress = _progress_bar()
    verification = VERIFIERS[name](prg, secrets_sample(sample) if sample else None, progress)
    progress(0, 0)
    click.echo(guess_statistics(verification), nl=False)
    sys.exit(0 if verification.passed else 1)


@main.command("vice")
@click.argument("target", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--program", help="Which program of the disk image to start (default: the first).")
@click.option("--sys", "sys_address", type=NUMBER, help="Start address of machine code (default: where "
              "it loads).")
@click.option("--warp", is_flag=True, help="Start in warp mode.")
@click.option("--labels", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="VICE label file (c64tc asm --vice-labels) for the monitor.")
@click.option("--emulator", help=f"Path of x64sc (default: ${'C64TC_VICE'}, then the PATH).")
@click.option("--check", is_flag=True, help="Run headless and compare the final screen.")
@click.option("--input", "input_text", default="", help="Keys to type; RETURN is '|' or a line break.")
@click.option("--max-cycles", type=NUMBER, default=20_000_000, show_default=True,
              help="With --check: stop after this many cycles.")
@click.option("--expect", multiple=True, help="With --check: text that must be on the final screen "
              "(several: in this order).")
@click.option("--expect-screen", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="With --check: the whole expected screen, as text.")
@reports_user_errors
def vice_command(target: Path | None, program: str | None, sys_address: int | None, warp: bool,
                 labels: Path | None, emulator: str | None, check: bool, input_text: str, max_cycles: int,
                 expect: tuple[str, ...], expect_screen: Path | None) -> None:
    """Run a disk image or PRG in VICE, or check it headless on the real emulator.

    TARGET defaults to build/seeds.d64.  Machine code is started as a user would: SYS
    typed after the load (Superhirn II: SYS 13312).
    """
    from toolchain import vice

    target = target or Path("build/seeds.d64")
    if not target.exists():
        raise UserError.single(str(target), "not built yet: run c64tc build first")
    executable = vice.find_emulator(emulator)
    start = vice.target_for(target, program, sys_address)
    if not check:
        sys.exit(vice.start(executable, start, input_text, labels, warp))
    result = vice.run_headless(executable, start, input_text, max_cycles, labels)
    click.echo("\n".join(result.screen).rstrip("\n") + "\n", nl=False)
    expected_screen = read_text(expect_screen).splitlines() if expect_screen else None
    problems = vice.compare(result.screen, list(expect), expected_screen)
    for problem in problems:
        click.echo(f"{target}: mismatch: {problem}", err=True)
    sys.exit(1 if problems else 0)


def _progress_bar() -> Callable[[int, int], None]:
    """A progress bar on a terminal; nothing when standard error is piped."""
    if not sys.stderr.isatty():
        return lambda done, total: None

    def show(done: int, total: int) -> None:
        if total == 0:
            click.echo("\r\x1b[K", nl=False, err=True)
            return
        width = 40
        filled = width * done // total
        click.echo(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}", nl=False, err=True)

    return show


if __name__ == "__main__":  # pragma: no cover
    main()
