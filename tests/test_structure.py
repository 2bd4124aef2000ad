"""The package's structure (issue 26, "a thin CLI"): no module imports one that imports
it back, and each concept the drive and the disk commands share lives in one place."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import REPO

PACKAGE = REPO / "toolchain"

# Modules that may import one another round, each with the reason it cannot be helped:
# none.  A cycle is a sign that a piece shared by two modules lives in one of them.
KNOWN_CYCLES: set[frozenset[str]] = set()


def _modules() -> dict[str, Path]:
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(REPO).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def import_graph() -> dict[str, set[str]]:
    """Which toolchain module imports which, at module level or inside a function (a
    function's import that only breaks a cycle is still one), with the packages each
    import runs on the way (their __init__); imports for type checking only left out."""
    modules = _modules()

    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        nodes: list[ast.AST] = list(ast.parse(path.read_text(encoding="utf-8")).body)
        while nodes:
            node = nodes.pop()
            if _type_checking_only(node):
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                           for alias in node.names]
            else:
                nodes.extend(ast.iter_child_nodes(node))
            for target in targets:
                found = resolve(target)
                while found and found.startswith("toolchain"):
                    if found != name and not name.startswith(found + "."):
                        graph[name].add(found)
                    found = found.rpartition(".")[0]  # the packages on the way run first
    return graph


def import_cycles(graph: dict[str, set[str]] | None = None) -> list[set[str]]:
    """The sets of modules that import one another round (strongly connected), in
    toolchain's import graph or in ``graph``."""
    graph = import_graph() if graph is None else graph
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[set[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                members = set()
                while True:
                    member = stack.pop()
                    members.add(member)
                    if member == node:
                        break
                if len(members) > 1:
                    cycles.append(members)
    return cycles


def _short(names: set[str]) -> frozenset[str]:
    return frozenset(name.removeprefix("toolchain.") for name in names)


def test_no_import_cycles() -> None:
    found = {_short(cycle) for cycle in import_cycles()}
    assert found <= KNOWN_CYCLES, sorted(sorted(cycle) for cycle in found - KNOWN_CYCLES)


def test_the_disks_the_roms_and_the_cli_import_without_a_cycle() -> None:
    """disk/d64 <-> disk/reference, roms -> vice -> machine -> roms, kernal <-> machine and
    cli/run <-> cli/monitor and the assembler's dialects (through the dispatch by dialect and
    each other's directive names) are gone."""
    in_cycles = set().union(*import_cycles())
    for name in ("disk.d64", "disk.reference", "c64.roms", "vice", "c64.machine", "c64.kernal", "cli.run",
                 "cli.monitor", "cli.monitor_console", "asm.assembler", "asm.dialects", "asm.tass"):
        assert f"toolchain.{name}" not in in_cycles, name


def test_the_cycle_finder_finds_each_cycle_once() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"a", "f"}, "f": {"e"}, "g": {"g"}}
    assert sorted(sorted(cycle) for cycle in import_cycles(graph)) == [["a", "b", "c"], ["e", "f"]]


def test_the_cycle_finder_sees_a_cycle_through_a_functions_import() -> None:
    graph = import_graph()
    assert "toolchain.basic.runner" in graph["toolchain.cli.run"]  # imported inside a function
    assert "toolchain.disk" in graph["toolchain.c64.drive"]  # the package runs first
    assert "toolchain.c64.machine" not in graph["toolchain.c64.kernal"]  # for type checking only


def test_the_drive_and_the_disk_commands_share_one_pattern_and_one_walk() -> None:
    from toolchain.c64 import drive
    from toolchain.disk import chains, check, names

    assert drive.Pattern is names.Pattern
    assert drive.Entry is chains.Entry
    for module in (drive, check):
        assert "follow" in vars(module) and "entries" in vars(module)
