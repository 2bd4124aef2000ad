"""``c64tc monitor``: machine code under a monitor in the style of VICE's, the same as
``c64tc run --monitor`` (the console both use is :mod:`toolchain.cli.monitor_console`)."""

from __future__ import annotations

from typing import Any

import click

from toolchain.c64.run import DEFAULT_RUN_CYCLES
from toolchain.cli.common import ADDRESS, COUNT, TYPED_INPUT, reports_user_errors, sys_of_first_line
from toolchain.cli.run import run_program
from toolchain.cli.run_options import RunOptions
from toolchain.fileio import STDIO


@click.command("monitor")
@click.argument("path", metavar="PROGRAM")
@click.option("--sys", "sys_address", type=ADDRESS,
              help="Start address, as SYS takes it (13312 or $3400); default: where a machine-code PRG "
                   "loads.")
@click.option("--monitor-commands", type=click.Path(dir_okay=False, allow_dash=True),
              help="Run the monitor commands in this file ('-': standard input) first, like VICE's "
                   "-moncommands; then, on a terminal, read typed ones.")
@click.option("--labels", "label_files", type=click.Path(dir_okay=False, exists=True), multiple=True,
              help="Labels for the monitor: a VICE label file (c64tc asm --vice-labels) or a symbol table "
                   "(c64tc asm --symbols).")
@click.option("--input", "input_text", help="What the user types; " + TYPED_INPUT)
@click.option("--input-file", type=click.Path(dir_okay=False, allow_dash=True),
              help="Read the typed input from a file; " + TYPED_INPUT)
@click.option("--max-cycles", type=COUNT, default=DEFAULT_RUN_CYCLES, show_default=True,
              help="Stop the program after this many cycles of C64 time in all (the monitor's runs "
              "together); the default is 100 hours, as run's.")
@click.option("--roms", "roms_dir", type=click.Path(file_okay=False, exists=True),
              help="Run the C64's own ROMs from this folder (see c64tc run --help).")
@click.option("--no-roms", is_flag=True, help="Run on c64tc's models of the ROMs even where ROMs are found.")
@click.option("--stop-on-brk", is_flag=True, help="Stop at a BRK instead of the C64's warm start.")
@click.option("--disk", "disk_path", type=click.Path(dir_okay=False),
              help="Put this disk image in drive 8 (the monitor's device 8: s \"NAME\" 8 ..., l \"NAME\" 8); "
              "changed in memory only, unless --write-disk.")
@click.option("--write-disk", is_flag=True,
              help="When the run ends, write the disk in drive 8 back to its image.")
@reports_user_errors
def monitor_command(**params: Any) -> None:
    """Run machine code under a monitor in the style of VICE's, opened before the first
    instruction: r, m, d, a, f, h, c, t, z, n, ret, g, x, q, break, watch, del, s, l, bs,
    bl, io, bank, reset, sc, help.

    Numbers in the monitor are hex ($c000 or c000; +49152 decimal); .name is a label.
    Scripted: --monitor-commands FILE runs the commands without a terminal (each echoed
    after the prompt), e.g. 'break .antwort', 'g', 'r', 'm .runde', 'x'.  At the end of
    the commands the program runs on without the monitor.  The same as c64tc run
    PROGRAM --sys ADDRESS --monitor.
    """
    path = params["path"]
    if params["sys_address"] is None and path != STDIO:
        params["sys_address"] = _load_address_of_machine_code(path)
    run_program(RunOptions.from_params({**params, "monitor": True}))


def _load_address_of_machine_code(path: str) -> int | None:
    """Where a machine-code PRG loads (the monitor starts there unless --sys says);
    None for anything else (c64tc run then says what fits).  A BASIC program is a usage
    error that says where its SYS goes (64tass's and ACME's ``10 SYS 2061`` stub before
    the code: the monitor follows machine code, and --break-line is run's)."""
    from toolchain.diagnostics import UserError
    from toolchain.inputs import BASIC_LINES, RUNNABLE, Kind, read_program, shown_argument

    try:
        given = read_program(path, "monitor", "machine code (a PRG)", RUNNABLE)
    except UserError:
        return None
    if given.kind in BASIC_LINES or given.kind is Kind.BASIC_LISTING:
        name = shown_argument(path)
        stub = sys_of_first_line(given.prg.data)
        where = (f"; its line {stub[0]} is SYS {stub[1]}: give --sys {stub[1]} to follow the machine code it "
                 "starts" if stub is not None else "; give --sys ADDRESS for machine code it holds")
        raise click.UsageError(f"the monitor follows machine code; {name} is a BASIC program{where} "
                               f"(`c64tc run {name} --break-line LINE` stops BASIC at a line)")
    return given.prg.load_address if given.kind is Kind.MACHINE_CODE_PRG else None
