"""``c64tc vice``: the program in VICE, interactive or as a headless check."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from toolchain.cli.common import ADDRESS, COUNT, reports_user_errors
from toolchain.diagnostics import UserError
from toolchain.fileio import read_text


@click.command("vice")
@click.argument("target", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--program", help="Which program of the disk image to start (default: the first).")
@click.option("--sys", "sys_address", type=ADDRESS, help="Start address of machine code (default: where "
              "it loads).")
@click.option("--warp", is_flag=True, help="Start in warp mode.")
@click.option("--labels", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="VICE label file (c64tc asm --vice-labels) for the monitor.")
@click.option("--emulator", help=f"Path of x64sc (default: ${'C64TC_VICE'}, then the PATH).")
@click.option("--check", is_flag=True, help="Run headless and compare the final screen.")
@click.option("--input", "input_text", default="", help="Keys to type; RETURN is '|' or a line break.")
@click.option("--max-cycles", type=COUNT, default=20_000_000, show_default=True,
              help="With --check: stop after this many cycles.")
@click.option("--expect", multiple=True, help="With --check: text that must be on the final screen "
              "(several: in this order).")
@click.option("--expect-screen", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="With --check: the whole expected screen, as text.")
@click.option("--screenshot", type=click.Path(dir_okay=False, path_type=Path),
              help="With --check: save VICE's picture of the final screen as a PNG (384x272, Pepto "
              "palette).")
@reports_user_errors
def vice_command(target: Path | None, program: str | None, sys_address: int | None, warp: bool,
                 labels: Path | None, emulator: str | None, check: bool, input_text: str, max_cycles: int,
                 expect: tuple[str, ...], expect_screen: Path | None, screenshot: Path | None) -> None:
    """Run a disk image or PRG in VICE, or check it headless on the real emulator.

    TARGET defaults to build/seeds.d64.  Machine code is started as a user would: SYS
    typed after the load (Superhirn II: SYS 13312).
    """
    from toolchain import vice

    target = target or Path("build/seeds.d64")
    if not target.exists():
        raise UserError.single(str(target), "not built yet: run c64tc build first")
    if screenshot is not None and not check:
        raise click.UsageError("--screenshot needs --check (the picture of a headless run's final screen)")
    executable = vice.find_emulator(emulator)
    start = vice.target_for(target, program, sys_address)
    if not check:
        sys.exit(vice.start(executable, start, input_text, labels, warp))
    result = vice.run_headless(executable, start, input_text, max_cycles, labels, screenshot=screenshot)
    click.echo("\n".join(result.screen).rstrip("\n") + "\n", nl=False)
    expected_screen = read_text(expect_screen).splitlines() if expect_screen else None
    problems = vice.compare(result.screen, list(expect), expected_screen)
    for problem in problems:
        click.echo(f"{target}: mismatch: {problem}", err=True)
    sys.exit(1 if problems else 0)
