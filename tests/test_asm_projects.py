"""Public C64 projects written for 64tass and ACME assemble byte for byte as those
assemblers do (issue 27).

The list is tests/data/asm-projects.toml: repository, commit, folder, source, the real
assembler's options, and the SHA-256 of the PRG it wrote.  The sources themselves are not
part of c64tc, except the few whose licence lets them be kept (MIT, in
tests/data/asm-projects): a project is assembled where a copy of its repository at that
commit is present (tests/data/asm-projects, $C64TC_ASM_PROJECTS, else
../shared/asm-projects, one OWNER+NAME folder per repository) and skipped, with the
reason, where it is not.  Where 64tass or acme is on
the PATH the PRG is compared with the one it writes now, too.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO, SHARED
from toolchain.asm import AssemblyOptions, assemble_sources, parse_define
from toolchain.fileio import read_text

PROJECTS: list[dict[str, Any]] = tomllib.loads((REPO / "tests" / "data" / "asm-projects.toml").read_text())[
    "project"]


def _root() -> Path:
    given = os.environ.get("C64TC_ASM_PROJECTS")
    return Path(given) if given else SHARED / "asm-projects"


def _name(project: dict[str, Any]) -> str:
    return f"{project['repo']}:{project['directory']}/{project['source']}".replace("/./", "/")


def _options(project: dict[str, Any]) -> AssemblyOptions:
    given: list[str] = project["options"]
    defines = []
    for index, option in enumerate(given):
        if option == "-D":
            defines.append(parse_define(given[index + 1]))
        elif option.startswith("-D"):
            defines.append(parse_define(option[2:]))
    return AssemblyOptions(dialect=project["dialect"], ascii="-a" in given, case_sensitive="-C" in given,
                           long_branch="-B" in given, defines=tuple(defines),
                           undocumented="-i" in given or "6510" in given or "nmos6502" in given)


KEPT = REPO / "tests" / "data" / "asm-projects"  # the programs whose licence lets them be kept


def _folder(project: dict[str, Any]) -> Path:
    for root in (KEPT, _root()):
        folder = root / project["repo"].replace("/", "+") / project["directory"]
        if (folder / project["source"]).is_file():
            return folder
    pytest.skip(f"{project['repo']} at {project['commit'][:12]} is not present in {_root()} (see "
                "tests/data/asm-projects.toml)")


def test_kept_programs_are_listed_with_their_licence() -> None:
    """The programs kept in tests/data/asm-projects run everywhere (CI too): each is in the
    list, beside its repository's licence."""
    kept = {path.relative_to(KEPT).as_posix() for path in KEPT.glob("*/**/*.asm")}
    listed = {f"{p['repo'].replace('/', '+')}/{p['directory']}/{p['source']}" for p in PROJECTS}
    assert kept and kept <= listed
    for name in kept:
        assert (KEPT / name.split("/")[0] / "LICENSE").read_text().startswith(("MIT", "The MIT"))


@pytest.mark.parametrize("project", PROJECTS, ids=_name)
def test_public_project_assembles_as_the_real_assembler_does(project: dict[str, Any],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _folder(project)
    monkeypatch.chdir(folder)  # both assemblers ran in the project's folder
    program = assemble_sources([(read_text(project["source"]), project["source"])], _options(project))
    data = program.start.to_bytes(2, "little") + program.image
    assert len(data) == project["size"]
    assert hashlib.sha256(data).hexdigest() == project["sha256"]


@pytest.mark.parametrize("project", PROJECTS, ids=_name)
def test_project_reference_is_what_the_real_assembler_writes(project: dict[str, Any], tmp_path: Path) -> None:
    tool = project["dialect"]
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not on the PATH (the stored SHA-256 was measured with it)")
    folder = _folder(project)
    out = tmp_path / "out.prg"
    if tool == "64tass":
        command = ["64tass", "-q", *project["options"], project["source"], "-o", str(out)]
    else:
        command = ["acme", "-f", "cbm", *project["options"], "-o", str(out), project["source"]]
    result = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert hashlib.sha256(out.read_bytes()).hexdigest() == project["sha256"]


def test_the_list_has_ten_authors_per_assembler_and_sizes_in_range() -> None:
    for dialect in ("64tass", "acme"):
        chosen = [p for p in PROJECTS if p["dialect"] == dialect]
        assert len({p["author"] for p in chosen}) >= 10
        assert all(200 <= p["lines"] <= 3000 for p in chosen)
        assert all(len(p["commit"]) == 40 and len(p["sha256"]) == 64 for p in chosen)
