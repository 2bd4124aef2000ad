"""``c64tc build``: the manifest's programs to a checked disk."""

from __future__ import annotations

from pathlib import Path

import click

from toolchain.cli.common import progress_printer, reports_user_errors
from toolchain.diagnostics import UserError


@click.command("build")
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

    if manifest == Path("sources/manifest.toml") and not manifest.exists() and not manifest.is_symlink():
        raise UserError.single(str(manifest), "cannot read: no such file: c64tc build builds a c64tc "
                               "project (run it in the folder you cloned c64tc into), or the manifest "
                               "--manifest FILE names")
    progress = progress_printer()
    report = build(manifest, out_dir, progress)
    progress("")
    click.echo(summary(report), nl=False)
