"""Golden tests of the Python c64tc generates (``c64tc run --dump-python``): a BASIC
program's compiled module and machine code's translated blocks, compared with files
reviewed by hand.  A change to code generation shows here as a readable diff; when
it is intended, regenerate the files with the commands in each test and review them."""

from __future__ import annotations

from click.testing import CliRunner

from tests.conftest import DATA
from toolchain.asm import assemble
from toolchain.cli import main
from toolchain.disk import Prg

GENERATED = DATA / "generated"


def test_basic_module_for_loops_gosub_and_strings() -> None:
    """c64tc run tests/data/generated/loops.bas --dump-python > tests/data/generated/loops.generated.txt"""
    result = CliRunner().invoke(main, ["run", str(GENERATED / "loops.bas"), "--dump-python"])
    assert result.exit_code == 0
    assert result.stdout == (GENERATED / "loops.generated.txt").read_text()


def test_translated_blocks_of_a_print_loop(tmp_path) -> None:
    """c64tc asm tests/data/generated/hello.asm -o hello.prg -q;
    c64tc run hello.prg --sys 49152 --dump-python > tests/data/generated/hello.generated.txt"""
    program = assemble((GENERATED / "hello.asm").read_text(), "hello.asm")
    (tmp_path / "hello.prg").write_bytes(Prg(program.start, program.image).to_bytes())
    result = CliRunner().invoke(main, ["run", str(tmp_path / "hello.prg"), "--sys", "49152", "--dump-python"])
    assert result.exit_code == 0
    assert result.stdout == (GENERATED / "hello.generated.txt").read_text()
    # the generated blocks carry the instructions they come from
    assert "    # $C002 LDA $C00E,X\n" in result.stdout
