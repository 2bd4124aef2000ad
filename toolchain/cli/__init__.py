"""The ``c64tc`` command line.  Thin: it parses options and calls the packages' APIs.

One module per command group: ``asm``, ``disasm``, ``basic`` (tok, detok, list),
``build``, ``disk`` (d64), ``mlx``, ``monitor``, ``mse``, ``run`` (run, verify), ``screen``,
``vice``; ``common`` holds what they share (user errors as messages, number options, progress
display, a made PRG written).  ``run_options`` is run's options object (``monitor`` makes
one too), ``monitor_console`` the monitors' consoles both commands use, ``tune`` run's SID
tune player.
"""

from __future__ import annotations

import contextlib
import signal
import sys

import click

from toolchain.cli import asm, basic, build, disasm, disk, mlx, monitor, mse, run, screen, vice


class _Commands(click.Group):
    """The command group; Ctrl-C ends any command with status 130 (as a shell counts
    SIGINT), not click's "Aborted!" with status 1, which is an error's status here.
    SIGTERM (``kill``, ``timeout``) ends it as Ctrl-C does, with status 143: the
    temporary files of outputs not yet in place are removed on the way out (killed
    outright, a run left thousands of pictures' temporaries behind)."""

    def invoke(self, ctx: click.Context) -> object:
        previous = None
        with contextlib.suppress(ValueError):  # (not in the main thread: left as it is)
            previous = signal.signal(signal.SIGTERM, _terminated)
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("\nstopped by Ctrl-C", err=True)
            sys.exit(130)
        finally:
            if previous is not None:  # (a caller in the same process, a test, gets its own back)
                signal.signal(signal.SIGTERM, previous)


def _terminated(number: int, frame: object) -> None:
    sys.exit(128 + signal.SIGTERM)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="c64tc")
def main() -> None:
    """c64tc: from 1980s magazine listings to verified C64 PRG files and D64 disks."""


for _command in (asm.asm_command, disasm.disasm_command, basic.tok_command, basic.detok_command,
                 basic.list_command, build.build_command, disk.d64_group, mlx.mlx_group,
                 monitor.monitor_command,
                 mse.mse_group, run.run_command, run.verify_command, screen.screen_command,
                 vice.vice_command):
    main.add_command(_command)

__all__ = ["main"]
