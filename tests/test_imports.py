"""The import rules between the program's layers, read from the source (AST), never by importing it.

Layers: `firmware_host.core` (pure), `drivers`, `hw`, and the rest of `firmware_host` (the shell side:
shell, appliance, journal, CLI, simulator). Every import counts — at module level, inside a function
(hardware libraries are imported late) or under `TYPE_CHECKING`.

- core: the stdlib and itself only, and none of the stdlib's I/O, clock, thread or process modules
  (`FORBIDDEN_IN_CORE`); time arrives as events, effects leave as values. `random` is allowed: the core
  shuffles with seeded `random.Random` instances, which is deterministic.
- drivers: the stdlib, their hardware libraries, other drivers and, of the program, only the core's
  value types they speak (`DRIVERS_MAY_USE`: the events they emit, the notes they play). Nothing from `hw`
  — the builder that makes them — and nothing else of `firmware_host`; the rest is injected.
- hw: itself, drivers and the core (never the shell side).
- the graph of the layers has no cycle; neither has the graph of the modules outside the core.
- no module imports itself back, counting every import that runs (at module level or inside a function;
  not those under `TYPE_CHECKING`, which never run): the graph of all modules has no cycle.
"""

from __future__ import annotations

import ast
import functools
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("firmware_host", "hw", "drivers")
CORE = "firmware_host.core"

DRIVERS_MAY_USE = ("firmware_host.core.events", "firmware_host.core.sounds")
FORBIDDEN_IN_CORE = frozenset({
    # threads, processes, concurrency
    "_thread", "threading", "multiprocessing", "concurrent", "asyncio", "queue", "sched", "subprocess",
    "signal",
    # the clock
    "time", "datetime", "zoneinfo",
    # the operating system, files, the process
    "os", "posix", "sys", "io", "pathlib", "shutil", "tempfile", "glob", "fileinput", "mmap", "fcntl",
    "termios", "tty", "pty", "resource", "platform", "getpass", "pwd", "grp", "locale", "atexit", "gc",
    "faulthandler", "tracemalloc", "ctypes", "importlib", "curses", "readline", "zipfile", "tarfile",
    "gzip", "bz2", "lzma", "dbm", "shelve",
    # storage, logging, network
    "sqlite3", "logging", "syslog", "socket", "socketserver", "ssl", "select", "selectors", "urllib",
    "http", "ftplib", "smtplib", "imaplib", "poplib", "webbrowser", "wsgiref", "xmlrpc",
    # randomness from the OS
    "secrets", "uuid",
})


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources() -> dict[str, str]:
    """Every first-party module -> its source."""
    found: dict[str, str] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[module_name(path)] = path.read_text(encoding="utf-8")
    return found


@functools.cache
def _parsed(source: str) -> ast.Module:
    """A module's syntax tree, parsed once for all the checks that walk it."""
    return ast.parse(source)


def imports(module: str, source: str, known: Iterable[str] = ()) -> list[tuple[int, str]]:
    """(line, imported module) for every import in `source`. `from a import b` names `a.b` when that is a
    known module (a submodule), else `a`; relative imports are resolved against `module`."""
    known = set(known)
    is_package = any(name.startswith(f"{module}.") for name in known)
    found: list[tuple[int, str]] = []
    for node in ast.walk(_parsed(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".") if is_package else module.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join(package + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.append((node.lineno, sub if sub in known else base))
    return found


def runtime_imports(module: str, source: str, known: Iterable[str] = ()) -> list[tuple[int, str]]:
    """`imports` less those under `if TYPE_CHECKING:` (they never run)."""
    typing_only = {
        node.lineno
        for block in ast.walk(_parsed(source))
        if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
        for statement in block.body
        for node in ast.walk(statement)
        if isinstance(node, ast.Import | ast.ImportFrom)
    }
    return [(line, name) for line, name in imports(module, source, known) if line not in typing_only]


def layer(module: str) -> str | None:
    """The layer a first-party module belongs to; None for the stdlib and third-party libraries."""
    if module == CORE or module.startswith(f"{CORE}."):
        return CORE
    top = module.split(".")[0]
    return top if top in PACKAGES else None


def find_cycle(graph: Mapping[str, Iterable[str]]) -> list[str] | None:
    """A cycle in a directed graph as [a, b, …, a], or None when it has none."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(node: str) -> list[str] | None:
        if node in on_path:
            return [*path[path.index(node):], node]
        if node in done:
            return None
        path.append(node)
        on_path.add(node)
        for target in sorted(graph.get(node, ())):
            cycle = visit(target)
            if cycle:
                return cycle
        path.pop()
        on_path.discard(node)
        done.add(node)
        return None

    for start in sorted(graph):
        cycle = visit(start)
        if cycle:
            return cycle
    return None


def edges(modules: Mapping[str, str]) -> dict[str, set[str]]:
    """module -> the first-party modules it imports."""
    known = set(modules)
    graph: dict[str, set[str]] = {}
    for module, source in modules.items():
        graph[module] = {name for _, name in imports(module, source, known) if layer(name) is not None}
    return graph


def runtime_edges(modules: Mapping[str, str]) -> dict[str, set[str]]:
    """module -> the first-party modules it imports when it runs (itself left out)."""
    known = set(modules)
    return {module: {name for _, name in runtime_imports(module, source, known) if name in known and name != module}
            for module, source in modules.items()}


def layer_graph(modules: Mapping[str, str]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, targets in edges(modules).items():
        here = layer(module)
        assert here is not None
        graph.setdefault(here, set()).update(t for t in (layer(x) for x in targets) if t and t != here)
    return graph


def stdlib(name: str) -> bool:
    return name.split(".")[0] in sys.stdlib_module_names or name == "__future__"


def core_violations(module: str, source: str, known: Iterable[str] = ()) -> list[str]:
    problems = []
    for line, name in imports(module, source, known):
        if layer(name) == CORE:
            continue
        if layer(name) is not None or not stdlib(name):
            problems.append(f"{module}:{line} imports {name}: the core imports only the stdlib and itself")
        elif name.split(".")[0] in FORBIDDEN_IN_CORE:
            problems.append(f"{module}:{line} imports {name}: no I/O, clock or threads in the core")
    return problems


def driver_violations(module: str, source: str, known: Iterable[str] = ()) -> list[str]:
    problems = []
    for line, name in imports(module, source, known):
        where = layer(name)
        if where in (None, "drivers") or name in DRIVERS_MAY_USE:
            continue
        problems.append(
            f"{module}:{line} imports {name}: drivers import no hw and of firmware_host only "
            f"{', '.join(DRIVERS_MAY_USE)}; take the rest as parameters"
        )
    return problems


def hw_violations(module: str, source: str, known: Iterable[str] = ()) -> list[str]:
    return [
        f"{module}:{line} imports {name}: hw builds on drivers and the core, never on the shell side"
        for line, name in imports(module, source, known)
        if layer(name) == "firmware_host"
    ]


MODULES = sources()

def of(layer_name: str) -> dict[str, str]:
    return {module: source for module, source in MODULES.items() if layer(module) == layer_name}


# --- the rules hold ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_walk_sees_every_layer():
    assert {layer(module) for module in MODULES} == {CORE, "firmware_host", "hw", "drivers"}
    assert "hw.build" in MODULES and "drivers.display" in MODULES and "firmware_host.core.app" in MODULES


@pytest.mark.slow
def test_the_layers_import_each_other_without_a_cycle():
    graph = layer_graph(MODULES)
    assert find_cycle(graph) is None, f"import cycle between layers: {find_cycle(graph)} (graph: {graph})"
    assert not graph.get(CORE), "the core imports no other layer"
    assert graph["drivers"] <= {CORE}
    assert graph["hw"] <= {CORE, "drivers"}


@pytest.mark.slow
def test_the_modules_outside_the_core_import_each_other_without_a_cycle():
    outside = {m: targets - set(of(CORE)) for m, targets in edges(MODULES).items() if layer(m) != CORE}
    cycle = find_cycle(outside)
    assert cycle is None, f"import cycle: {' -> '.join(cycle)}"


@pytest.mark.slow
def test_no_module_imports_itself_back():
    cycle = find_cycle(runtime_edges(MODULES))
    assert cycle is None, f"import cycle (imports inside functions count): {' -> '.join(cycle)}"


@pytest.mark.slow
def test_the_core_imports_only_the_stdlib_without_io_and_itself():
    problems = [p for module, source in of(CORE).items() for p in core_violations(module, source, MODULES)]
    assert problems == []


@pytest.mark.slow
def test_drivers_import_nothing_from_hw_and_of_the_program_only_the_cores_value_types():
    problems = [p for module, source in of("drivers").items() for p in driver_violations(module, source, MODULES)]
    assert problems == []


@pytest.mark.slow
def test_hw_imports_drivers_and_the_core_only():
    problems = [p for module, source in of("hw").items() for p in hw_violations(module, source, MODULES)]
    assert problems == []


# --- the checks catch what they are for -------------------------------------------------------------


def test_find_cycle_finds_one_and_only_one_that_is_there():
    assert find_cycle({"hw": {"drivers"}, "drivers": {"firmware_host.core"}}) is None
    assert find_cycle({"hw": {"drivers"}, "drivers": {"x"}, "x": {"hw"}}) == ["drivers", "x", "hw", "drivers"]
    assert find_cycle({"a": {"a"}}) == ["a", "a"]


@pytest.mark.slow
def test_a_driver_importing_hw_makes_the_layer_graph_cyclic():
    broken = {**MODULES, "drivers.display": MODULES["drivers.display"] + "\nfrom hw.protocols import Emit\n"}
    assert find_cycle(layer_graph(broken)) is not None
    assert driver_violations("drivers.display", broken["drivers.display"], MODULES)


@pytest.mark.parametrize("line", [
    "import threading", "import time", "from os import path", "import sqlite3", "import socket",
    "from datetime import datetime", "import gpiozero", "from hw.protocols import Bar",
    "from firmware_host import journal", "from firmware_host.shell import Shell",
    "def later():\n    import logging",
])
def test_the_core_check_catches(line):
    assert core_violations("firmware_host.core.app", f"from __future__ import annotations\n{line}\n", MODULES)


@pytest.mark.parametrize("line", [
    "import json", "import random", "from dataclasses import dataclass", "from . import events",
    "from .events import Event", "from firmware_host.core.games import perfektes_wort",
])
def test_the_core_check_allows(line):
    assert core_violations("firmware_host.core.app", line, MODULES) == []


@pytest.mark.parametrize("line", [
    "from hw.protocols import Emit", "from hw import build", "import hw.profile",
    "from firmware_host.core.app import step", "from firmware_host.shell import Shell",
    "from firmware_host import config", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import hw",
])
def test_the_driver_check_catches(line):
    assert driver_violations("drivers.buttons", line, MODULES)


@pytest.mark.parametrize("line", [
    "import threading", "import gpiozero", "from drivers.errors import HardwareError", "from .rdm6300 import frame",
    "from firmware_host.core.events import Press", "from firmware_host.core import sounds",
])
def test_the_driver_check_allows(line):
    assert driver_violations("drivers.buttons", line, MODULES) == []


def test_the_cycle_walk_counts_imports_inside_functions_and_not_those_for_the_type_checker():
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from firmware_host.shell import Shell\n"
              "def later():\n    from firmware_host.journal import Journal\n")
    assert [name for _, name in runtime_imports("firmware_host.x", source, MODULES)] == [
        "typing", "firmware_host.journal"]
    lazy = {"firmware_host.x": source, "firmware_host.journal": "from firmware_host import x\n"}
    assert find_cycle(runtime_edges(lazy)) == ["firmware_host.journal", "firmware_host.x", "firmware_host.journal"]


def test_the_hw_check_catches_the_shell_side():
    assert hw_violations("hw.build", "from firmware_host.shell import Outputs", MODULES)
    assert hw_violations("hw.build", "from firmware_host.core.events import Button", MODULES) == []
