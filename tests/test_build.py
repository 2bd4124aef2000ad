"""`c64tc build`: sources to checked PRGs and a disk; failures leave old outputs alone."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import DATA, REPO
from toolchain import mse
from toolchain.build import build
from toolchain.cli import main
from toolchain.diagnostics import UserError
from toolchain.disk import d64


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "sources", tmp_path / "sources")
    return tmp_path


def build_in(project: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "toolchain", "build"], cwd=project, capture_output=True,
                          text=True)


def test_build_on_a_fresh_checkout_makes_the_seed_disk(project: Path) -> None:
    result = build_in(project)
    assert result.returncode == 0, result.stderr
    out = project / "build"
    assert (out / "superhirn2.prg").read_bytes() == (DATA / "superhirn2-mse.bin").read_bytes()[:-1]
    assert (out / "nikolaus.prg").read_bytes() == (DATA / "nikolaus.petcat.prg").read_bytes()
    directory = d64.directory(out / "seeds.d64")
    assert [(f.name, f.blocks) for f in directory.files] == [
        ("SUPERHIRN II", 3), ("NIKOLAUS", 4), ("SUPERHIRN III", 3), ("FOX HUNT", 6), ("MASTERMIND", 9)]
    for name in ("foxhunt", "mastermind"):
        assert d64.extract(out / "seeds.d64", "fox hunt" if name == "foxhunt" else name) == (
            out / f"{name}.prg").read_bytes()
    assert d64.extract(out / "seeds.d64", "superhirn ii") == (out / "superhirn2.prg").read_bytes()
    assert d64.extract(out / "seeds.d64", "nikolaus") == (out / "nikolaus.prg").read_bytes()
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["program", "kind", "load", "bytes", "blocks", "checks"]
    assert lines[1].split()[:5] == ["superhirn2", "asm", "$3400", "525", "3"]
    assert "= superhirn2.mse ok" in lines[1]
    assert "all checks passed" in lines[-1]


def test_building_twice_gives_identical_bytes(project: Path) -> None:
    build_in(project)
    first = {p.name: p.read_bytes() for p in (project / "build").iterdir()}
    build_in(project)
    assert {p.name: p.read_bytes() for p in (project / "build").iterdir()} == first


def test_a_broken_source_fails_and_keeps_the_previous_outputs(project: Path) -> None:
    assert build_in(project).returncode == 0
    before = {p.name: p.read_bytes() for p in (project / "build").iterdir()}
    source = project / "sources" / "superhirn2.asm"
    source.write_text(source.read_text().replace("1820 lda cschwarze,x", "1820 lda nowhere,x"))
    result = build_in(project)
    assert result.returncode == 1
    assert "superhirn2.asm:170:10:" in result.stderr
    assert "undefined symbol 'nowhere' (line 1820)" in result.stderr
    assert "program 'superhirn2' failed to build" in result.stderr
    assert {p.name: p.read_bytes() for p in (project / "build").iterdir()} == before


def test_a_failed_check_writes_nothing(project: Path) -> None:
    dump = project / "sources" / "superhirn2.mse"
    changed = bytes([0x4C, 0x01, 0x34, 0xFF])  # a dump whose bytes differ from the listing's
    line = f"3608 : 4C 01 34 FF {mse.checksum(0x3608, changed):02X}"
    dump.write_text(dump.read_text().replace("3608 : 4C 00 34 FF 17", line))
    result = build_in(project)
    assert result.returncode == 1
    assert "check = superhirn2.mse failed: $3609: program has 00, the dump 01" in result.stderr
    assert not (project / "build").exists()


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('sources = ["nikolaus.bas"', 'sources = ["missing.bas"'),
     "program 'nikolaus': source file 'missing.bas' not found"),
    (lambda t: t.replace('kind = "basic"', 'kind = "fortran"'),
     "program 'nikolaus': unknown kind 'fortran' (one of: asm, basic, mse)"),
    (lambda t: t.replace('kind = "roundtrip"', 'kind = "magic"'), "unknown check 'magic'"),
    (lambda t: t.replace("[disk]", "[disk"), "error: TOML:"),
    (lambda t: t.replace('kind = "basic"', 'kind = "basic"\nlanguage = "de"'), "unknown key 'language'"),
])
def test_manifest_errors_are_clear(project: Path, edit, message: str) -> None:
    manifest = project / "sources" / "manifest.toml"
    manifest.write_text(edit(manifest.read_text()))
    result = build_in(project)
    assert result.returncode == 1
    assert message in result.stderr and "Traceback" not in result.stderr
    assert result.stderr.startswith("sources/manifest.toml:")


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
    assert result.returncode == 1
    assert "check dialogue failed: '2211' not shown (in order)" in result.stderr
    assert not (project / "build").exists()
