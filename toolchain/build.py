"""``c64tc build``: every program of a manifest to PRG files and a D64 disk, checked.

Nothing is written unless the manifest is valid, every program builds and every
check passes; then all outputs replace the previous ones together (fileio's FileSet:
temporary files beside the targets, renamed into place as one set, rolled back when
anything fails, and after a kill by the next write), so a failed or killed build
leaves the previous ``build/`` whole.  Outputs hold no timestamps: building twice
gives the same bytes.
"""

from __future__ import annotations

import functools
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from toolchain.diagnostics import Diagnostic, UserError, counted
from toolchain.disk import d64
from toolchain.disk.prg import Prg
from toolchain.fileio import FileSet, is_file, make_folder, read_text
from toolchain.manifest import DEFAULT_CHECK_STATEMENTS, CheckSpec, Manifest, ProgramSpec, load_manifest


@dataclass(frozen=True)
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


# -- building programs -----------------------------------------------------------------------

def build_program(spec: ProgramSpec) -> Prg:
    if spec.kind == "asm":
        from toolchain.asm import AssemblyOptions, assemble
        from toolchain.asm.dialects import detect

        source = str(spec.sources[0])
        text = read_text(spec.sources[0])
        dialect, reason = (spec.dialect, "the manifest") if spec.dialect else detect(source, text)
        # ACME reads relative names from the current folder: in a build, also the manifest's
        folders = [*spec.include_paths, *([spec.folder] if dialect == "acme" else [])]
        options = AssemblyOptions(include_paths=tuple(folders), defines=tuple(spec.defines), dialect=dialect,
                                  dialect_reason=reason)
        program = assemble(text, source, options)
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

Check = Callable[[BuiltProgram, CheckSpec, Manifest], CheckResult]
CHECKS: dict[str, Check] = {}


def register_check(kind: str) -> Callable[[Check], Check]:
    def register(function: Check) -> Check:
        CHECKS[kind] = function
        return function

    return register


@register_check("mse")
def _check_against_mse_dump(built: BuiltProgram, check: CheckSpec, manifest: Manifest) -> CheckResult:
    """The program equals the PRG from its printed MSE dump, up to the program's last
    byte (a dump saved with a larger end address carries extra bytes)."""
    from toolchain import mse

    assert check.file is not None
    path = check.file
    name = f"= {path.name}"
    if not is_file(path):
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
        return CheckResult(name, False, f"the dump has {counted(len(dumped.data), 'byte')}, the program "
                           f"{len(prg.data)}")
    for offset, (a, b) in enumerate(zip(prg.data, dumped.data, strict=False)):
        if a != b:
            return CheckResult(name, False, f"${prg.load_address + offset:04X}: program has {a:02X}, "
                               f"the dump {b:02X}")
    return CheckResult(name, True)


@register_check("roundtrip")
def _check_round_trip(built: BuiltProgram, check: CheckSpec, manifest: Manifest) -> CheckResult:
    """BASIC: detokenizing and tokenizing again gives the same bytes (the text
    the tools write is faithful to the program)."""
    from toolchain.basic import detokenize, tokenize_text

    again = tokenize_text(detokenize(built.prg), load_address=built.prg.load_address)
    passed = again.to_bytes() == built.prg.to_bytes()
    return CheckResult("text round trip", passed, "" if passed else "detok/tok changed the bytes")


@register_check("dialogue")
def _check_dialogue(built: BuiltProgram, check: CheckSpec, manifest: Manifest) -> CheckResult:
    """Run the program on the emulated C64 with the typed ``input``: machine code from
    ``sys`` (it must return to BASIC), a BASIC program as RUN would (it must end,
    unless ``max_statements`` is given: then it may still be running there).  Each
    text of ``expect`` must appear in the transcript, in order.  Every run is bounded:
    a program that never ends fails the check at its limit."""
    return _dialogue(built.prg, built.spec.name, check.sys, check.input, tuple(check.expect),
                     check.max_statements, check.max_cycles)


@functools.lru_cache(maxsize=64)
def _dialogue(prg: Prg, name: str, sys: int | None, typed: str, expect: tuple[str, ...],
              max_statements: int | None, max_cycles: int) -> CheckResult:
    """A dialogue's outcome depends only on the program and the check: worked out once
    per process (the tests build the same programs many times)."""
    from toolchain.c64.run import DEFAULT_RUN_CYCLES, Keyboard, Stop, program_from_prg, run_program

    check_name = "dialogue"
    try:
        program = program_from_prg(prg, name, sys)
    except UserError as exc:
        return CheckResult(check_name, False, exc.report())
    statements = max_statements or DEFAULT_CHECK_STATEMENTS
    # a BASIC program is bounded by its statement groups, each SYS and USR by max_cycles
    result, machine = run_program(program, Keyboard(typed),
                                  max_cycles=DEFAULT_RUN_CYCLES if program.is_basic else max_cycles,
                                  max_statements=statements,
                                  max_call_cycles=max_cycles if program.is_basic else None)
    if program.is_basic:
        allowed = {Stop.END} | ({Stop.STATEMENT_LIMIT} if max_statements is not None else set())
        if result.stop not in allowed:
            return CheckResult(check_name, False, f"{result.message}; the screen:\n"
                               f"{machine.screen.transcript()}")
    elif result.stop is not Stop.RETURNED:
        return CheckResult(check_name, False, result.message)
    transcript = machine.screen.transcript()
    position = 0
    for text in expect:
        found = transcript.find(text, position)
        if found < 0:
            return CheckResult(check_name, False, f"{text!r} not shown (in order); the screen:\n{transcript}")
        position = found + len(text)
    return CheckResult(check_name, True)


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
            failures.append(Diagnostic(str(manifest.path), spec.line, 0,
                                       f"program '{spec.name}' failed to build"))
            continue
        for check in spec.checks:
            progress(f"checking {spec.name}: {check.kind}")
            result = CHECKS[check.kind](program, check, manifest)
            program.checks.append(result)
            if not result.passed:
                failures.append(Diagnostic(str(manifest.path), check.line, 0,
                                           f"program '{spec.name}': check {result.name} failed: "
                                           f"{result.detail}"))
        built.append(program)
    if failures:
        raise BuildFailed(failures, built)
    progress("writing the disk")
    disk_path = out_dir / manifest.disk_file
    disk = _disk_image(manifest, built)
    # every output at once: the PRGs and the disk replace the previous ones together or
    # not at all (a killed build is rolled back by the next write, see fileio)
    outputs: dict[Path, bytes | str] = {out_dir / f"{p.spec.name}.prg": p.prg.to_bytes() for p in built}
    outputs[disk_path] = disk
    make_folder(out_dir)  # the build's own folder, made as `mkdir -p` would (only now: all passed)
    FileSet(outputs).commit()
    return BuildReport(manifest, built, disk_path, d64.directory(disk_path))


def _disk_image(manifest: Manifest, built: list[BuiltProgram]) -> bytes:
    """The disk image's bytes, made in a private folder and checked: it must give back
    exactly what was built."""
    with tempfile.TemporaryDirectory(prefix="c64tc-build-") as folder:
        image = Path(folder) / manifest.disk_file
        try:
            d64.build_image(image, manifest.disk_name, manifest.disk_id,
                            [(p.spec.disk_name, "PRG", p.prg.to_bytes()) for p in built])
        except UserError as exc:  # (the programs do not fit): said of the manifest, not the private copy
            raise BuildFailed([Diagnostic(str(manifest.path), 0, 0, f"the disk {manifest.disk_file}: "
                                          f"{diagnostic.message}") for diagnostic in exc.diagnostics],
                              built) from None
        for program in built:
            if d64.extract(image, program.spec.disk_name) != program.prg.to_bytes():
                raise BuildFailed([Diagnostic(str(manifest.path), program.spec.line, 0,
                                              f"'{program.spec.disk_name}' read back from the disk "
                                              "differs from the built PRG")], built)
        return image.read_bytes()


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
    lines.append(f'{report.disk_path}: "{disk.name}" {disk.disk_id}, {counted(len(disk.files), "file")}, '
                 f"{disk.blocks_free} blocks free; all checks passed")
    return "\n".join(lines) + "\n"
