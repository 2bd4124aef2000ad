"""The disassembler: VICE-style listings, and source that assembles back to the same
bytes (the seed programs, the corpus' machine code, random bytes)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import DATA, REPO, SHARED
from toolchain.asm import AssemblyOptions, assemble
from toolchain.cli import main
from toolchain.cpu.disassembler import listing, source, trace_code

SUPERHIRN_PRG = (DATA / "superhirn2-mse.bin").read_bytes()[:-1]  # the dump was saved one byte long


def _round_trip(image: bytes, start: int, undocumented: bool = False, entries: list[int] | None = None,
                names: dict[int, str] | None = None) -> str:
    text = source(image, start, entries, names, undocumented)
    program = assemble(text, "round-trip.asm", AssemblyOptions(undocumented=undocumented))
    assert (program.start, program.image) == (start, image), text
    return text


def _seed_programs() -> list[tuple[str, int, bytes]]:
    from toolchain.basic import tokenize_text

    programs = []
    for name in ("superhirn2", "superhirn3"):
        program = assemble((REPO / "sources" / f"{name}.asm").read_text(), name)
        programs.append((name, program.start, program.image))
    for name in ("nikolaus", "foxhunt", "mastermind"):
        prg = tokenize_text((REPO / "sources" / f"{name}.bas").read_text())
        programs.append((name, prg.load_address, prg.data))
    return programs


@pytest.mark.parametrize("name, start, image", _seed_programs(),
                         ids=lambda v: v if isinstance(v, str) else "")
def test_seed_programs_round_trip(name: str, start: int, image: bytes) -> None:
    _round_trip(image, start)
    _round_trip(image, start, undocumented=True)


def test_corpus_machine_code_round_trips() -> None:
    binaries = sorted((SHARED / "corpus" / "mse" / "derived").glob("*.bin"))
    if not binaries:
        pytest.skip("the corpus is absent")
    for path in binaries:
        raw = path.read_bytes()
        start, image = int.from_bytes(raw[:2], "little"), raw[2:]
        _round_trip(image, start)
        _round_trip(image, start, undocumented=True)


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=1, max_size=300), st.integers(0, 0xFFFF), st.booleans(), st.data())
def test_random_bytes_round_trip(image: bytes, start: int, undocumented: bool, data: st.DataObject) -> None:
    start = min(start, 0x10000 - len(image))
    entries = data.draw(st.lists(st.integers(start, start + len(image) - 1), max_size=4)) or None
    _round_trip(image, start, undocumented, entries)


def test_superhirn_source_names_kernal_and_labels_targets() -> None:
    start, image = 0x3400, SUPERHIRN_PRG[2:]
    text = _round_trip(image, start)
    lines = text.splitlines()
    assert "chrout = $ffd2" in lines and " jsr chrout" in lines
    assert "l3434 jmp l353b" in lines  # a jump target inside the program is a label
    assert lines[lines.index("*= $3400") + 1] == " lda #$93"


def test_sizing_is_kept_for_absolute_zero_page_operands() -> None:
    image = bytes([0xAD, 0xFB, 0x00, 0xA5, 0xFB, 0xBE, 0x10, 0x00, 0xB9, 0x10, 0x00, 0x60])
    text = _round_trip(image, 0xC000)
    assert " lda z00fb" in text and " lda $fb" in text and " ldx z0010,y" in text and " lda $0010,y" in text
    assert text.rstrip().endswith("z00fb = $fb")


def test_branches_that_wrap_around_the_address_space() -> None:
    assert " bpl *+2" in _round_trip(bytes([0x00, 0x10, 0x00]), 0xFFFD, entries=[0xFFFE])
    assert " bmi *-126" in _round_trip(bytes([0x30, 0x80]), 0x0010)


def test_code_and_data() -> None:
    # jmp over two data bytes, a branch into the middle of an instruction
    image = bytes([0x4C, 0x05, 0xC0, 0x12, 0x34, 0xA9, 0x00, 0xF0, 0xFD, 0x60])
    assert trace_code(image, 0xC000, [0xC000]) == {0xC000: 3, 0xC005: 2, 0xC007: 2, 0xC009: 1}
    text = _round_trip(image, 0xC000)
    assert " .byt $12,$34" in text and "beq l" in text


def test_undocumented_opcodes_are_data_unless_asked() -> None:
    image = bytes([0xA7, 0x12, 0x60])  # lax $12 : rts
    assert " .byt $a7,$12,$60" in _round_trip(image, 0x1000)
    assert " lax $12" in _round_trip(image, 0x1000, undocumented=True)
    assert " nop #$01" in _round_trip(bytes([0x80, 0x01]), 0x1000, undocumented=True)  # nop #: $80 is it
    assert " .byt $82" in _round_trip(bytes([0x82, 0x01]), 0x1000, undocumented=True)  # $82 assembles as $80


def test_names_from_label_files(tmp_path: Path) -> None:
    names = {0x3400: "start", 0x3437: "next_code", 0x033E: "runde"}
    text = _round_trip(SUPERHIRN_PRG[2:], 0x3400, names=names)
    assert "start lda #$93" in text and "runde = $033e" in text and " sta runde" in text
    (tmp_path / "sh.prg").write_bytes(SUPERHIRN_PRG)
    (tmp_path / "sh.labels").write_text("al C:3400 .Start\nal C:3437 .next_code\nal C:3400 .again\n")
    (tmp_path / "sh.symbols").write_text("symbols by name:\n  runde   $033E  equate\n")
    result = CliRunner().invoke(main, ["disasm", str(tmp_path / "sh.prg"), "--format", "source",
                                       "--labels", str(tmp_path / "sh.labels"),
                                       "--symbols", str(tmp_path / "sh.symbols")])
    assert result.exit_code == 0 and result.output.split("\n", 1)[1] == text.split("\n", 1)[1]


# a label file with a good line, then lines that start as label lines but are none
BAD_LABELS = [
    "al C:3400 .start",
    "al C:34G0 .next",  # a bad address
    "al C:3400",  # no name
    "al C:3400 .start and more",  # garbage after the label
    "al %$&!",  # garbage for an address
    "al C:3400 start",  # no dot
    "symbols by name:",  # a heading, passed over
    "  runde   $03G3  equate",  # a bad address
    "  runde   $033E",  # no kind
    "  runde   $033E  lable",
    "al",
]
BAD_LABEL_ERRORS = [
    "2:4: error: 'C:34G0' is not an address (1 to 4 hex digits): 'al C:3400 .name' expected",
    "3:10: error: the label's name is missing: 'al C:3400 .name' expected",
    "4:18: error: unexpected 'and' after the label: 'al C:3400 .name' expected",
    "5:4: error: '%$&!' is not an address (1 to 4 hex digits): 'al C:3400 .name' expected",
    "6:11: error: a label's name starts with a dot: '.start'",
    "8:11: error: '$03G3' is not an address ('$' and 1 to 4 hex digits)",
    "9:16: error: 'label' or 'equate' is missing after the value: 'name  $3400  label' expected",
    "10:18: error: 'lable' is neither 'label' nor 'equate'",
    "11:3: error: an address and a name are missing: 'al C:3400 .name' expected",
]


@pytest.mark.parametrize("command", [
    ["disasm", "{prg}", "--labels", "{labels}", "-o", "{out}"],
    ["disasm", "{prg}", "--symbols", "{labels}", "-o", "{out}"],
    ["monitor", "{prg}", "--labels", "{labels}", "--monitor-commands", "{mon}"],
    ["run", "{prg}", "--sys", "$3400", "--labels", "{labels}", "--monitor-commands", "{mon}"],
])
def test_a_bad_line_in_a_label_file_is_an_error_with_its_place(tmp_path: Path, command: list[str]) -> None:
    """disasm reads label files as the monitor does, one parser: a line that starts as a
    label line but is none is an error at its line and column, every one of them, and
    nothing is written (disasm took what its pattern matched and passed over the rest)."""
    files = {"prg": tmp_path / "sh.prg", "labels": tmp_path / "bad.labels", "mon": tmp_path / "x.mon",
             "out": tmp_path / "sh.txt"}
    files["prg"].write_bytes(SUPERHIRN_PRG)
    files["labels"].write_text("\n".join(BAD_LABELS) + "\n")
    files["mon"].write_text("x\n")
    result = CliRunner().invoke(main, [part.format(**files) for part in command])
    assert result.exit_code == 1 and "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if ": error: " in line]
    assert errors == [f"{files['labels']}:{error}" for error in BAD_LABEL_ERRORS]
    assert result.output.splitlines()[-1] == f"{len(BAD_LABEL_ERRORS)} errors; no output written"
    assert not files["out"].exists()


def test_listing_like_vices_monitor() -> None:
    text = listing(SUPERHIRN_PRG[2:], 0x3400, 0x3400, 0x3405, {0x3402: "print"})
    assert text.splitlines() == [".C:3400  A9 93     LDA #$93", ".print:", ".C:3402  20 D2 FF  JSR $FFD2",
                                 ".C:3405  A9 01     LDA #$01"]


def test_cli(tmp_path: Path) -> None:
    prg = tmp_path / "sh.prg"
    prg.write_bytes(SUPERHIRN_PRG)
    result = CliRunner().invoke(main, ["disasm", str(prg), "--start", "$3400", "--end", "13314"])
    assert result.exit_code == 0 and result.output.splitlines() == [
        ".C:3400  A9 93     LDA #$93", ".C:3402  20 D2 FF  JSR $FFD2"]
    out = tmp_path / "sh.asm"
    result = CliRunner().invoke(main, ["disasm", str(prg), "--format", "source", "-o", str(out)])
    assert result.exit_code == 0
    assert assemble(out.read_text()).image == SUPERHIRN_PRG[2:]
    raw = tmp_path / "code.bin"
    raw.write_bytes(bytes([0xA9, 0x01, 0x60]))
    result = CliRunner().invoke(main, ["disasm", str(raw), "--load-address", "0xc000"])
    assert result.output.splitlines()[-1] == ".C:c002  60        RTS"
    result = CliRunner().invoke(main, ["disasm", str(REPO / "sources" / "superhirn2.mse"), "--end", "$3401"])
    assert result.output == ".C:3400  A9 93     LDA #$93\n"
    result = CliRunner().invoke(main, ["disasm", str(prg), "--start", "$1000"])
    assert result.exit_code == 1 and "outside the program ($3400-$360A)" in result.output


def test_the_title_names_the_program_also_with_label_files(tmp_path: Path) -> None:
    prg = tmp_path / "sh.prg"
    prg.write_bytes(SUPERHIRN_PRG)
    labels = tmp_path / "sh.labels"
    labels.write_text("al C:3400 .start\nal C:ffd2 .chrout\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["disasm", str(prg), "--format", "source", "--labels", str(labels)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "; sh.prg: $3400-$360A, disassembled by c64tc"
