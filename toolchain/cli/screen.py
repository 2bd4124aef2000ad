"""``c64tc screen``: a saved screen, or saved memory, as a picture, text or ANSI-coloured text."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from toolchain.cli.common import reports_user_errors
from toolchain.diagnostics import UserError, counted
from toolchain.fileio import read_bytes, write_atomic

COLOUR = click.IntRange(0, 15)
EXISTING = click.Path(path_type=Path)  # read by read_bytes: a missing one is "cannot read", status 1
RAM_SIZE = 0x10000
REGISTERS = 0xD000


def memory_from_dumps(paths: tuple[Path, ...]) -> bytearray:
    """64 KiB of RAM from dumps: a PRG goes to its load address (VICE's monitor ``s "file"
    0 START END`` writes one), a file of 65,536 bytes is the whole memory."""
    ram = bytearray(RAM_SIZE)
    for path in paths:
        data = read_bytes(path)
        if len(data) == RAM_SIZE:
            ram[:] = data
            continue
        if len(data) < 3:
            raise UserError.single(str(path), f"{counted(len(data), 'byte')} is not a memory dump: expected "
                                   f"a PRG (its load address first) or the whole {RAM_SIZE:,} bytes")
        start = data[0] | data[1] << 8
        payload = data[2:]
        if start + len(payload) > RAM_SIZE:
            raise UserError.single(str(path), f"a PRG at ${start:04X} of {counted(len(payload), 'byte')} "
                                   "goes past $FFFF")
        ram[start : start + len(payload)] = payload
    return ram


def registers_from_dump(path: Path) -> bytes:
    """The VIC-II's registers from $D000: 47 or 64 bytes, or a PRG of them loaded at $D000."""
    data = read_bytes(path)
    if len(data) in (47 + 2, 64 + 2) and data[0] | data[1] << 8 == REGISTERS:
        data = data[2:]
    if len(data) not in (47, 64):
        raise UserError.single(str(path), f"{counted(len(data), 'byte')} is not a dump of the VIC-II's "
                               "registers: expected 47 ($D000-$D02E) or 64, raw or as a PRG loaded at $D000")
    return data + bytes(64 - len(data))


@click.command("screen")
@click.argument("screen_file", required=False, type=EXISTING)
@click.option("--colours", "--colors", "colours_file", type=EXISTING,
              help="Colour RAM dump (1000 bytes; default: light blue everywhere).")
@click.option("--memory", "memory_files", type=EXISTING, multiple=True,
              help="Memory the VIC-II reads (repeatable): a PRG placed at its load address, as VICE's "
              "monitor saves one (s \"bitmap\" 0 2000 3f3f), or all 65,536 bytes: bitmaps, character sets, "
              "sprites, the screen.  The picture is then the VIC-II's whole frame.")
@click.option("--registers", "registers_file", type=EXISTING,
              help="The VIC-II's registers $D000-$D02E (47 bytes, or a PRG saved from $D000): modes, "
              "pointers, sprites, colours (default: as the KERNAL sets them).")
@click.option("--bank", type=click.IntRange(0, 3), default=0, show_default=True,
              help="The VIC-II's 16 KiB bank (CIA 2's $DD00 bits 0-1: 3 - bank) for --memory.")
@click.option("--format", "output_format", type=click.Choice(["png", "txt", "ansi"]),
              help="Output format (default: png, a picture, for an -o name with a picture's extension, "
              ".png, .gif, .jpg..., in the format it names; else txt).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
              help="Output file (default: standard output; a PNG needs a file or '-').")
@click.option("--lowercase", is_flag=True, help="The lower/upper case character set ($D018 bit 1).")
@click.option("--border", type=COLOUR, help="Border colour ($D020), 0-15 [default: 14, or --registers'].")
@click.option("--background", type=COLOUR, help="Background colour ($D021), 0-15 [default: 6, or "
              "--registers'].")
@click.option("--roms", type=click.Path(file_okay=False, path_type=Path),
              help="Folder with the C64 character ROM (default: $C64TC_ROMS, then VICE's).")
@click.option("--ascii", "plain", is_flag=True, help="Plain ASCII characters (txt and ansi).")
@reports_user_errors
def screen_command(screen_file: Path | None, colours_file: Path | None, memory_files: tuple[Path, ...],
                   registers_file: Path | None, bank: int, output_format: str | None, output: Path | None,
                   lowercase: bool, border: int | None, background: int | None, roms: Path | None,
                   plain: bool) -> None:
    """Render a saved C64 screen: SCREEN_FILE holds the 1000 screen codes of screen
    memory ($0400-$07E7; also accepted as a PRG with its load address, as VICE's
    monitor saves it, or as the whole 1 KiB page).  With --memory (and --registers),
    the VIC-II's frame of saved memory: bitmaps, character sets in RAM, sprites; a
    SCREEN_FILE given too goes where $D018 puts the screen.

    png: 384x272 pixels framed as VICE's screenshots, Pepto palette, drawn by c64tc's
    VIC-II with the character ROM's shapes when one is found (--roms, $C64TC_ROMS, or
    beside the VICE on the PATH), else the UNSCII font.  txt: 25 lines as c64tc run
    --screen prints them.  ansi: the screen in its border with terminal colours.
    """
    from toolchain.display.ansi import ColourDepth, render_ansi
    from toolchain.display.charset import ascii_for, strip_row, text_for
    from toolchain.display.png import kernal_registers
    from toolchain.display.state import CELLS, COLUMNS, ROWS, ScreenImage

    if screen_file is None and not memory_files:
        raise click.UsageError("give SCREEN_FILE (a screen memory dump) or --memory FILE")
    whole_frame = bool(memory_files) or registers_file is not None
    registers = bytearray(registers_from_dump(registers_file) if registers_file is not None
                          else kernal_registers())
    if registers_file is None:
        registers[0x18] = 0x15
    if border is not None:
        registers[0x20] = border
    if background is not None:
        registers[0x21] = background
    if lowercase:
        registers[0x18] |= 0x02
    ram = memory_from_dumps(memory_files)
    screen_address = bank * 0x4000 + (registers[0x18] >> 4) * 0x400
    if screen_file is not None:
        image = ScreenImage.from_files(screen_file, colours_file, border=registers[0x20] & 15,
                                       background=registers[0x21] & 15,
                                       lowercase=bool(registers[0x18] & 0x02))
        ram[screen_address : screen_address + CELLS] = image.codes
    else:
        colour_ram = (ScreenImage.from_dumps(bytes(CELLS), read_bytes(colours_file),
                                             colours_name=str(colours_file)).colours
                      if colours_file is not None else bytes([14]) * CELLS)
        image = ScreenImage(bytes(ram[screen_address : screen_address + CELLS]), colour_ram,
                            registers[0x20] & 15, registers[0x21] & 15, bool(registers[0x18] & 0x02))
    if output_format is None:
        output_format = "png" if output is not None and _names_a_picture(output) else "txt"
    data: bytes
    if output_format == "png":
        from toolchain.c64.chips.vic_render import VideoMemory
        from toolchain.c64.roms import find_chargen
        from toolchain.display.png import character_rom_of, frame_of, frame_png, png_bytes

        if output is None:
            raise click.UsageError("a PNG goes to a file: give -o FILE.png (or -o - for standard output)")
        from toolchain.display.picture_files import picture_file, picture_format

        kind = picture_format(output)
        found = find_chargen(roms)
        chargen = found[0] if found else None
        if whole_frame:
            memory = VideoMemory.of(ram, bank, character_rom_of(chargen), image.colours + bytes(24))
            data = picture_file(output, frame_png(frame_of(registers, memory)))
        else:
            data = picture_file(output, png_bytes(image, chargen))
        shapes = f"character ROM {found[1]}" if found else "UNSCII font (no character ROM found: --roms DIR)"
        click.echo(f"{output}: 384x272 {kind}, {shapes}", err=True)
    elif output_format == "txt":
        glyph = ascii_for if plain else text_for
        rows = [strip_row("".join(glyph(code, image.lowercase) for code in image.row_codes(row)))
                for row in range(ROWS)]
        assert all(len(row) <= COLUMNS for row in rows)
        data = ("\n".join(rows) + "\n").encode("utf-8")
    else:
        data = render_ansi(image, plain, ColourDepth.of_terminal()).encode("utf-8")
    if output is None or str(output) == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        write_atomic(output, data, inputs=[screen_file, colours_file, registers_file, *memory_files])


def _names_a_picture(path: Path) -> bool:
    """Whether ``path`` ends in an extension of a picture format Pillow writes."""
    from PIL import Image

    format_name = Image.registered_extensions().get(path.suffix.lower())
    return format_name is not None and format_name in Image.SAVE
