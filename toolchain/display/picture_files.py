"""Picture files in the format their names ask for.

c64tc draws PNG pictures (:mod:`toolchain.display.png`; VICE's screenshots, which
``c64tc vice --check --screenshot`` keeps, are PNG too).  A name ending in another
picture format's extension that Pillow writes (``.jpg``, ``.gif``, ``.bmp``,
``.webp``, ``.tiff``, ...) gets that format, converted by Pillow, as a user of an
image tool expects; a name without such an extension gets PNG.  A format Pillow
cannot write here is an error before any work, not a PNG under a JPEG's name.
"""

from __future__ import annotations

import functools
import io
from pathlib import Path

from toolchain.diagnostics import UserError

DEFAULT = "PNG"


def _encode(picture: object, format_name: str) -> bytes:
    """``picture`` (a Pillow image) in ``format_name``; a paletted picture that the
    format cannot hold (JPEG) as RGB."""
    from PIL import Image

    assert isinstance(picture, Image.Image)
    buffer = io.BytesIO()
    try:
        picture.save(buffer, format=format_name)
    except (OSError, ValueError):
        buffer = io.BytesIO()
        picture.convert("RGB").save(buffer, format=format_name)
    return buffer.getvalue()


@functools.cache
def _writable(format_name: str) -> str | None:
    """Why Pillow cannot write ``format_name`` here (None when it can): tried on a
    one-pixel paletted picture."""
    from PIL import Image

    try:
        _encode(Image.new("P", (1, 1)), format_name)
    except Exception as exc:  # Pillow's plugins fail in their own ways
        return str(exc) or type(exc).__name__
    return None


def picture_format(path: str | Path) -> str:
    """The format ``path``'s name asks for (Pillow's name: PNG, JPEG, GIF, ...); a
    UserError when Pillow cannot write it."""
    from PIL import Image

    suffix = Path(path).suffix.lower()
    format_name = Image.registered_extensions().get(suffix) if suffix else None
    if format_name is None or format_name not in Image.SAVE:
        return DEFAULT
    problem = _writable(format_name)
    if problem is not None:
        raise UserError.single(str(path), f"cannot write a {format_name} picture ({problem}): name the file "
                               "NAME.png (or .gif, .bmp, .jpg)")
    return format_name


def picture_file(path: str | Path, png: bytes) -> bytes:
    """The bytes of the file ``path`` names for the PNG picture ``png``: the PNG
    itself, or the picture in the format the name asks for."""
    format_name = picture_format(path)
    if format_name == DEFAULT:
        return png
    from PIL import Image

    with Image.open(io.BytesIO(png)) as picture:
        picture.load()
        return _encode(picture, format_name)
