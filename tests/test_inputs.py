"""What a file is (toolchain.inputs), and every command that reads a program telling a
wrong kind of file by name, with the command that fits; IMAGE:NAME; option conflicts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.conftest import REPO, shared_path
from toolchain import mse
from toolchain.basic import tokenize_text
from toolchain.cli import main
from toolchain.cli.vice import resolve_target
from toolchain.diagnostics import UserError
from toolchain.disk import Prg, d64
from toolchain.inputs import Kind, as_text, classify, read_input, read_program

SOURCES = REPO / "sources"
CODE = Prg(0xC000, bytes([0xA9, 0x01, 0x8D, 0x00, 0x04, 0x60]))  # LDA #1: STA $0400: RTS
BASIC = tokenize_text('10 print "hi"\n20 end\n')
ASSEMBLER = "*= $c000\n lda #1\n sta $0400\n rts\n"


def c64tc(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def kinds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One file of every kind, as a user might have them lying around."""
    folder = tmp_path_factory.mktemp("kinds")
    files = {
        "listing": ("prog.bas", b'10 print "hi"\n20 end\n'),
        "assembler": ("code.asm", ASSEMBLER.encode()),
        "mse": ("code.mse", mse.from_prg(CODE, "code").encode()),
        "text": ("notes.md", b"Some notes\nabout nothing in particular\n"),
        "basic": ("prog.prg", BASIC.to_bytes()),
        "machine": ("code.prg", CODE.to_bytes()),
        "binary": ("one.bin", b"\x01"),
        "empty": ("empty.prg", b""),
    }
    paths = {}
    for kind, (name, data) in files.items():
        (folder / name).write_bytes(data)
        paths[kind] = folder / name
    disk = folder / "disk.d64"
    d64.create(disk, "kinds", "64")
    d64.add(disk, "code", CODE.to_bytes())
    d64.add(disk, "prog", BASIC.to_bytes())
    d64.add(disk, "notes", b"hello", file_type="SEQ")
    paths["disk"] = disk
    return paths


# -- classify ----------------------------------------------------------------------------------

def test_every_kind_is_told_apart(kinds: dict[str, Path]) -> None:
    expected = {"listing": Kind.BASIC_LISTING, "assembler": Kind.ASSEMBLER_SOURCE, "mse": Kind.MSE_DUMP,
                "text": Kind.TEXT, "basic": Kind.BASIC_PRG, "machine": Kind.MACHINE_CODE_PRG,
                "binary": Kind.BINARY, "empty": Kind.EMPTY, "disk": Kind.DISK_IMAGE}
    for name, kind in expected.items():
        path = kinds[name]
        assert classify(path.read_bytes(), path.name).kind is kind, name
    assert classify(kinds["disk"].read_bytes()).phrase == "a D64 disk image"
    assert classify(CODE.to_bytes(), "code.prg").phrase == "a machine-code PRG ($C000-$C005)"
    assert classify(CODE.to_bytes(), "code.bin").kind is Kind.BINARY  # no PRG by name, no BASIC lines
    assert classify(b"\x00\xff" + bytes(300), "x.prg").phrase.startswith("binary data (not a PRG file")


def test_the_seed_sources_are_what_their_names_say() -> None:
    for name, kind in (("superhirn2.asm", Kind.ASSEMBLER_SOURCE), ("superhirn3.asm", Kind.ASSEMBLER_SOURCE),
                       ("nikolaus.bas", Kind.BASIC_LISTING), ("nikolaus-errata.bas", Kind.BASIC_LISTING),
                       ("foxhunt.bas", Kind.BASIC_LISTING), ("mastermind.bas", Kind.BASIC_LISTING),
                       ("superhirn2.mse", Kind.MSE_DUMP)):
        assert classify((SOURCES / name).read_bytes(), name).kind is kind, name


def test_the_magazine_corpus_is_told_apart() -> None:
    """60 BASIC listings, 4 Profi-Ass sources and 14 MSE dumps as the 64'er printed
    them, as text and (listings and sources) tokenized as they were saved."""
    corpus = shared_path("corpus")
    found: dict[str, set[Kind]] = {"basic": set(), "asm": set(), "mse": set(), "basic-prg": set(),
                                   "asm-prg": set()}
    for folder, pattern in (("basic", "*.txt"), ("asm", "*.txt"), ("mse", "*/*.mse")):
        files = sorted((corpus / folder).glob(pattern))
        assert files
        for path in files:
            text = path.read_bytes()
            found[folder].add(classify(text, path.name).kind)
            if folder != "mse":
                saved = tokenize_text(text.decode("latin-1"), path.name)
                found[f"{folder}-prg"].add(classify(saved.to_bytes(), path.name + ".prg").kind)
    assert found == {"basic": {Kind.BASIC_LISTING}, "asm": {Kind.ASSEMBLER_SOURCE}, "mse": {Kind.MSE_DUMP},
                     "basic-prg": {Kind.BASIC_PRG}, "asm-prg": {Kind.TOKENIZED_ASSEMBLER_SOURCE}}


@pytest.mark.parametrize(("text", "kind"), [
    ("10 bit = 5\n20 print bit\n", Kind.BASIC_LISTING),  # a variable named like a mnemonic
    ("10 print tax\n", Kind.BASIC_LISTING),
    ("10 x = 5\n20 y = 6\n", Kind.BASIC_LISTING),  # definitions or assignments: either; BASIC can run it
    ("100 sys 9*4096\n110 .opt p\n120 *= $c000\n130 ende lda #0\n140 rts\n", Kind.ASSEMBLER_SOURCE),
    ("chrout = $ffd2\n", Kind.ASSEMBLER_SOURCE),
    ("3400 : a9 93 20 d2 ff a9 01 8d   42\n", Kind.MSE_DUMP),
    ("; a comment\n0801:0d 08 00 00 9e 32 30 36 bb\n", Kind.MSE_DUMP),
    ("hello\n", Kind.TEXT),
    ("10 *ab\n", Kind.BASIC_LISTING),  # the `*` token, as detok writes it: no origin
    ("10 print 1\n20 *ab\n", Kind.BASIC_LISTING),
    ("100 * = $c000\n110 rts\n", Kind.ASSEMBLER_SOURCE),  # an origin, spaced
])
def test_text_kinds(text: str, kind: Kind) -> None:
    assert classify(text.encode(), "x").kind is kind


def test_a_tape_image_is_a_disk_image() -> None:
    tape = b"C64S tape image file".ljust(32, b"\x00") + bytes(100)
    assert classify(tape).phrase == "a T64 tape image"


# -- a byte-order mark ---------------------------------------------------------------------------

BOM = b"\xef\xbb\xbf"  # what Windows Notepad writes at the start of a file saved as UTF-8
_LISTING = '10 print "hi"\n20 end\n'
_BAD_LISTING = '10 print "{bogus}"\n'
_MANIFEST = '[disk]\nname = "t"\nid = "64"\nfile = "t.d64"\n\n[[program]]\nname = "p"\nkind = "basic"\n' \
    'sources = ["p.bas"]\n'
_LABELS = "al C:c000 .start\nal C:c005 .done\n"
_SYMBOLS = "symbols by name:\n  done     $C005  label\n  start    $C000  label\n"
_MONITOR = {"c.labels": _LABELS, "c.mon": "d .start .done\nx\n"}
_INCLUDING = {"a.asm": '*= $c000\n.include "lib.asm"\n rts\n', "lib.asm": " lda #1\n"}
# each text-reading command: its text files (saved with a byte-order mark in the second
# run), its arguments (c.prg is CODE), and files that make it report a mistake on line 1
# (None: the command has no such diagnostic)
TEXT_INPUTS: dict[str, tuple[dict[str, str], str, dict[str, str] | None]] = {
    "tok": ({"p.bas": _LISTING}, "tok p.bas -o p.prg", {"p.bas": _BAD_LISTING}),
    "run": ({"p.bas": _LISTING}, "run p.bas", {"p.bas": _BAD_LISTING}),
    "run --input-file": ({"p.bas": "10 input a$\n20 print a$\n", "typed.txt": "hello\n"},
                         "run p.bas --input-file typed.txt --screen", None),
    "asm": (_INCLUDING, "asm a.asm -o a.prg -l a.lst", {"a.asm": "*= $c000 : lda #(1+\n"}),
    "asm .include": (_INCLUDING, "asm a.asm -o a.prg -l a.lst", {"lib.asm": " lda #(1+\n"}),
    "mse toprg": ({"c.mse": mse.from_prg(CODE, "code")}, "mse toprg c.mse -o p.prg",
                  {"c.mse": "C000 : A9 0G 8D 00 04 60         35\n"}),
    "mse check": ({"c.mse": mse.from_prg(CODE, "code")}, "mse check c.mse",
                  {"c.mse": "C000 : A9 0G 8D 00 04 60         35\n"}),
    "mlx toprg": ({"c.mlx": "C000: A9 01 60 00 00 00 00 00 A2\n"}, "mlx toprg c.mlx -o p.prg",
                  {"c.mlx": "C000: A9 0G 60 00 00 00 00 00 A2\n"}),
    "build": ({"m.toml": _MANIFEST, "p.bas": _LISTING}, "build --manifest m.toml --out out",
              {"m.toml": "x = 3\n" + _MANIFEST}),
    "build, a source": ({"m.toml": _MANIFEST, "p.bas": _LISTING}, "build --manifest m.toml --out out",
                        {"p.bas": _BAD_LISTING}),
    "disasm --labels": ({"c.labels": _LABELS}, "disasm c.prg --labels c.labels",
                        {"c.labels": "al C:c0g0 .start\n"}),
    "disasm --symbols": ({"c.symbols": _SYMBOLS}, "disasm c.prg --format source --symbols c.symbols",
                         {"c.symbols": "  start    $C0G0  label\n"}),
    "monitor --labels": (_MONITOR, "monitor c.prg --labels c.labels --monitor-commands c.mon",
                         {"c.labels": "al C:c0g0 .start\n"}),
    "monitor --monitor-commands": (_MONITOR, "monitor c.prg --labels c.labels --monitor-commands c.mon",
                                   {"c.mon": "d .start .nowhere\n"}),
}


def _in_folder(folder: Path, texts: dict[str, str], bom: bool, arguments: str,
               monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str, dict[str, bytes]]:
    """The command run in ``folder`` on ``texts`` (each saved with a byte-order mark or
    without): its status, standard output and error (host seconds left out), and the
    files it wrote."""
    folder.mkdir()
    (folder / "c.prg").write_bytes(CODE.to_bytes())
    for name, text in texts.items():
        (folder / name).write_bytes((BOM if bom else b"") + text.encode())
    given = {folder / "c.prg", *(folder / name for name in texts)}
    monkeypatch.chdir(folder)
    result = c64tc(*arguments.split())
    host_seconds = re.compile(r"in \d+\.\d+ s")
    written = {str(path.relative_to(folder)): path.read_bytes()
               for path in sorted(folder.rglob("*")) if path.is_file() and path not in given}
    return (result.exit_code, host_seconds.sub("", result.stdout), host_seconds.sub("", result.stderr),
            written)


@pytest.mark.parametrize("case", TEXT_INPUTS)
def test_a_byte_order_mark_before_a_text_input_is_no_part_of_it(tmp_path: Path, case: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A file saved by Windows Notepad (UTF-8 with a byte-order mark) reads as the one
    without, as 64tass and Python's utf-8-sig read it: the same outputs, and a mistake
    on line 1 reported at the same column (counted after the mark)."""
    texts, arguments, bad = TEXT_INPUTS[case]
    plain = _in_folder(tmp_path / "plain", texts, False, arguments, monkeypatch)
    assert plain[0] == 0 and (plain[1] or plain[3]), plain
    assert _in_folder(tmp_path / "bom", texts, True, arguments, monkeypatch) == plain
    if bad is None:
        return
    texts = texts | bad
    plain = _in_folder(tmp_path / "bad-plain", texts, False, arguments, monkeypatch)
    (wrong,) = bad
    assert plain[0] == 1 and re.search(rf"^{re.escape(wrong)}:1:(\d+:)? error: ", plain[2], re.M), plain
    assert _in_folder(tmp_path / "bad-bom", texts, True, arguments, monkeypatch) == plain


def test_a_byte_order_mark_is_read_only_at_the_start() -> None:
    assert classify(BOM + _LISTING.encode(), "p.bas").kind is Kind.BASIC_LISTING
    assert as_text(BOM + b"10 print \"\xef\xbb\xbf\"\n") == '10 print "\ufeff"\n'  # inside: a character
    assert as_text(BOM + "10 print \"£\"\n".encode("latin-1")) == "10 print \"£\"\n"  # and for Latin-1


# a Latin-1 ä ($E4) on line 2 of a file that is UTF-8 elsewhere (the £ on line 1)
_MIXED = {
    "tok": ("p.bas", '10 print "\u00a3"\n20 rem \xe4\n', "tok p.bas -o p.prg", "20 rem \ufffd", 8),
    "run": ("p.bas", '10 print "\u00a3"\n20 rem \xe4\n', "run p.bas --no-roms", "20 rem \ufffd", 8),
    "asm": ("a.asm", '*= $c000\n .text "\u00a3"\n; gr\xe4n\n rts\n', "asm a.asm -o a.prg", "; gr\ufffdn", 5),
    "mse check": ("c.mse", "; \u00a3\n; \xe4\n" + mse.from_prg(CODE, "code"), "mse check c.mse",
                  "; \ufffd", 3),
}


@pytest.mark.parametrize("case", sorted(_MIXED))
def test_a_file_in_two_encodings_is_an_error_at_the_byte_that_is_no_utf8(
        tmp_path: Path, case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Latin-1 byte in a UTF-8 file made c64tc read the whole file as Latin-1, so the
    UTF-8 £ on another line became "Â£", reported as a character with no PETSCII
    equivalent on the line that was right (64tass reads such a file so too).  No
    reading of such a file is faithful: an error at the byte, naming a UTF-8 character."""
    name, text, arguments, shown, column = _MIXED[case]
    (tmp_path / name).write_bytes(text.encode("utf-8").replace("\xe4".encode(), b"\xe4"))
    monkeypatch.chdir(tmp_path)
    result = c64tc(*arguments.split())
    assert result.exit_code == 1
    line = text.splitlines().index(next(x for x in text.splitlines() if "\xe4" in x)) + 1
    assert result.stderr == (f"{name}:{line}:{column}: error: not UTF-8 text: byte $E4 is no UTF-8, but "
                             f"line {line - 1} has UTF-8 ('\u00a3'): a file in two encodings cannot be read "
                             "right; save it as UTF-8 (a file wholly in Latin-1 is read as Latin-1)\n"
                             f"{shown}\n" + " " * (column - 1) + "^\n")
    assert sorted(path.name for path in tmp_path.iterdir()) == [name]  # nothing written


def test_a_file_wholly_in_latin1_reads_as_latin1(tmp_path: Path) -> None:
    """A listing saved in Latin-1 (as old editors saved them) reads faithfully: its £
    ($A3) is the UTF-8 listing's £, PETSCII $5C; and classifying a file in two encodings
    tells its kind rather than failing."""
    text = '10 print "\u00a3"\n'
    latin, utf8 = tmp_path / "latin.bas", tmp_path / "utf8.bas"
    latin.write_bytes(text.encode("latin-1"))
    utf8.write_bytes(text.encode("utf-8"))
    for path in (latin, utf8):
        assert c64tc("tok", path, "-o", path.with_suffix(".prg")).exit_code == 0
    assert latin.with_suffix(".prg").read_bytes() == utf8.with_suffix(".prg").read_bytes()
    assert b"\x5c" in latin.with_suffix(".prg").read_bytes()
    assert classify("10 rem \u00a3\n20 rem \xe4\n".encode().replace("\xe4".encode(), b"\xe4"),
                    "m.bas").kind is Kind.BASIC_LISTING


# -- reading a program ---------------------------------------------------------------------------

def test_read_input_names_a_file_on_a_disk(kinds: dict[str, Path]) -> None:
    file = read_input(f"{kinds['disk']}:co*")
    assert file.name == f'{kinds["disk"]}:"CODE"' and file.image == kinds["disk"]
    assert file.kind.kind is Kind.MACHINE_CODE_PRG and file.data == CODE.to_bytes()
    assert file.title == "code" and file.stem == "code"


def test_read_program_tokenizes_a_listing_with_errata(tmp_path: Path) -> None:
    (tmp_path / "p.bas").write_text('10 print "a"\n20 print "b"\n')
    (tmp_path / "fix.bas").write_text('20 print "c"\n')
    program = read_program(tmp_path / "p.bas", "run", "a program", {Kind.BASIC_LISTING},
                           errata=[tmp_path / "fix.bas"])
    assert program.prg == tokenize_text('10 print "a"\n20 print "c"\n')
    assert [(line.number, Path(line.path).name) for line in program.lines] == [(10, "p.bas"), (20, "fix.bas")]


def test_errata_over_a_prg_are_an_error(kinds: dict[str, Path]) -> None:
    with pytest.raises(UserError, match="errata are merged over a BASIC listing; .*prog.prg is a BASIC "
                                        r"program \(PRG\) \(`c64tc detok"):
        read_program(kinds["basic"], "run", "a program", {Kind.BASIC_LISTING, Kind.BASIC_PRG},
                     errata=[kinds["listing"]])
    with pytest.raises(UserError, match="code.prg is a machine-code PRG .*, not a BASIC listing"):
        read_program(kinds["listing"], "run", "a program", {Kind.BASIC_LISTING}, errata=[kinds["machine"]])


# -- every command, every wrong kind ---------------------------------------------------------------

OK = None
#: command -> kind of file -> None (accepted: exit 0) or what the message must say
EXPECTED: dict[str, dict[str, str | None]] = {
    "run": {
        "listing": OK, "basic": OK,
        "assembler": "is assembler source (Profi-Ass text), not a program (a PRG or a BASIC listing): "
                     "`c64tc asm",
        "mse": "is an MSE hex dump, not a program (a PRG or a BASIC listing): `c64tc mse check",
        "text": "is a text file, not a program",
        "machine": "is a machine-code PRG ($C000-$C005): say where to start: --sys 49152",
        "binary": "not a PRG file: 1 byte", "empty": "is an empty file, not a program",
        "disk": "is a D64 disk image, not a program (a PRG or a BASIC listing): `c64tc d64 list"},
    "tok": {
        "listing": OK,
        "basic": "is a BASIC program (PRG), not a BASIC listing: `c64tc list",
        "assembler": "is assembler source (Profi-Ass text), not a BASIC listing: `c64tc asm",
        "mse": "is an MSE hex dump, not a BASIC listing", "text": "is a text file, not a BASIC listing",
        "machine": "is a machine-code PRG ($C000-$C005), not a BASIC listing: `c64tc disasm",
        "binary": "is binary data (not a PRG file: 1 byte",
        "empty": "is an empty file, not a BASIC listing", "disk": "is a D64 disk image, not a BASIC listing"},
    "detok": {
        "basic": OK,
        "listing": "is a BASIC listing (petcat text), not a BASIC program: `c64tc tok",
        "assembler": "is assembler source (Profi-Ass text), not a BASIC program",
        "mse": "is an MSE hex dump, not a BASIC program", "text": "is a text file, not a BASIC program",
        "machine": "is a machine-code PRG ($C000-$C005), not a BASIC program: `c64tc disasm",
        "binary": "not a PRG file: 1 byte", "empty": "is an empty file, not a BASIC program",
        "disk": "is a D64 disk image, not a BASIC program"},
    "list": {
        "basic": OK, "listing": OK,
        "assembler": "is assembler source (Profi-Ass text), not a BASIC program",
        "mse": "is an MSE hex dump, not a BASIC program", "text": "is a text file, not a BASIC program",
        "machine": "is a machine-code PRG ($C000-$C005), not a BASIC program",
        "binary": "not a PRG file: 1 byte", "empty": "is an empty file, not a BASIC program",
        "disk": "is a D64 disk image, not a BASIC program"},
    "disasm": {
        "machine": OK, "basic": OK, "mse": OK,
        "listing": "is a BASIC listing (petcat text), not machine code",
        "assembler": "is assembler source (Profi-Ass text), not machine code",
        "text": "is a text file, not machine code", "binary": "not a PRG file: 1 byte",
        "empty": "is an empty file, not machine code", "disk": "is a D64 disk image, not machine code"},
    "mse fromprg": {
        "machine": OK, "basic": OK,
        "listing": "is a BASIC listing (petcat text), not a PRG",
        "assembler": "is assembler source (Profi-Ass text), not a PRG",
        "mse": "is an MSE hex dump, not a PRG: `c64tc mse check", "text": "is a text file, not a PRG",
        "binary": "not a PRG file: 1 byte", "empty": "is an empty file, not a PRG",
        "disk": "is a D64 disk image, not a PRG"},
    "mse check": {
        "mse": OK,
        "machine": "is a machine-code PRG ($C000-$C005), not an MSE dump: `c64tc mse fromprg",
        "basic": "is a BASIC program (PRG), not an MSE dump: `c64tc mse fromprg",
        "listing": "is a BASIC listing (petcat text), not an MSE dump",
        "assembler": "is assembler source (Profi-Ass text), not an MSE dump",
        "binary": "is binary data (not a PRG file: 1 byte",
        "disk": "is a D64 disk image, not an MSE dump: `c64tc d64 list"},
    "vice": {
        "listing": OK,
        "assembler": "is assembler source (Profi-Ass text), not a disk image, a PRG or a BASIC listing",
        "mse": "is an MSE hex dump, not a disk image, a PRG or a BASIC listing",
        "text": "is a text file, not a disk image", "binary": "not a PRG file: 1 byte",
        "empty": "is an empty file, not a disk image"},
}


@pytest.mark.parametrize(("command", "kind"), [(c, k) for c, kinds in EXPECTED.items() for k in kinds])
def test_each_command_with_each_kind_of_file(kinds: dict[str, Path], tmp_path: Path, command: str,
                                             kind: str) -> None:
    expected = EXPECTED[command][kind]
    arguments: list[str | Path] = [*command.split(), kinds[kind]]
    if command in ("tok", "mse toprg"):
        arguments += ["-o", tmp_path / "out.prg"]
    if command == "run":
        arguments += ["--input", ""]
    if command == "vice" and expected is None:
        return  # accepted: it would start VICE (resolve_target is tested below)
    result = c64tc(*arguments)
    if expected is None:
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code == 1, result.output
    first = result.output.splitlines()[0]
    assert first.startswith(f"{kinds[kind]}: error: {kinds[kind]} ") or "not a PRG file" in first, first
    assert expected in result.output, result.output
    assert "Traceback" not in result.output


def test_a_disk_image_message_names_a_program_that_fits(kinds: dict[str, Path]) -> None:
    disk = kinds["disk"]
    result = c64tc("run", disk)
    assert result.output == (f"{disk}: error: {disk} is a D64 disk image, not a program (a PRG or a BASIC "
                             f"listing): `c64tc d64 list {disk}` shows its files; `c64tc run {disk}:NAME` "
                             f'runs one (e.g. `c64tc run {disk}:"prog"`)\n')
    assert f'`c64tc disasm {disk}:"code"`' in c64tc("disasm", disk).output
    assert f'`c64tc detok {disk}:"prog"`' in c64tc("detok", disk).output
    assert "`c64tc d64 extract" in c64tc("asm", disk).output  # asm reads no IMAGE:NAME


def test_asm_names_a_basic_listing(kinds: dict[str, Path], tmp_path: Path) -> None:
    result = c64tc("asm", kinds["listing"], "-o", tmp_path / "x.prg")
    assert result.exit_code == 1
    assert "prog.bas is a BASIC listing (petcat text), not assembler source: `c64tc tok" in result.output
    (tmp_path / "defs.asm").write_text("10 x = 5\n20 *= $c000\n30 rts\n")  # still a source
    assert c64tc("asm", tmp_path / "defs.asm", "-o", tmp_path / "x.prg").exit_code == 0


def test_a_file_on_a_disk_that_is_not_a_program(kinds: dict[str, Path]) -> None:
    result = c64tc("run", f"{kinds['disk']}:notes")
    assert result.exit_code == 1 and 'disk.d64:"NOTES" is a text file, not a program' in result.output
    assert "it is a SEQ file" in result.output


# -- IMAGE:NAME ----------------------------------------------------------------------------------

def test_image_name_in_every_command(kinds: dict[str, Path]) -> None:
    disk = kinds["disk"]
    result = c64tc("run", f'{disk}:"prog"')
    assert result.exit_code == 0 and result.output.startswith("HI\n")
    result = c64tc("run", f"{disk}:co*", "--sys", "$c000", "--screen")
    assert result.exit_code == 0 and result.output.startswith("A")
    assert c64tc("list", f"{disk}:prog").output == '10 PRINT "HI"\n20 END\n'
    assert ';prog ==0801==\n   10 print "hi"\n   20 end\n' in c64tc("detok", f"{disk}:prog").output
    assert c64tc("disasm", f"{disk}:code").output.splitlines()[0] == ".C:c000  A9 01     LDA #$01"
    source = c64tc("disasm", f"{disk}:code", "--format", "source").output
    assert source.splitlines()[0] == '; disk.d64:"CODE": $C000-$C005, disassembled by c64tc'
    assert c64tc("mse", "fromprg", f"{disk}:code").output.startswith("PROGRAMM : CODE             C000 C006")


def test_image_name_on_a_d81(tmp_path: Path) -> None:
    disk = tmp_path / "games.d81"
    assert c64tc("d64", "create", disk, "--format", "d81").exit_code == 0
    d64.add(disk, "fox hunt", BASIC.to_bytes())
    result = c64tc("run", f'{disk}:"fox hunt"')
    assert result.exit_code == 0 and result.output.startswith("HI\n")


def test_vice_starts_programs_on_any_image(kinds: dict[str, Path], tmp_path: Path) -> None:
    disk = kinds["disk"]
    target = resolve_target(f"{disk}:pr*", None, None, tmp_path)
    assert (target.path, target.program, target.sys_address) == (disk, "PROG", None)
    target = resolve_target(str(disk), "code", None, tmp_path)
    assert (target.path, target.program, target.sys_address) == (disk, "CODE", 0xC000)
    d81 = tmp_path / "games.d81"
    c64tc("d64", "create", d81, "--format", "d81")
    d64.add(d81, "fox hunt", BASIC.to_bytes())
    target = resolve_target(str(d81), None, None, tmp_path)  # not a D64: the PRG is written out first
    assert target.path == tmp_path / "fox-hunt.prg" and target.path.read_bytes() == BASIC.to_bytes()
    target = resolve_target(str(kinds["listing"]), None, None, tmp_path)  # a listing is tokenized
    assert target.path.read_bytes() == BASIC.to_bytes() and target.is_basic


def test_vice_runs_a_program_from_a_d81(tmp_path: Path) -> None:
    """c64tc vice --check IMAGE:NAME on a D81: the program is written out and LOADed from a
    disk, as a user would (skipped without VICE)."""
    from tests.test_vice import _x64sc

    _x64sc()
    disk = tmp_path / "games.d81"
    c64tc("d64", "create", disk, "--format", "d81")
    d64.add(disk, "hello", tokenize_text('10 print "hi";1+1\n').to_bytes())
    result = c64tc("vice", "--check", f"{disk}:hel*", "--max-cycles", "8000000", "--expect", 'LOAD"HELLO",8',
                   "--expect", "HI 2")
    assert result.exit_code == 0, result.output


# -- options -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("arguments", "message"), [
    (["{machine}", "--sys", "$c000", "--input", "1", "--input-file", "{listing}"],
     "--input and --input-file cannot go together"),
    (["{machine}", "--sys", "$c000", "--screen", "--raw"], "--screen and --raw cannot go together"),
    (["{machine}", "--sys", "$c000", "--transcript", "--screen"], "--screen and --transcript cannot go"),
    (["{basic}", "--trace"], "--trace follows machine code instruction by instruction; {basic} is a BASIC"),
    (["{machine}", "--sys", "$c000", "--max-statements", "10"], "--max-statements limits a BASIC program"),
    (["{listing}", "--dump-python", "--screen"], "--dump-python prints Python, not the program's output"),
    (["-", "--input-file", "-"], "standard input ('-') can be read only once"),
])
def test_options_that_conflict_or_do_not_apply(kinds: dict[str, Path], arguments: list[str],
                                               message: str) -> None:
    names = {k: str(v) for k, v in kinds.items()}
    result = c64tc("run", *(a.format(**names) for a in arguments))
    assert result.exit_code == 2 and message.format(**names) in result.output, result.output


@pytest.mark.parametrize(("arguments", "message"), [
    (["{listing}", "--sys", "2049"],
     "--sys starts machine code, but {listing} is a BASIC listing, which holds none: leave --sys out"),
    (["{basic}", "--sys", "2049"],
     "--sys 2049 ($0801) starts in the program's BASIC lines ($0801-$0813); the program has no machine code"),
    (["{machine}", "--sys", "4096"],
     "--sys 4096 ($1000) is outside the program ($C000-$C005): nothing is there to run"),
])
def test_a_start_address_that_cannot_start_the_program(kinds: dict[str, Path], arguments: list[str],
                                                       message: str) -> None:
    names = {k: str(v) for k, v in kinds.items()}
    result = c64tc("run", *(a.format(**names) for a in arguments))
    assert result.exit_code == 1 and message.format(**names) in result.output, result.output


def test_a_decimal_start_meant_as_hex_is_pointed_out(tmp_path: Path) -> None:
    (tmp_path / "sh.prg").write_bytes(Prg(0x3400, b"\x60").to_bytes())
    result = c64tc("run", tmp_path / "sh.prg", "--sys", "3400")
    assert "did you mean --sys $3400 (13312)?" in result.output


def test_sys_after_the_basic_lines_runs_the_machine_code(tmp_path: Path) -> None:
    stub = tokenize_text("10 sys 2062\n")  # the usual loader: BASIC, then the code after it
    code = bytes([0xA9, 0x02, 0x8D, 0x00, 0x04, 0x60])
    (tmp_path / "game.prg").write_bytes(Prg(0x0801, stub.data + code).to_bytes())
    assert stub.end_address == 2062
    result = c64tc("run", tmp_path / "game.prg", "--sys", "2062", "--screen")
    assert result.exit_code == 0 and result.output.startswith("B")
    result = c64tc("run", tmp_path / "game.prg", "--sys", "2049")
    assert "the bytes after them start at $080E (2062)" in result.output
    result = c64tc("run", tmp_path / "game.prg", "--screen")  # RUN: SYS 2062 from BASIC
    assert result.exit_code == 0 and result.output.startswith("B")


def test_vice_program_option_conflicts(kinds: dict[str, Path]) -> None:
    result = c64tc("vice", f"{kinds['disk']}:prog", "--program", "code")
    assert result.exit_code == 2 and "names its program already" in result.output
    result = c64tc("vice", kinds["machine"], "--program", "code")
    assert result.exit_code == 2 and "--program picks a program on a disk image; " in result.output


def test_repeated_errors_are_capped(tmp_path: Path) -> None:
    (tmp_path / "bad.bas").write_text("".join(f"print {i}\n" for i in range(45)))
    result = c64tc("tok", tmp_path / "bad.bas", "-o", tmp_path / "x.prg")
    assert result.exit_code == 1
    assert result.output.count("error: missing line number") == 20
    assert f"{tmp_path / 'bad.bas'}: note: and 25 more errors (45 in all)\n45 errors; no output written" \
        in result.output


def test_numbers_follow_one_rule(kinds: dict[str, Path]) -> None:
    for value in ("49152", "$c000", "0xC000"):
        assert c64tc("run", kinds["machine"], "--sys", value, "--screen").exit_code == 0
