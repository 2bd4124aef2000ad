"""``c64tc screen``: a saved screen as a picture, text or ANSI-coloured text."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from toolchain.cli.common import reports_user_errors
from toolchain.fileio import write_atomic

COLOUR = click.IntRange(0, 15)


@click.command("screen")
@click.argument("screen_file", type=click.Path(path_type=Path))
@click.option("--colours", "--colors", "colours_file", type=click.Path(path_type=Path),
              help="Colour RAM dump (1000 bytes; default: light blue everywhere).")
@click.option("--format", "output_format", type=click.Choice(["png", "txt", "ansi"]),
              help="Output format (default: png, a picture, for an -o name with a picture's extension, "
              ".png, .gif, .jpg..., in the format it names; else txt).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
              help="Output file (default: standard output; a PNG needs a file or '-').")
@click.option("--lowercase", is_flag=True, help="The lower/upper case character set ($D018 bit 1).")
@click.option("--border", type=COLOUR, default=14, show_default=True, help="Border colour ($D020), 0-15.")
@click.option("--background", type=COLOUR, default=6, show_default=True,
              help="Background colour ($D021), 0-15.")
@click.option("--roms", type=click.Path(file_okay=False, path_type=Path),
              help="Folder with the C64 character ROM (default: $C64TC_ROMS, then VICE's).")
@click.option("--ascii", "plain", is_flag=True, help="Plain ASCII characters (txt and ansi).")
@reports_user_errors
def screen_command(screen_file: Path, colours_file: Path | None, output_format: str | None,
                   output: Path | None, lowercase: bool, border: int, background: int, roms: Path | None,
                   plain: bool) -> None:
    """Render a saved C64 screen: SCREEN_FILE holds the 1000 screen codes of screen
    memory ($0400-$07E7; also accepted as a PRG with its load address, as VICE's
    monitor saves it, or as the whole 1 KiB page).

    png: 384x272 pixels framed as VICE's screenshots, Pepto palette, with the
    character ROM's shapes when one is found (--roms, $C64TC_ROMS, or beside the
    VICE on the PATH), else the UNSCII font.  txt: 25 lines as c64tc run --screen
    prints them.  ansi: the screen in its border with terminal colours.
    """
    from toolchain.display.ansi import ColourDepth, render_ansi
    from toolchain.display.charset import ascii_for, strip_row, text_for
    from toolchain.display.state import COLUMNS, ROWS, ScreenImage

    image = ScreenImage.from_files(screen_file, colours_file, border=border, background=background,
                                   lowercase=lowercase)
    if output_format is None:
        output_format = "png" if output is not None and _names_a_picture(output) else "txt"
    data: bytes
    if output_format == "png":
        from toolchain.c64.roms import find_chargen
        from toolchain.display.png import png_bytes

        if output is None:
            raise click.UsageError("a PNG goes to a file: give -o FILE.png (or -o - for standard output)")
        from toolchain.display.picture_files import picture_file, picture_format

        kind = picture_format(output)
        found = find_chargen(roms)
        data = picture_file(output, png_bytes(image, found[0] if found else None))
        shapes = f"character ROM {found[1]}" if found else "UNSCII font (no character ROM found: --roms DIR)"
        click.echo(f"{output}: 384x272 {kind}, {shapes}", err=True)
    elif output_format == "txt":
        glyph = ascii_for if plain else text_for
        rows = [strip_row("".join(glyph(code, lowercase) for code in image.row_codes(row)))
                for row in range(ROWS)]
        assert all(len(row) <= COLUMNS for row in rows)
        data = ("\n".join(rows) + "\n").encode("utf-8")
    else:
        data = render_ansi(image, plain, ColourDepth.of_terminal()).encode("utf-8")
    if output is None or str(output) == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        write_atomic(output, data)


def _names_a_picture(path: Path) -> bool:
    """Whether ``path`` ends in an extension of a picture format Pillow writes."""
    from PIL import Image

    format_name = Image.registered_extensions().get(path.suffix.lower())
    return format_name is not None and format_name in Image.SAVE
