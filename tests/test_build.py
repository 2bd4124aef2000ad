"""`c64tc build`: sources to checked PRGs and a disk; a failed or killed build leaves
the previous outputs whole; every manifest mistake is a message with its line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.conftest import DATA, REPO
from toolchain import mse
from toolchain.build import build
from toolchain.cli import main
from toolchain.diagnostics import UserError
from toolchain.disk import d64
from toolchain.fileio import recover


def build_in(project: Path, *options: str) -> Result:
    """``c64tc build`` in ``project`` (in-process: the CLI as a user calls it)."""
    old = Path.cwd()
    os.chdir(project)
    try:
        return CliRunner().invoke(main, ["build", *options])
    finally:
        os.chdir(old)


def outputs(project: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((project / "build").iterdir())}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Result]:
    """The seed programs built once for the module's tests."""
    project = tmp_path_factory.mktemp("built")
    shutil.copytree(REPO / "sources", project / "sources")
    return project, build_in(project)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "sources", tmp_path / "sources")
    return tmp_path


@pytest.fixture
def previous(project: Path, built: tuple[Path, Result]) -> dict[str, bytes]:
    """A project with the outputs of an earlier build in place."""
    shutil.copytree(built[0] / "build", project / "build")
    return outputs(project)


def test_build_on_a_fresh_checkout_makes_the_seed_disk(built: tuple[Path, Result]) -> None:
    project, result = built
    assert result.exit_code == 0, result.output
    out = project / "build"
    assert (out / "superhirn2.prg").read_bytes() == (DATA / "superhirn2-mse.bin").read_bytes()[:-1]
    assert (out / "nikolaus.prg").read_bytes() == (DATA / "nikolaus.petcat.prg").read_bytes()
    directory = d64.directory(out / "seeds.d64")
    assert [(f.name, f.blocks) for f in directory.files] == [
        ("SUPERHIRN II", 3), ("NIKOLAUS", 4), ("SUPERHIRN III", 3), ("FOX HUNT", 6), ("MASTERMIND", 9)]
    for disk_name, name in (("fox hunt", "foxhunt"), ("mastermind", "mastermind"),
                            ("superhirn ii", "superhirn2"), ("nikolaus", "nikolaus")):
        assert d64.extract(out / "seeds.d64", disk_name) == (out / f"{name}.prg").read_bytes()
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["program", "kind", "load", "bytes", "blocks", "checks"]
    assert lines[1].split()[:5] == ["superhirn2", "asm", "$3400", "525", "3"]
    assert "= superhirn2.mse ok" in lines[1]
    assert "all checks passed" in lines[-1]
    assert sorted(p.name for p in out.iterdir()) == [  # no temporary files or journals left
        "foxhunt.prg", "mastermind.prg", "nikolaus.prg", "seeds.d64", "superhirn2.prg", "superhirn3.prg"]


def test_building_again_gives_identical_bytes(project: Path, previous: dict[str, bytes]) -> None:
    assert build_in(project).exit_code == 0
    assert outputs(project) == previous


def test_a_broken_source_fails_and_keeps_the_previous_outputs(project: Path,
                                                              previous: dict[str, bytes]) -> None:
    source = project / "sources" / "superhirn2.asm"
    source.write_text(source.read_text().replace("1820 lda cschwarze,x", "1820 lda nowhere,x"))
    result = build_in(project)
    assert result.exit_code == 1
    assert "superhirn2.asm:170:10:" in result.stderr
    assert "undefined symbol 'nowhere' (line 1820)" in result.stderr
    assert "program 'superhirn2' failed to build" in result.stderr
    assert outputs(project) == previous


def test_a_failed_check_writes_nothing(project: Path) -> None:
    dump = project / "sources" / "superhirn2.mse"
    changed = bytes([0x4C, 0x01, 0x34, 0xFF])  # a dump whose bytes differ from the listing's
    line = f"3608 : 4C 01 34 FF {mse.checksum(0x3608, changed):02X}"
    dump.write_text(dump.read_text().replace("3608 : 4C 00 34 FF 17", line))
    result = build_in(project)
    assert result.exit_code == 1
    assert "check = superhirn2.mse failed: $3609: program has 00, the dump 01" in result.stderr
    assert not (project / "build").exists()


def test_a_blocked_output_fails_and_keeps_the_previous_outputs(project: Path,
                                                              previous: dict[str, bytes]) -> None:
    blocked = project / "build" / "mastermind.prg"
    blocked.unlink()
    blocked.mkdir()
    before = {name: data for name, data in previous.items() if name != "mastermind.prg"}
    result = build_in(project)
    assert result.exit_code == 1
    assert "mastermind.prg: error: cannot write: it is a directory" in result.stderr
    assert blocked.is_dir()
    assert {p.name: p.read_bytes() for p in (project / "build").iterdir() if p.is_file()} == before
    assert sorted(p.name for p in (project / "build").iterdir()) == sorted([*before, "mastermind.prg"])


_KILLED_BUILD = """
import os, sys
import toolchain.fileio as fileio
replace, renames = os.replace, 0
def dying_replace(source, target):
    global renames
    renames += 1
    if renames == {step}:
        os._exit(137)  # killed in the middle of switching the outputs into place
    replace(source, target)
fileio.os.replace = dying_replace
from toolchain.cli import main
main(["build"])
"""


@pytest.mark.parametrize("step", [1, 3, 6])
def test_a_build_killed_while_writing_is_rolled_back(project: Path, previous: dict[str, bytes],
                                                     step: int) -> None:
    """Changed sources, a build killed at the STEP-th rename: the previous outputs come
    back whole (the next write into build/ rolls the half-done switch back), and a
    following build succeeds."""
    source = project / "sources" / "mastermind.bas"
    source.write_text(source.read_text().replace("any size", "every size"))  # a REM: checks still pass
    killed = subprocess.run([sys.executable, "-c", _KILLED_BUILD.format(step=step)], cwd=project,
                            env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True, text=True)
    assert killed.returncode == 137, killed.stderr
    recover(project / "build")
    assert outputs(project) == previous
    result = build_in(project)
    assert result.exit_code == 0, result.output
    assert outputs(project)["mastermind.prg"] != previous["mastermind.prg"]
    assert set(outputs(project)) == set(previous)


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('sources = ["nikolaus.bas"', 'sources = ["missing.bas"'),
     "program 'nikolaus': source file 'missing.bas' not found"),
    (lambda t: t.replace('kind = "basic"', 'kind = "fortran"'),
     "program 'nikolaus': unknown kind 'fortran' (one of: asm, basic, mse)"),
    (lambda t: t.replace('kind = "roundtrip"', 'kind = "magic"'), "unknown check 'magic'"),
    # the place with the caret on every Python (3.11's error has it only in its text)
    (lambda t: t.replace("[disk]", "[disk"),
     ":4:6: error: TOML: Expected ']' at the end of a table declaration\n[disk\n     ^"),
    (lambda t: t.replace('kind = "basic"', 'kind = "basic"\nlanguage = "de"'), "unknown key 'language'"),
    (lambda t: t.replace("sys = 13312", "sys = 70000"), ":24: error: program 'superhirn2', check dialogue: "
     "'sys' = 70000 is out of range ($0000-$FFFF)"),
    (lambda t: t.replace("max_statements = 60000", 'max_statements = "many"'),
     ":42: error: program 'nikolaus', check dialogue: 'max_statements' must be a whole number, not a string"),
    (lambda t: t.replace("max_statements = 60000", "max_statements = 1e30"),
     ":42: error: program 'nikolaus', check dialogue: 'max_statements' must be a whole number, not a float"),
    (lambda t: t.replace('name = "superhirn2"', 'name = "../x"'),
     ":12: error: program '../x': the name must be a plain file name"),
    (lambda t: t.replace('kind = "basic"', 'kind = "basic"\nload_address = "zz"', 1),
     "program 'nikolaus': 'load_address' = 'zz' is not a number"),
    (lambda t: t.replace("[disk]", "disk = 3\n[disk2]"), ":4: error: [disk] must be a table, not a number"),
    (lambda t: t.replace('input = "3|3|--|++|+|+++|"', 'input = "3|3|€"'),
     "program 'mastermind', check dialogue: 'input': '€' cannot be typed on a C64"),
    (lambda t: t.replace('expect = [" 1 123"', 'expect = [1, " 1 123"'),
     "'expect' must be a list of strings"),
    # names the disk refuses, said of the manifest's line (they were the disk's messages, of
    # the name alone or of the build's private copy of the image)
    (lambda t: t.replace('disk_name = "superhirn ii"', 'disk_name = "süperhirn"'),
     ":13: error: program 'superhirn2': a name on the disk must be plain ASCII"),
    (lambda t: t.replace('disk_name = "superhirn ii"', 'disk_name = "super,hirn"'),
     ":13: error: program 'superhirn2': a name on the disk cannot contain * ? , : = or a quote"),
    (lambda t: t.replace('disk_name = "nikolaus"', 'disk_name = "SUPERHIRN II"'),
     ":31: error: program 'nikolaus': its name on the disk, \"SUPERHIRN II\", is program 'superhirn2's too"),
    (lambda t: t.replace('name = "c64tc seeds"', 'name = "c64tc séeds"'),
     ":5: error: [disk]: a disk name must be plain ASCII"),
])
def test_manifest_errors_are_clear(project: Path, edit: Callable[[str], str], message: str) -> None:
    manifest = project / "sources" / "manifest.toml"
    manifest.write_text(edit(manifest.read_text()))
    result = build_in(project)
    assert result.exit_code == 1
    assert message in result.stderr and "Traceback" not in result.stderr
    assert result.stderr.startswith("sources/manifest.toml:")
    assert not (project / "build").exists()


def test_mse_kind_and_options(tmp_path: Path) -> None:
    shutil.copy(REPO / "sources" / "superhirn2.mse", tmp_path / "sh.mse")
    (tmp_path / "m.toml").write_text('[disk]\nname = "x"\nid = "01"\nfile = "x.d64"\n'
                                     '[[program]]\nname = "sh"\nkind = "mse"\nsources = ["sh.mse"]\n')
    result = CliRunner().invoke(main, ["build", "--manifest", str(tmp_path / "m.toml"),
                                       "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "sh.prg").read_bytes() == (DATA / "superhirn2-mse.bin").read_bytes()


def test_build_api_reports_every_failure(project: Path) -> None:
    (project / "sources" / "nikolaus.bas").write_text("10 print \"{nope}\"\n")
    (project / "sources" / "superhirn2.asm").write_text("*= $1000\n lda #300\n")
    with pytest.raises(UserError) as info:
        build(project / "sources" / "manifest.toml", project / "build")
    failed = [d.message for d in info.value.diagnostics if "failed to build" in d.message]
    assert failed == ["program 'superhirn2' failed to build", "program 'nikolaus' failed to build"]


def test_a_dialogue_that_goes_wrong_fails_the_build(project: Path) -> None:
    manifest = project / "sources" / "manifest.toml"
    # answering 4 blacks at once ends the game after the first guess: 2211 is never shown
    manifest.write_text(manifest.read_text().replace('input = "1|1|0|0|1|2|1|2|3|0|4"', 'input = "4"'))
    result = build_in(project)
    assert result.exit_code == 1
    assert "check dialogue failed: '2211' not shown (in order)" in result.stderr
    assert not (project / "build").exists()


def test_a_dialogue_with_a_program_that_never_ends_fails_at_its_limit(tmp_path: Path) -> None:
    (tmp_path / "loop.bas").write_text("10 a=a+1:goto 10\n")
    (tmp_path / "m.toml").write_text('[disk]\nname = "x"\nid = "01"\n[[program]]\nname = "loop"\n'
                                     'kind = "basic"\nsources = ["loop.bas"]\n'
                                     '[[program.check]]\nkind = "dialogue"\n')
    result = CliRunner().invoke(main, ["build", "--manifest", str(tmp_path / "m.toml"),
                                       "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "m.toml:8: error: program 'loop': check dialogue failed: stopped after 1000000 statement groups" \
        in result.stderr
    assert not (tmp_path / "out").exists()


def test_programs_that_do_not_fit_on_the_disk_fail_the_build_with_the_manifest_named(tmp_path: Path) -> None:
    """(the message named the build's private copy of the image, /tmp/c64tc-build-.../disk.d64)"""
    (tmp_path / "big.asm").write_text("*= $1000\n.fill 60000\n")  # 236 blocks: three do not fit
    (tmp_path / "m.toml").write_text('[disk]\nname = "x"\nid = "01"\n' + "".join(
        f'[[program]]\nname = "{name}"\nkind = "asm"\nsources = ["big.asm"]\n' for name in "abc"))
    result = CliRunner().invoke(main, ["build", "--manifest", str(tmp_path / "m.toml"),
                                       "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{tmp_path / 'm.toml'}: error: the disk disk.d64: disk full")
    assert not (tmp_path / "out").exists()


# -- an asm program's include folders, defines and dialect (c64tc asm's -I, -D, --dialect) ----------

@pytest.mark.parametrize(("dialect", "suffix", "main_text", "library"), [
    ("profi", ".asm", '*= $c000\n.include "kernal.asm"\n.if debug\n lda #border\n.endif\n jsr chrout\n',
     "chrout = $ffd2\n"),
    ("64tass", ".s", '* = $c000\n.include "kernal.s"\n.if debug\n lda #border\n.fi\n jsr chrout\n',
     "chrout = $ffd2\n"),
    ("acme", ".a", '* = $c000\n!source "kernal.a"\n!if debug { lda #border }\n jsr chrout\n',
     "chrout = $ffd2\n"),
])  # fmt: skip
def test_an_asm_program_with_include_folders_defines_and_a_dialect(
        dialect: str, suffix: str, main_text: str, library: str, tmp_path: Path) -> None:
    (tmp_path / "src" / "lib").mkdir(parents=True)
    (tmp_path / "src" / f"main{suffix}").write_text(main_text)
    (tmp_path / "src" / "lib" / f"kernal{suffix}").write_text(library)
    (tmp_path / "src" / "m.toml").write_text(
        f'[disk]\nname = "x"\nid = "01"\n[[program]]\nname = "main"\nkind = "asm"\n'
        f'sources = ["main{suffix}"]\ninclude_paths = ["lib"]\ndefines = {{ debug = 1, border = "$0e" }}\n'
        f'dialect = "{dialect}"\n')
    # built from another folder: the manifest's folder is where its names start
    result = CliRunner().invoke(main, ["build", "--manifest", str(tmp_path / "src" / "m.toml"),
                                       "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    # lda #$0e (debug and border defined), jsr $ffd2 (chrout from the included library)
    assert (tmp_path / "out" / "main.prg").read_bytes() == bytes([0x00, 0xC0, 0xA9, 0x0E, 0x20, 0xD2, 0xFF])


@pytest.mark.parametrize(("lines", "message"), [
    ('include_paths = ["nowhere"]', ":7: error: program 'main': include folder 'nowhere' not found"),
    ('include_paths = "lib"', ":7: error: program 'main': 'include_paths' must list folder names"),
    ('defines = { debug = "x y" }', ":7: error: program 'main': define debug = 'x y': "),
    ("defines = { debug = true }", ":7: error: program 'main': define 'debug' must be a number"),
    ('defines = ["debug=1"]', ":7: error: program 'main': 'defines' must be a table"),
    ('dialect = "tasm"', ":7: error: program 'main': unknown dialect 'tasm' (one of: profi, 64tass, acme)"),
])
def test_asm_options_in_the_manifest_are_checked(lines: str, message: str, tmp_path: Path) -> None:
    (tmp_path / "main.asm").write_text("*= $c000\n rts\n")
    (tmp_path / "m.toml").write_text('[disk]\nname = "x"\nid = "01"\n[[program]]\nname = "main"\n'
                                     f'kind = "asm"\n{lines}\nsources = ["main.asm"]\n')
    result = CliRunner().invoke(main, ["build", "--manifest", str(tmp_path / "m.toml"),
                                       "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert message in result.stderr, result.stderr
    assert not (tmp_path / "out").exists()


def test_asm_options_belong_to_asm_programs(tmp_path: Path) -> None:
    (tmp_path / "p.bas").write_text("10 print 1\n")
    (tmp_path / "m.toml").write_text('[disk]\nname = "x"\nid = "01"\n[[program]]\nname = "p"\n'
                                     'kind = "basic"\nsources = ["p.bas"]\ndialect = "acme"\n')
    result = CliRunner().invoke(main, ["build", "--manifest", str(tmp_path / "m.toml"),
                                       "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "m.toml:8: error: program 'p': dialect applies to asm programs only" in result.stderr
