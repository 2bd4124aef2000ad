"""``c64tc build``: every program of a manifest to PRG files and a D64 disk, checked.

Nothing is written unless every program builds and every check passes; outputs are
written to temporary files and renamed, so a failed build leaves the previous
``build/`` untouched.  Outputs hold no timestamps: building twice gives the same bytes.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolchain.diagnostics import Diagnostic, UserError
from toolchain.disk import d64
from toolchain.disk.prg import Prg
from toolchain.fileio import read_text, write_atomic

KINDS = ("asm", "basic", "mse")


@dataclass
class ProgramSpec:
    name: str  # the output is build/<name>.prg
    disk_name: str
    kind: str
    sources: list[Path]
    checks: list[dict[str, Any]]
    load_address: int | None = None  # BASIC only


@dataclass
class Manifest:
    path: Path
    text: str
    disk_name: str
    disk_id: str
    disk_file: str
    programs: list[ProgramSpec]

    def where(self, needle: str) -> int:
        """The manifest line that mentions ``needle`` (for messages), or 0."""
        for number, line in enumerate(self.text.splitlines(), start=1):
            if needle in line:
                return number
        return 0


@dataclass
class CheckResult:
    name: str
    passed: bool
    detail: str = ""


@dataclass
class BuiltProgram:
    spec: ProgramSpec
    prg: Prg
    checks: list[CheckResult] = field(default_factory=list)

    @property
    def blocks(self) -> int:
        return d64.blocks_for(len(self.prg.to_bytes()))


@dataclass
class BuildReport:
    manifest: Manifest
    programs: list[BuiltProgram]
    disk_path: Path
    disk: d64.Directory


# -- the manifest ---------------------------------------------------------------------------

def _manifest_error(manifest_path: Path, text: str, message: str, needle: str | None = None) -> UserError:
    line = 0
    if needle:
        line = next((n for n, row in enumerate(text.splitlines(), 1) if needle in row), 0)
    source = text.splitlines()[line - 1] if line else None
    return UserError([Diagnostic(str(manifest_path), line, 0, message, source_line=source)])


def load_manifest(path: Path) -> Manifest:
    text = read_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", 0) or 0
        column = getattr(exc, "colno", 0) or 0
        message = getattr(exc, "msg", str(exc))
        source = text.splitlines()[line - 1] if 0 < line <= len(text.splitlines()) else None
        diagnostic = Diagnostic(str(path), line, column, f"TOML: {message}", source_line=source)
        raise UserError([diagnostic]) from None
    disk = data.get("disk")
    if not isinstance(disk, dict) or not {"name", "id"} <= disk.keys():
        raise _manifest_error(path, text, "the manifest needs a [disk] table with name and id", "[disk]")
    programs_data = data.get("program")
    if not isinstance(programs_data, list) or not programs_data:
        raise _manifest_error(path, text, "the manifest lists no [[program]]")
    programs: list[ProgramSpec] = []
    errors: list[Diagnostic] = []
    base = path.parent
    allowed = {"name", "disk_name", "kind", "sources", "check", "load_address"}
    for entry in programs_data:
        name = str(entry.get("name", ""))
        label = f"program '{name}'" if name else "a [[program]] without a name"
        try:
            unknown = set(entry) - allowed
            if unknown:
                raise _manifest_error(path, text, f"{label}: unknown key {sorted(unknown)[0]!r} "
                                      f"(known: {', '.join(sorted(allowed))})", sorted(unknown)[0])
            if not name:
                raise _manifest_error(path, text, f"{label}: every program needs a name", "[[program]]")
            kind = entry.get("kind")
            if kind not in KINDS:
                raise _manifest_error(path, text, f"{label}: unknown kind {kind!r} (one of: "
                                      f"{', '.join(KINDS)})", f'"{kind}"' if kind else name)
            sources = entry.get("sources")
            if not isinstance(sources, list) or not sources:
                raise _manifest_error(path, text, f"{label}: 'sources' must list at least one file", name)
            paths = []
            for source in sources:
                source_path = base / source
                if not source_path.is_file():
                    raise _manifest_error(path, text, f"{label}: source file '{source}' not found "
                                          f"(looked in {base})", source)
                paths.append(source_path)
            checks = entry.get("check", [])
            for check in checks:
                if check.get("kind") not in CHECKS:
                    raise _manifest_error(path, text, f"{label}: unknown check {check.get('kind')!r} "
                                          f"(one of: {', '.join(sorted(CHECKS))})", str(check.get("kind")))
            load = entry.get("load_address")
            programs.append(ProgramSpec(name, str(entry.get("disk_name", name)), kind, paths, checks,
                                        int(str(load).lstrip("$"), 16) if load else None))
        except UserError as exc:
            errors.extend(exc.diagnostics)
    if errors:
        raise UserError(errors)
    return Manifest(path, text, str(disk["name"]), str(disk["id"]), str(disk.get("file", "disk.d64")),
                    programs)


# -- building programs -----------------------------------------------------------------------

def build_program(spec: ProgramSpec) -> Prg:
    if spec.kind == "asm":
        from toolchain.asm import assemble

        if len(spec.sources) != 1:
            raise UserError.single(str(spec.sources[1]), "an asm program has exactly one source")
        program = assemble(read_text(spec.sources[0]), str(spec.sources[0]))
        return Prg(program.start, program.image)
    if spec.kind == "basic":
        from toolchain.basic import C64_BASIC_START, tokenize

        prg, _ = tokenize([(str(p), read_text(p)) for p in spec.sources],
                          spec.load_address or C64_BASIC_START)
        return prg
    from toolchain import mse

    dump = mse.parse(read_text(spec.sources[0]), str(spec.sources[0]))
    return mse.to_prg(dump)


# -- checks: kind -> function(built program, check table, manifest) ---------------------------------

Check = Callable[[BuiltProgram, dict[str, Any], Manifest], CheckResult]
CHECKS: dict[str, Check] = {}


def register_check(kind: str) -> Callable[[Check], Check]:
    def register(function: Check) -> Check:
        CHECKS[kind] = function
        return function

    return register


@register_check("mse")
def _check_against_mse_dump(built: BuiltProgram, check: dict[str, Any], manifest: Manifest) -> CheckResult:
    """The program equals the PRG from its printed MSE dump, up to the program's last
    byte (a dump saved with a larger end address carries extra bytes)."""
    from toolchain import mse

    path = manifest.path.parent / str(check.get("file", ""))
    name = f"= {path.name}"
    if not path.is_file():
        return CheckResult(name, False, f"MSE dump {path} not found")
    try:
        dumped = mse.to_prg(mse.parse(read_text(path), str(path)))
    except UserError as exc:
        return CheckResult(name, False, exc.report())
    prg = built.prg
    if dumped.load_address != prg.load_address:
        return CheckResult(name, False, f"the dump starts at ${dumped.load_address:04X}, the program "
                           f"at ${prg.load_address:04X}")
    if len(dumped.data) < len(prg.data):
        return CheckResult(name, False, f"the dump has {len(dumped.data)} bytes, the program "
                           f"{len(prg.data)}")
    for offset, (a, b) in enumerate(zip(prg.data, dumped.data, strict=False)):
        if a != b:
            return CheckResult(name, False, f"${prg.load_address + offset:04X}: program has {a:02X}, "
                               f"the dump {b:02X}")
    return CheckResult(name, True)


@register_check("roundtrip")
def _check_round_trip(built: BuiltProgram, check: dict[str, Any], manifest: Manifest) -> CheckResult:
    """BASIC: detokenizing and tokenizing again gives the same bytes (the text
    the tools write is faithful to the program)."""
    from toolchain.basic import detokenize, tokenize_text

    again = tokenize_text(detokenize(built.prg), load_address=built.prg.load_address)
    passed = again.to_bytes() == built.prg.to_bytes()
    return CheckResult("text round trip", passed, "" if passed else "detok/tok changed the bytes")


@register_check("dialogue")
def _check_dialogue(built: BuiltProgram, check: dict[str, Any], manifest: Manifest) -> CheckResult:
    """Run the program on the emulated C64 with the typed ``input``: machine code from
    ``sys`` (it must return to BASIC), a BASIC program as RUN would (it must end,
    unless ``max_statements`` is given: then it may still be running there).  Each
    text of ``expect`` must appear in the transcript, in order."""
    from toolchain.c64.run import Keyboard, Stop, program_from_prg, run_program

    name = "dialogue"
    try:
        program = program_from_prg(built.prg, built.spec.name, check.get("sys"))
    except UserError as exc:
        return CheckResult(name, False, exc.report())
    limit = check.get("max_statements")
    result, machine = run_program(program, Keyboard(str(check.get("input", ""))),
                                  max_cycles=int(check.get("max_cycles", 100_000_000)),
                                  max_statements=None if limit is None else int(limit))
    if program.is_basic:
        allowed = {Stop.END} | ({Stop.STATEMENT_LIMIT} if limit is not None else set())
        if result.stop not in allowed:
            return CheckResult(name, False, f"{result.message}; the screen:\n"
                               f"{machine.screen.transcript()}")
    elif result.stop is not Stop.RETURNED:
        return CheckResult(name, False, result.message)
    transcript = machine.screen.transcript()
    position = 0
    for text in check.get("expect", []):
        found = transcript.find(str(text), position)
        if found < 0:
            return CheckResult(name, False, f"{text!r} not shown (in order); the screen:\n{transcript}")
        position = found + len(str(text))
    return CheckResult(name, True)


# -- the build -----------------------------------------------------------------------------------

class BuildFailed(UserError):
    def __init__(self, diagnostics: list[Diagnostic], programs: list[BuiltProgram]) -> None:
        self.programs = programs
        super().__init__(diagnostics)


def build(manifest_path: Path, out_dir: Path,
          progress: Callable[[str], None] = lambda message: None) -> BuildReport:
    manifest = load_manifest(manifest_path)
    built: list[BuiltProgram] = []
    failures: list[Diagnostic] = []
    for spec in manifest.programs:
        progress(f"building {spec.name}")
        try:
            program = BuiltProgram(spec, build_program(spec))
        except UserError as exc:
            failures.extend(exc.diagnostics)
            failures.append(Diagnostic(str(manifest.path), manifest.where(spec.name), 0,
                                       f"program '{spec.name}' failed to build"))
            continue
        for check in spec.checks:
            progress(f"checking {spec.name}: {check['kind']}")
            result = CHECKS[check["kind"]](program, check, manifest)
            program.checks.append(result)
            if not result.passed:
                failures.append(Diagnostic(str(manifest.path), manifest.where(spec.name), 0,
                                           f"program '{spec.name}': check {result.name} failed: "
                                           f"{result.detail}"))
        built.append(program)
    if failures:
        raise BuildFailed(failures, built)

    out_dir.mkdir(parents=True, exist_ok=True)
    disk_path = out_dir / manifest.disk_file
    staging = out_dir / f".{manifest.disk_file}.staging"
    try:
        d64.build_image(staging, manifest.disk_name, manifest.disk_id,
                        [(p.spec.disk_name, "PRG", p.prg.to_bytes()) for p in built])
        # the disk must give back exactly what was built
        for program in built:
            if d64.extract(staging, program.spec.disk_name) != program.prg.to_bytes():
                raise BuildFailed([Diagnostic(str(staging), 0, 0, f"'{program.spec.disk_name}' read "
                                              "back from the disk differs from the built PRG")], built)
        directory = d64.directory(staging)
        for program in built:
            write_atomic(out_dir / f"{program.spec.name}.prg", program.prg.to_bytes())
        staging.replace(disk_path)
    finally:
        staging.unlink(missing_ok=True)
    return BuildReport(manifest, built, disk_path, directory)


def summary(report: BuildReport) -> str:
    rows = [("program", "kind", "load", "bytes", "blocks", "checks")]
    for program in report.programs:
        checks = ", ".join(f"{c.name} {'ok' if c.passed else 'FAILED'}" for c in program.checks) or "-"
        rows.append((program.spec.name, program.spec.kind, f"${program.prg.load_address:04X}",
                     str(len(program.prg.to_bytes())), str(program.blocks), checks))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    lines = ["  ".join(cell.rjust(w) if i in (3, 4) else cell.ljust(w)
                       for i, (cell, w) in enumerate(zip(row[:5], widths, strict=True))) + "  " + row[5]
             for row in rows]
    disk = report.disk
    lines.append(f'{report.disk_path}: "{disk.name}" {disk.disk_id}, {len(disk.files)} files, '
                 f"{disk.blocks_free} blocks free; all checks passed")
    return "\n".join(lines) + "\n"
