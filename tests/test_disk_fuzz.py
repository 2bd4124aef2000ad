"""Random damage to real images, through every disk command: exit status 0 or 1,
never a traceback, and a failed command leaves the image as it was, byte for byte.

The default run tries a few examples per format; ``pytest -m slow`` many more."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import FUZZ_RANDOM
from toolchain.cli import main
from toolchain.disk import check, d64
from toolchain.disk.formats import BLOCK, FORMATS, DiskFormat
from toolchain.disk.names import shown_name


def _made_image(disk: DiskFormat) -> bytes:
    """Nine files of one to four blocks and a REL file, on ``disk``."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"base{disk.extension}"
        d64.create(path, "fuzz", "fz", disk.name)
        d64.add_files(path, [d64.NewFile(name, bytes([1, 8]) + bytes([n]) * (60 + 250 * (n % 4)),
                                         "SEQ" if n == 3 else "PRG") for n, name in enumerate("abcdefghi")])
        from d64 import DiskImage  # type: ignore[import-untyped]

        with DiskImage(path, "w") as image:
            with image.path(b"R").open("w", ftype="REL", record_len=30) as handle:
                handle.write(bytes(range(90)) * 4)
        return path.read_bytes()


_BASES: dict[str, bytes] = {}


def base_image(name: str) -> bytes:
    if name not in _BASES:
        _BASES[name] = _made_image(FORMATS[name])
    return _BASES[name]


def _sensitive_offsets(name: str) -> list[int]:
    """Where damage matters most: the header and BAM, the directory, and the links
    of every block in use."""
    disk = FORMATS[name]
    report = check.check(base_image(name), disk)
    places: list[int] = []
    for block in [disk.header, *disk.bam_blocks, *report.directory]:
        start = disk.block_offset(*block)
        places += range(start, start + BLOCK)
    for entry in report.files:
        for block in entry.chain + entry.side_sectors:
            start = disk.block_offset(*block)
            places += [start, start + 1, start + 2, start + 3]
    return places


@st.composite
def damage(draw: st.DrawFn, name: str) -> bytes:
    data = bytearray(base_image(name))
    sensitive = _sensitive_offsets(name)
    for _ in range(draw(st.integers(1, 8))):
        if draw(st.integers(0, 9)):
            place = draw(st.sampled_from(sensitive))
        else:
            place = draw(st.integers(0, len(data) - 1))
        data[place] = draw(st.integers(0, 255))
    if draw(st.integers(0, 30)) == 0:  # now and then a truncated image
        del data[draw(st.integers(0, len(data) - 1)):]
    return bytes(data)


def _readable(data: bytes, disk: DiskFormat) -> dict[int, tuple[bytes, bytes]]:
    report = check.check(data, disk)
    return {e.entry_offset: (e.raw_name, report.read(e)) for e in report.files if not e.unreadable}


def run_every_command(data: bytes, name: str) -> None:
    disk = FORMATS[name]
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        image = out / f"image{disk.extension}"
        new = out / "new.prg"
        new.write_bytes(bytes([1, 8]) + bytes(600))
        commands = [["list", str(image)], ["list", str(image), "?*=p"], ["validate", str(image)],
                    ["extract", str(image), "--all", "-d", str(out / "all")],
                    ["extract", str(image), "r", "-o", str(out / "r.rel")],
                    ["add", str(image), str(new)], ["add", str(image), "--replace", "--name", "b", str(new)],
                    ["rm", str(image), "c", "d*"], ["rename", str(image), "e", "ee", "r", "rr"],
                    ["validate", "--fix", str(image), "-o", str(out / "fixed.d")]]
        for command in commands:
            image.write_bytes(data)
            result = CliRunner().invoke(main, ["d64", *command])
            where = f"d64 {command[0]} {' '.join(command[2:])}"
            assert result.exit_code in (0, 1), (where, result.output)
            assert result.exception is None or isinstance(result.exception, SystemExit), \
                (where, repr(result.exception))
            assert "Traceback" not in result.output, where
            after = image.read_bytes()
            if command[0] not in ("add", "rm", "rename") or result.exit_code:
                assert after == data, f"{where} changed the image"
                continue
            before_files = check.check(data, disk).files
            # the files the command names, by their names as the DOS compares them: up to
            # the first shifted space (as the 1541 and c1541 find "R"NAME for R)
            named = {e.entry_offset: shown_name(e.raw_name.split(b"\xa0")[0]) for e in before_files}
            touched = {place for place, shown in named.items()
                       if shown.lower() in command[2:] or (command[0] == "rm" and shown.startswith("D"))}
            now = _readable(after, disk)
            for place, kept in _readable(data, disk).items():
                if place not in touched:
                    assert now.get(place) == kept, f"{where} changed {kept[0]!r}"
            assert not check.check(after, disk).errors, where


_SETTINGS = dict(deadline=None, derandomize=True, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.parametrize("name, examples", [("d64", 5), ("d81", 3)])
def test_random_damage_is_refused_cleanly_or_harmless(name: str, examples: int) -> None:
    @settings(max_examples=examples, **_SETTINGS)  # type: ignore[arg-type]
    @given(damage(name))
    def run(data: bytes) -> None:
        run_every_command(data, name)

    run()


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FORMATS))
def test_random_damage_many_examples(name: str) -> None:
    @settings(max_examples=300, **(_SETTINGS | {"derandomize": not FUZZ_RANDOM, "print_blob": True}))  # type: ignore[arg-type]
    @given(damage(name))
    def run(data: bytes) -> None:
        run_every_command(data, name)

    run()
