"""The build manifest (``sources/manifest.toml``): read, and checked against its
schema before any work is done.

Every problem is reported as ``manifest.toml:LINE: error: ...`` with the line of the
key (or table) it concerns, all of them at once: wrong types, addresses outside
$0000-$FFFF, names that are not plain file names (an output is written as
``<out>/<name>.prg``: no path separators, no ``..``), missing keys, unknown keys,
typed input with characters a C64 keyboard cannot type.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolchain.diagnostics import Diagnostic, UserError
from toolchain.fileio import is_dir, is_file, read_text

KINDS = ("asm", "basic", "mse")
DIALECTS = ("profi", "64tass", "acme")  # c64tc asm --dialect
CHECK_KINDS = ("mse", "roundtrip", "dialogue")
MAX_DISK_NAME = 16
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]{0,63}")
# A dialogue check must end: without a limit of its own a BASIC program gets this many
# statement groups (a scripted dialogue of the seed programs needs a few thousand), machine
# code this many cycles (100 s of C64 time: a Superhirn III game takes 25); a check that
# needs more says so.
DEFAULT_CHECK_STATEMENTS = 1_000_000
DEFAULT_CHECK_CYCLES = 100_000_000


@dataclass
class CheckSpec:
    kind: str
    line: int
    file: Path | None = None  # mse
    sys: int | None = None  # dialogue: machine code's start
    input: str = ""
    expect: list[str] = field(default_factory=list)
    max_statements: int | None = None  # given: the program may still be running there
    max_cycles: int = DEFAULT_CHECK_CYCLES


@dataclass
class ProgramSpec:
    name: str  # the output is <out>/<name>.prg
    disk_name: str
    kind: str
    sources: list[Path]
    checks: list[CheckSpec]
    line: int
    load_address: int | None = None  # BASIC only
    # asm only: c64tc asm's -I folders (absolute: relative ones are the manifest's), -D
    # definitions, --dialect (None: chosen as c64tc asm chooses it)
    include_paths: list[Path] = field(default_factory=list)
    defines: list[tuple[str, int]] = field(default_factory=list)
    dialect: str | None = None
    folder: Path = Path(".")  # the manifest's: where its relative names start


@dataclass
class Manifest:
    path: Path
    text: str
    disk_name: str
    disk_id: str
    disk_file: str
    programs: list[ProgramSpec]


class _Places:
    """The line of every table and key in the TOML text (tomllib keeps no positions):
    keys by table path, e.g. (("program", 1, "check", 0), "sys")."""

    _HEADER = re.compile(r"\s*(\[\[?)\s*([A-Za-z0-9_.]+)\s*\]\]?")
    _KEY = re.compile(r"\s*([A-Za-z0-9_\"-]+)\s*=")

    def __init__(self, text: str) -> None:
        self.lines: dict[tuple[tuple[Any, ...], str | None], int] = {}
        counters: dict[str, int] = {}
        table: tuple[Any, ...] = ()
        for number, line in enumerate(text.splitlines(), start=1):
            header = self._HEADER.match(line)
            if header:
                names = header.group(2).split(".")
                if header.group(1) == "[[":
                    dotted = header.group(2)
                    counters[dotted] = counters.get(dotted, -1) + 1
                    # a nested array of tables restarts with each parent entry
                    for other in list(counters):
                        if other.startswith(dotted + "."):
                            del counters[other]
                path: list[Any] = []
                for depth, name in enumerate(names):
                    path.append(name)
                    prefix = ".".join(names[: depth + 1])
                    if prefix in counters:
                        path.append(counters[prefix])
                table = tuple(path)
                self.lines.setdefault((table, None), number)
                continue
            key = self._KEY.match(line)
            if key:
                self.lines.setdefault((table, key.group(1).strip('"')), number)

    def line(self, table: tuple[Any, ...], key: str | None = None) -> int:
        """The line of ``key`` in ``table``, else of the table, else of the key that
        holds the table (``disk = 3`` for [disk]), else 0."""
        found = self.lines.get((table, key)) if key is not None else None
        if found is None and key is not None:
            found = self.lines.get(((*table, key), None))  # a key that is a table of its own
        if found is None:
            found = self.lines.get((table, None))
        if found is None and table and isinstance(table[-1], str):
            found = self.lines.get((table[:-1], table[-1]))
        return found or 0


class _Reader:
    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.text = text
        self.places = _Places(text)
        self.errors: list[Diagnostic] = []

    def error(self, table: tuple[Any, ...], key: str | None, message: str) -> None:
        line = self.places.line(table, key)
        rows = self.text.splitlines()
        source = rows[line - 1] if 0 < line <= len(rows) else None
        self.errors.append(Diagnostic(str(self.path), line, 0, message, source_line=source))

    def table(self, data: Any, where: tuple[Any, ...], label: str) -> dict[str, Any] | None:
        if not isinstance(data, dict):
            self.error(where, None, f"{label} must be a table, not {_kind_of(data)}")
            return None
        return data

    def unknown_keys(self, data: dict[str, Any], where: tuple[Any, ...], label: str, known: set[str]) -> None:
        for key in sorted(set(data) - known):
            self.error(where, key, f"{label}: unknown key {key!r} (known: {', '.join(sorted(known))})")

    def string(self, data: dict[str, Any], key: str, where: tuple[Any, ...], label: str,
               required: bool = True) -> str | None:
        if key not in data:
            if required:
                self.error(where, None, f"{label}: '{key}' is missing")
            return None
        value = data[key]
        if not isinstance(value, str):
            self.error(where, key, f"{label}: '{key}' must be a string, not {_kind_of(value)}")
            return None
        return value

    def integer(self, data: dict[str, Any], key: str, where: tuple[Any, ...], label: str,
                low: int, high: int, hex_strings: bool = False) -> int | None:
        """An integer option; addresses may also be written as "$3400" strings."""
        if key not in data:
            return None
        value = data[key]
        if hex_strings and isinstance(value, str):
            text = value.strip().lower()
            try:
                value = int(text[1:], 16) if text.startswith("$") else int(text, 0)
            except ValueError:
                self.error(where, key, f"{label}: '{key}' = {data[key]!r} is not a number "
                           "(write 13312, 0x3400 or \"$3400\")")
                return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(where, key, f"{label}: '{key}' must be a whole number, not {_kind_of(data[key])}")
            return None
        if not low <= value <= high:
            self.error(where, key, f"{label}: '{key}' = {data[key]!r} is out of range "
                       f"({_range_text(low, high, hex_strings)})")
            return None
        return value


def _kind_of(value: Any) -> str:
    return {dict: "a table", list: "a list", str: "a string", bool: "a boolean", int: "a number",
            float: "a float"}.get(type(value), type(value).__name__)


def _range_text(low: int, high: int, hexadecimal: bool) -> str:
    return f"${low:04X}-${high:04X}" if hexadecimal else f"{low}-{high:,}"


def _plain_name(name: str) -> bool:
    return bool(_PLAIN_NAME.fullmatch(name)) and ".." not in name


def _disk_name_problem(name: str, what: str) -> str | None:
    """Why ``name`` cannot be a name on a Commodore disk (as the disk commands refuse
    it: not plain ASCII, a wildcard or separator in it), or None."""
    from toolchain.disk.names import petscii_name

    try:
        petscii_name(name, what)
    except UserError as exc:
        return exc.diagnostics[0].message
    return None


def _typed_text_problem(text: str) -> str | None:
    """Why ``text`` cannot be typed on a C64 keyboard (as --input takes it), or None."""
    from toolchain.c64.keyboard import UntypableText, typed_keys

    try:
        typed_keys(text)
    except UntypableText as exc:
        return str(exc)
    return None


_TOML_PLACE = re.compile(r"(?P<message>.*) \(at line (?P<line>\d+), column (?P<column>\d+)\)", re.DOTALL)


def load_manifest(path: Path) -> Manifest:
    """The manifest, checked; a UserError lists every problem with its line."""
    text = read_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", 0) or 0
        column = getattr(exc, "colno", 0) or 0
        message = getattr(exc, "msg", str(exc))
        # Python 3.11's error has the place only in its text: "... (at line 4, column 6)"
        place = _TOML_PLACE.fullmatch(message) if not line else None
        if place is not None:
            message, line, column = place["message"], int(place["line"]), int(place["column"])
        rows = text.splitlines()
        source = rows[line - 1] if 0 < line <= len(rows) else None
        diagnostic = Diagnostic(str(path), line, column, f"TOML: {message}", source_line=source)
        raise UserError([diagnostic]) from None
    reader = _Reader(path, text)
    reader.unknown_keys(data, (), "the manifest", {"disk", "program"})
    disk = reader.table(data.get("disk"), ("disk",), "[disk]") if "disk" in data else None
    if "disk" not in data:
        reader.error((), None, "the manifest needs a [disk] table with name and id")
    disk_name = disk_id = None
    disk_file = "disk.d64"
    if disk is not None:
        reader.unknown_keys(disk, ("disk",), "[disk]", {"name", "id", "file"})
        disk_name = reader.string(disk, "name", ("disk",), "[disk]")
        if disk_name is not None and not 1 <= len(disk_name) <= MAX_DISK_NAME:
            reader.error(("disk",), "name", f"[disk]: a disk name has 1 to {MAX_DISK_NAME} characters")
        elif disk_name is not None and (problem := _disk_name_problem(disk_name, "a disk name")):
            reader.error(("disk",), "name", f"[disk]: {problem}")
        disk_id = reader.string(disk, "id", ("disk",), "[disk]")
        if disk_id is not None and len(disk_id) != 2:
            reader.error(("disk",), "id", "[disk]: a disk id has exactly 2 characters")
        file = reader.string(disk, "file", ("disk",), "[disk]", required=False)
        if file is not None:
            if not _plain_name(file):
                reader.error(("disk",), "file", f"[disk]: 'file' = {file!r} must be a plain file name "
                             "(it is written into the output folder)")
            elif Path(file).suffix.lower() not in (".d64", ".d71", ".d81"):
                reader.error(("disk",), "file", f"[disk]: 'file' = {file!r} must say the image's format: "
                             "NAME.d64, NAME.d71 or NAME.d81")
            else:
                disk_file = file
    entries = data.get("program")
    programs: list[ProgramSpec] = []
    if not isinstance(entries, list) or not entries:
        reader.error((), None, "the manifest lists no [[program]]" if entries is None
                     else f"'program' must be a list of [[program]] tables, not {_kind_of(entries)}")
        entries = []
    names: set[str] = set()
    on_disk: dict[str, str] = {}  # a name as the disk stores it (upper case): the program's
    for index, entry in enumerate(entries):
        spec = _program(reader, entry, ("program", index), path.parent)
        if spec is None:
            continue
        if spec.name in names:
            reader.error(("program", index), "name", f"program '{spec.name}' is listed twice")
        elif spec.disk_name.upper() in on_disk:
            reader.error(("program", index), "disk_name" if "disk_name" in entry else "name",
                         f"program '{spec.name}': its name on the disk, \"{spec.disk_name.upper()}\", is "
                         f"program '{on_disk[spec.disk_name.upper()]}'s too (give a disk_name)")
        names.add(spec.name)
        on_disk.setdefault(spec.disk_name.upper(), spec.name)
        programs.append(spec)
    if reader.errors:
        raise UserError(reader.errors)
    assert disk_name is not None and disk_id is not None
    return Manifest(path, text, disk_name, disk_id, disk_file, programs)


def _program(reader: _Reader, entry: Any, where: tuple[Any, ...], base: Path) -> ProgramSpec | None:
    data = reader.table(entry, where, "a [[program]]")
    if data is None:
        return None
    name = reader.string(data, "name", where, "a [[program]]")
    label = f"program '{name}'" if name else "a [[program]]"
    errors_before = len(reader.errors)
    reader.unknown_keys(data, where, label, {"name", "disk_name", "kind", "sources", "check", "load_address",
                                             "include_paths", "defines", "dialect"})
    if name is not None and not _plain_name(name):
        reader.error(where, "name", f"{label}: the name must be a plain file name (letters, digits, "
                     "'-', '_', '.'; no path separators or '..'): the output is <out>/NAME.prg")
    kind = reader.string(data, "kind", where, label)
    if kind is not None and kind not in KINDS:
        reader.error(where, "kind", f"{label}: unknown kind {kind!r} (one of: {', '.join(KINDS)})")
    disk_name = reader.string(data, "disk_name", where, label, required=False) or name or ""
    if not 1 <= len(disk_name) <= MAX_DISK_NAME:
        reader.error(where, "disk_name" if "disk_name" in data else "name",
                     f"{label}: a name on the disk has 1 to {MAX_DISK_NAME} characters (give a shorter "
                     "disk_name)")
    else:
        problem = _disk_name_problem(disk_name, "a name on the disk")
        if problem:
            reader.error(where, "disk_name" if "disk_name" in data else "name", f"{label}: {problem}")
    sources: list[Path] = []
    listed = data.get("sources")
    if not isinstance(listed, list) or not listed or not all(isinstance(s, str) for s in listed):
        reader.error(where, "sources" if "sources" in data else None,
                     f"{label}: 'sources' must list at least one file name")
    else:
        for source in listed:
            source_path = base / source
            if not is_file(source_path):
                reader.error(where, "sources",
                             f"{label}: source file '{source}' not found (looked in {base})")
            sources.append(source_path)
        if kind in ("asm", "mse") and len(listed) != 1:
            reader.error(where, "sources", f"{label}: an {kind} program has exactly one source")
    load = reader.integer(data, "load_address", where, label, 0, 0xFFFF, hex_strings=True)
    if "load_address" in data and kind not in (None, "basic"):
        reader.error(where, "load_address", f"{label}: load_address applies to BASIC programs only")
    include_paths, defines, dialect = _assembler_options(reader, data, where, label, kind, base)
    checks: list[CheckSpec] = []
    listed_checks = data.get("check", [])
    if not isinstance(listed_checks, list):
        reader.error(where, "check", f"{label}: 'check' must be a list of [[program.check]] tables")
        listed_checks = []
    for number, check in enumerate(listed_checks):
        spec = _check(reader, check, (*where, "check", number), label, base)
        if spec is not None:
            checks.append(spec)
    if len(reader.errors) > errors_before or name is None or kind is None:
        return None
    return ProgramSpec(name, disk_name, kind, sources, checks, reader.places.line(where), load, include_paths,
                       defines, dialect, base)


def _assembler_options(reader: _Reader, data: dict[str, Any], where: tuple[Any, ...], label: str,
                       kind: str | None, base: Path) -> tuple[list[Path], list[tuple[str, int]], str | None]:
    """An asm program's ``include_paths`` (folders, relative to the manifest: c64tc asm
    -I), ``defines`` (a table NAME = VALUE, VALUE a number or a number as the source
    writes it, "$d020": -D) and ``dialect`` (--dialect)."""
    given = [key for key in ("include_paths", "defines", "dialect") if key in data]
    if kind is not None and kind != "asm":
        for key in given:
            reader.error(where, key, f"{label}: {key} applies to asm programs only")
        return [], [], None
    folders: list[Path] = []
    listed = data.get("include_paths", [])
    if not isinstance(listed, list) or not all(isinstance(folder, str) for folder in listed):
        reader.error(where, "include_paths", f"{label}: 'include_paths' must list folder names")
        listed = []
    for folder in listed:
        path = base / folder
        if not is_dir(path):
            reader.error(where, "include_paths", f"{label}: include folder '{folder}' not found (looked in "
                         f"{base})")
        folders.append(path)
    defines: list[tuple[str, int]] = []
    table = data.get("defines", {})
    if not isinstance(table, dict):
        reader.error(where, "defines", f"{label}: 'defines' must be a table (defines = {{ debug = 1 }}), not "
                     f"{_kind_of(table)}")
        table = {}
    from toolchain.asm import parse_define

    for symbol, value in table.items():
        if isinstance(value, bool) or not isinstance(value, int | str):
            reader.error(where, "defines", f"{label}: define {symbol!r} must be a number (12, or \"$0c\" as "
                         f"in the source), not {_kind_of(value)}")
            continue
        try:
            defines.append(parse_define(f"{symbol}={value}"))
        except ValueError as exc:
            reader.error(where, "defines", f"{label}: define {symbol} = {value!r}: {exc}")
    dialect = reader.string(data, "dialect", where, label, required=False)
    if dialect is not None and dialect not in DIALECTS:
        reader.error(where, "dialect", f"{label}: unknown dialect {dialect!r} (one of: "
                     f"{', '.join(DIALECTS)})")
        dialect = None
    return folders, defines, dialect


def _check(reader: _Reader, entry: Any, where: tuple[Any, ...], label: str, base: Path) -> CheckSpec | None:
    data = reader.table(entry, where, f"{label}: a check")
    if data is None:
        return None
    kind = reader.string(data, "kind", where, f"{label}: a check")
    if kind is None:
        return None
    if kind not in CHECK_KINDS:
        reader.error(where, "kind", f"{label}: unknown check {kind!r} (one of: {', '.join(CHECK_KINDS)})")
        return None
    check_label = f"{label}, check {kind}"
    known = {"mse": {"kind", "file"}, "roundtrip": {"kind"},
             "dialogue": {"kind", "sys", "input", "expect", "max_statements", "max_cycles"}}[kind]
    reader.unknown_keys(data, where, check_label, known)
    spec = CheckSpec(kind, reader.places.line(where))
    if kind == "mse":
        file = reader.string(data, "file", where, check_label)
        if file is not None:
            spec.file = base / file
    if kind == "dialogue":
        spec.sys = reader.integer(data, "sys", where, check_label, 0, 0xFFFF, hex_strings=True)
        typed = reader.string(data, "input", where, check_label, required=False)
        if typed is not None:
            problem = _typed_text_problem(typed)
            if problem:
                reader.error(where, "input", f"{check_label}: 'input': {problem}")
            spec.input = typed
        expect = data.get("expect", [])
        if not isinstance(expect, list) or not all(isinstance(text, str) for text in expect):
            reader.error(where, "expect", f"{check_label}: 'expect' must be a list of strings")
        else:
            spec.expect = expect
        spec.max_statements = reader.integer(data, "max_statements", where, check_label, 1, 10**12)
        cycles = reader.integer(data, "max_cycles", where, check_label, 1, 10**13)
        if cycles is not None:
            spec.max_cycles = cycles
    return spec
