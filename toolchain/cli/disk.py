"""``c64tc d64``: disk images."""

from __future__ import annotations

from pathlib import Path

import click

from toolchain.cli.common import reports_user_errors
from toolchain.diagnostics import UserError
from toolchain.fileio import read_bytes, write_atomic


@click.group("d64")
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
