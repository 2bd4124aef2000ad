"""The documentation runs as written: every ```console block of README.md and docs/*.md.

Each block is a terminal session: a line ``$ COMMAND`` (continued on the next line when it
ends in ``\\``) is run by bash, and the lines up to the next ``$`` are what it prints
(standard output and standard error together, as a terminal shows them), compared byte
for byte.  The blocks of one page run in order in one scratch folder that looks like the
reader's clone after the README's set-up: ``sources/``, ``examples/``, ``docs/``,
``scripts/``, ``benchmarks/`` and ``tests/`` copied (and checked unchanged after every
block: the docs write only under ``build/`` or folders they make), ``build/`` as
``c64tc build`` leaves it, ``../shared`` beside it when the repository has one, a ``HOME``
of its own (``~/c64roms`` is ../shared/roms), ``c64tc`` and ``python`` on the ``PATH``,
no VICE on it (so ``run`` stays on c64tc's own models, as the docs say their examples are)
except for blocks that run VICE.

What the comparison allows, and nothing else:

- a line ``...`` alone stands for any number of lines (elided output);
- host seconds (``statement groups in 0.07 s``, the ``s`` column of
  ``scripts/corpus-vs-vice``) are compared as ``N s``: they are the host's time, not the C64's;
- a final line break.

Markers, an HTML comment on the line(s) before the fence (invisible when rendered):

- ``<!-- console: slow -->``: the block runs with ``pytest -m slow`` (as CI does);
- ``<!-- console: not checked: REASON -->``: the block is not run; the test reports it as
  skipped with REASON;
- blocks that run ``c64tc vice`` (or carry ``<!-- console: needs x64sc -->``) skip without
  VICE's x64sc; blocks that read a file of ``../shared`` (named in a command or in
  ``<!-- console: needs ../shared/PATH -->``) or ``~/c64roms`` skip when it is absent.

The links of every page to files of the repository are checked too.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import REPO, SHARED

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
MARKER = re.compile(r"^\s*<!--\s*console:\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)```console\s*$")
ELIDED = "..."
#: what the scratch clone copies of the repository
TRACKED = ("sources", "examples", "docs", "scripts", "benchmarks", "tests")
#: host seconds: the runner's summary (``... statement groups in 0.07 s``) and
#: corpus-vs-vice's time column; C64 time (``0.59 s on a PAL C64``) is compared as printed
HOST_SECONDS = [
    (re.compile(r"(statement groups? in )\d+\.\d+ s\b"), r"\1N s"),
    (re.compile(r"^(\S+\s+(?:same|different)\s+(?:\d+\s+)?.*?\s)\d+\.\d\d(\s|$)", re.M), r"\1N\2"),
]


@dataclass
class Command:
    text: str  # what bash runs
    line: int  # where its expected output starts in the page, 0-based
    expected: list[str] = field(default_factory=list)
    printed: str = ""  # what it printed when last run


@dataclass
class Block:
    page: Path
    line: int  # of the fence, 1-based
    commands: list[Command]
    markers: list[str]

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"

    def not_checked(self) -> str | None:
        for marker in self.markers:
            if marker.startswith("not checked:"):
                return marker.removeprefix("not checked:").strip()
        return None

    @property
    def slow(self) -> bool:
        return "slow" in self.markers

    def needs_vice(self) -> bool:
        return "needs x64sc" in self.markers or any(
            re.search(r"\bc64tc vice\b|--measure\b", c.text) for c in self.commands)

    def shared_paths(self) -> list[str]:
        """The files of ../shared the block reads: named in its commands, or in a marker
        ``<!-- console: needs ../shared/PATH -->``."""
        named = [found for c in self.commands for found in re.findall(r"\.\./shared/[^\s\"']*", c.text)]
        return named + [marker.removeprefix("needs ").strip() for marker in self.markers
                        if marker.startswith("needs ../shared")]


def parse_blocks(page: Path) -> list[Block]:
    lines = page.read_text(encoding="utf-8").splitlines()
    blocks = []
    index = 0
    while index < len(lines):
        fence = FENCE.match(lines[index])
        if not fence:
            index += 1
            continue
        markers = []
        back = index - 1
        while back >= 0 and (found := MARKER.match(lines[back])):
            markers.insert(0, found.group(1))
            back -= 1
        indent = fence.group(1)
        start = index + 1
        index = start
        while lines[index].strip() != "```":
            index += 1
        body = [line[len(indent):] if line.startswith(indent) else line for line in lines[start:index]]
        commands: list[Command] = []
        position = 0
        while position < len(body):
            line = body[position]
            if line.startswith("$ "):
                text = line[2:]
                while text.endswith("\\") and position + 1 < len(body):
                    position += 1
                    text += "\n" + body[position]
                commands.append(Command(text, start + position + 1))
            elif commands:
                commands[-1].expected.append(line)
            else:
                raise AssertionError(f"{page}:{start + position + 1}: output before any `$ ` line")
            position += 1
        blocks.append(Block(page, start, commands, markers))
        index += 1
    return blocks


BLOCKS = [block for page in PAGES for block in parse_blocks(page)]


def normalize(text: str) -> str:
    for pattern, replacement in HOST_SECONDS:
        text = pattern.sub(replacement, text)
    return text


def output_lines(text: str) -> list[str]:
    """Printed or expected text as lines to compare: normalized, without the final line break."""
    text = normalize(text).rstrip("\n")
    return text.split("\n") if text.strip("\n") else []


def matches(expected: list[str], actual: list[str]) -> bool:
    """``expected`` with ``...`` lines standing for any run of lines equals ``actual``."""
    parts: list[list[str]] = [[]]
    for line in expected:
        if line == ELIDED:
            parts.append([])
        else:
            parts[-1].append(line)
    if len(parts) == 1:
        return expected == actual
    first, *middle, last = parts
    if actual[:len(first)] != first or (last and actual[-len(last):] != last):
        return False
    position, end = len(first), len(actual) - len(last)
    if end < position:
        return False
    for part in middle:
        if not part:
            continue
        for start in range(position, end - len(part) + 1):
            if actual[start:start + len(part)] == part:
                position = start + len(part)
                break
        else:
            return False
    return True


class Scratch:
    """A page's scratch clone, and how far its blocks have run."""

    def __init__(self, root: Path, seed: Path) -> None:
        self.root = root
        self.clone = root / "clone"
        self.clone.mkdir()
        for name in TRACKED:
            shutil.copytree(REPO / name, self.clone / name, ignore=shutil.ignore_patterns("__pycache__"))
        self.fingerprint = self.tracked_files()
        # the README's set-up ran `c64tc build`: the pages start with its outputs in build/
        shutil.copytree(seed, self.clone / "build")
        if SHARED.is_dir():
            (root / "shared").symlink_to(SHARED.resolve())
        self.home = root / "home"
        self.home.mkdir()
        if (SHARED / "roms").is_dir():
            (self.home / "c64roms").symlink_to((SHARED / "roms").resolve())
        self.bin = root / "bin"
        self.bin.mkdir()
        for name, run in (("c64tc", f'exec "{sys.executable}" -m toolchain "$@"'),
                          ("python", f'exec "{sys.executable}" "$@"'),
                          ("python3", f'exec "{sys.executable}" "$@"')):
            (self.bin / name).write_text(f"#!/bin/sh\n{run}\n")
            (self.bin / name).chmod(0o755)
        self.done = 0

    def tracked_files(self) -> dict[str, bytes]:
        """The copied files of the repository, by path, with their SHA-256."""
        return {str(path.relative_to(self.clone)): hashlib.sha256(path.read_bytes()).digest()
                for name in TRACKED for path in sorted((self.clone / name).rglob("*"))
                if path.is_file() and "__pycache__" not in path.parts}

    def environment(self, with_vice: bool) -> dict[str, str]:
        path = [str(self.bin), "/usr/local/bin", "/usr/bin", "/bin"]
        if with_vice:
            x64sc = shutil.which("x64sc")
            assert x64sc is not None
            path.insert(1, str(Path(x64sc).parent))
        environment = {key: value for key, value in os.environ.items()
                       if not key.startswith(("C64TC_", "PYTEST", "COV_")) and key not in ("PATH", "HOME")}
        environment.update(PATH=os.pathsep.join(path), HOME=str(self.home), PYTHONUNBUFFERED="1",
                           PYTHONPATH=str(REPO), LC_ALL="C.UTF-8", COLUMNS="80", TERM="dumb")
        return environment

    def run(self, block: Block) -> list[str]:
        """Run the block's commands; the differences, one message each."""
        problems = []
        environment = self.environment(block.needs_vice())
        for command in block.commands:
            result = subprocess.run(["bash", "-c", command.text], cwd=self.clone, env=environment,
                                    stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, timeout=900)
            output = command.printed = result.stdout.decode("utf-8", "replace")
            actual = output_lines(output)
            expected_lines = output_lines("\n".join(command.expected))
            if "Traceback (most recent call last)" in output or not matches(expected_lines, actual):
                diff = "\n".join(difflib.unified_diff(expected_lines, actual, "the docs", "printed",
                                                      lineterm=""))
                problems.append(f"$ {command.text}\n{diff}")
        now = self.tracked_files()
        if now != self.fingerprint:
            changed = sorted(set(now.items()) ^ set(self.fingerprint.items()))
            problems.append("the block changed files of the repository (write under build/ instead): "
                            + ", ".join(sorted({path for path, _ in changed})))
            self.fingerprint = now
        return problems


_scratches: dict[Path, Scratch] = {}
def seed_build(root: Path) -> Path:
    """build/ as the README's set-up leaves it (``c64tc build``), made once under ``root``."""
    folder = root / "seed"
    if not folder.exists():
        shutil.copytree(REPO / "sources", folder / "sources")
        environment = dict(os.environ, C64TC_ROMS="none", PYTHONPATH=str(REPO))
        subprocess.run([sys.executable, "-m", "toolchain", "build"], cwd=folder, check=True,
                       stdout=subprocess.DEVNULL, env=environment)
    return folder / "build"


@pytest.fixture(scope="session")
def scratch_root(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("docs")
    yield root
    _scratches.clear()


def _skip_reason(block: Block) -> str | None:
    reason = block.not_checked()
    if reason is not None:
        return f"not checked: {reason}"
    if block.needs_vice() and shutil.which("x64sc") is None:
        return "needs VICE's x64sc on the PATH"
    for needed in block.shared_paths():
        if not (REPO / needed).exists():
            return f"needs {needed} (the shared data beside the repository)"
    if any("~/c64roms" in c.text for c in block.commands) and not (SHARED / "roms").is_dir():
        return f"needs the C64's ROMs in {SHARED / 'roms'}"
    return None


def _parameters() -> list:
    parameters = []
    for block in BLOCKS:
        marks = [pytest.mark.xdist_group(str(block.page.relative_to(REPO)))]
        if block.slow:
            marks.append(pytest.mark.slow)
        parameters.append(pytest.param(block, id=block.name, marks=marks))
    return parameters


@pytest.mark.parametrize("block", _parameters())
def test_console_block(block: Block, scratch_root: Path) -> None:
    reason = _skip_reason(block)
    if reason is not None:
        pytest.skip(reason)
    scratch = _scratches.get(block.page)
    if scratch is None:
        folder = scratch_root / block.page.relative_to(REPO).as_posix().replace("/", "-")
        folder.mkdir()
        scratch = _scratches[block.page] = Scratch(folder, seed_build(scratch_root))
    # the page's earlier blocks first (their files are this one's), unchecked when this
    # test runs alone; skipped and slow ones are left out, as a reader may leave them out
    page_blocks = [b for b in BLOCKS if b.page == block.page]
    for earlier in page_blocks[scratch.done:page_blocks.index(block)]:
        if _skip_reason(earlier) is None and not earlier.slow:
            scratch.run(earlier)
    problems = scratch.run(block)
    scratch.done = page_blocks.index(block) + 1
    assert not problems, f"{block.name}: the output differs from the docs:\n" + "\n\n".join(problems)


LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(REPO)))
def test_links_to_files_exist(page: Path) -> None:
    missing = []
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        for target in LINK.findall(line):
            if re.match(r"[a-z]+:", target):
                continue
            if not (page.parent / target).exists():
                missing.append(f"{page.relative_to(REPO)}:{number}: {target}")
    assert not missing, "links to files that are not there:\n" + "\n".join(missing)


def test_blocks_are_found() -> None:
    """The parser sees the README's walk (a check of the checker: no block, no test)."""
    readme = [block for block in BLOCKS if block.page.name == "README.md" and block.page.parent == REPO]
    assert readme and all(block.commands for block in readme)


@pytest.mark.parametrize(("expected", "actual", "same"), [
    (["a", "b"], ["a", "b"], True),
    (["a", "b"], ["a", "c"], False),
    (["a", "...", "d"], ["a", "b", "c", "d"], True),
    (["a", "...", "d"], ["a", "d"], True),
    (["a", "...", "d"], ["a", "b"], False),
    (["...", "c"], ["a", "b", "c"], True),
    (["a", "..."], ["a", "b"], True),
    (["a", "...", "b", "...", "e"], ["a", "x", "b", "y", "e"], True),
    (["a", "...", "c", "...", "b"], ["a", "b", "c"], False),
])
def test_elision(expected: list[str], actual: list[str], same: bool) -> None:
    assert matches(expected, actual) is same


def test_the_architecture_page_names_every_module() -> None:
    """docs/architecture.md's module map is current: every module of toolchain/ is named in
    the section of its sub-package (``**Title** (`toolchain/NAME/`)``)."""
    sections: dict[str, str] = {}
    current = None
    for line in (REPO / "docs" / "architecture.md").read_text(encoding="utf-8").splitlines():
        heading = re.match(r"^\*\*.*\*\* \(`(toolchain/(?:\w+/)?)`\)", line)
        if heading:
            current = heading.group(1)
            sections[current] = ""
        elif current is not None:
            sections[current] += line + "\n"
    toolchain = REPO / "toolchain"
    missing = []
    for module in sorted([*toolchain.rglob("*.py"), *toolchain.rglob("*.lark")]):
        if module.name == "__init__.py":  # a package's public API, named by its folder
            continue
        parts = module.relative_to(toolchain).parts
        section = "toolchain/" if len(parts) == 1 else f"toolchain/{parts[0]}/"
        if f"{module.name}`" not in sections.get(section, ""):  # `name.py` or `runner/`: ... `name.py`
            missing.append(f"{module.relative_to(REPO)} (in the section of `{section}`)")
    assert not missing, "docs/architecture.md does not name:\n" + "\n".join(missing)


def update(pages: list[Path], with_slow: bool) -> None:
    """Write what the commands print now into the pages, where it differs (for a
    maintainer after a deliberate change of output: review the diff, put back the ``...``
    of long outputs)."""
    import tempfile

    for page in pages:
        page = page.resolve()
        lines = page.read_text(encoding="utf-8").split("\n")
        replacements = []
        with tempfile.TemporaryDirectory() as folder:
            (Path(folder) / "page").mkdir()
            scratch = Scratch(Path(folder) / "page", seed_build(Path(folder)))
            for block in parse_blocks(page):
                if _skip_reason(block) is not None or (block.slow and not with_slow):
                    continue
                problems = scratch.run(block)
                if not problems:
                    continue
                indent = re.match(r"\s*", lines[block.line - 1]).group(0)  # type: ignore[union-attr]
                for command in block.commands:
                    if not matches(output_lines("\n".join(command.expected)), output_lines(command.printed)):
                        printed = command.printed.rstrip("\n").split("\n") if command.printed.strip() else []
                        replacements.append((command.line, len(command.expected),
                                             [indent + line if line else line for line in printed]))
        for start, length, new in sorted(replacements, reverse=True):
            lines[start:start + length] = new
        page.write_text("\n".join(lines), encoding="utf-8")
        print(f"{page.relative_to(REPO)}: {len(replacements)} outputs rewritten")


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(
        description="Rewrite the docs' console outputs with what the commands print now.")
    parser.add_argument("pages", nargs="+", type=Path)
    parser.add_argument("--slow", action="store_true", help="also the blocks marked slow")
    arguments = parser.parse_args()
    update(arguments.pages, arguments.slow)
