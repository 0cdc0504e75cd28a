"""Layers import only downward (issue 48): kernels (numba) -> analyzer (the core) -> reports (wording, figures) ->
the edges (the CLI, the Python API that writes `out=` folders, entry). Read from the sources with ast, nothing is
imported; every import statement counts, those inside functions and under TYPE_CHECKING too (a later arrow is an
arrow all the same)."""

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("kernels", "analyzer", "reports")

# Circles among analyzer modules known today, each broken by a later step of issue 48. The list only shrinks: a
# circle not in it fails, and so does one in it that is gone (delete its entry then).
KNOWN_CYCLES: list[set[str]] = []  # none left (seafarers full_game <-> play, full_rules <-> full_reference: gone)

# Today's edge modules still in analyzer/, which import reports until a later step of issue 48 moves them out: module ->
# what it takes from reports. The list only shrinks: a module not in it may not import reports, and one in it that no
# longer does fails until its entry is deleted.
REPORTS_ALLOWED = {
    "analyzer.beacon.cli": "the CLI: its lines' wording",
    "analyzer.seafarers.cli": "the CLI: its lines' wording and the reports' headlines",
    "analyzer.beacon.simulation": "simulate(out=): writes its report",
    "analyzer.beacon.comparison": "compare(out=): writes its report",
    "analyzer.meographic.api": "the out= API: writes its reports; its headlines' numbers",
    "analyzer.regatta.api": "the out= API: writes its reports; its headlines' numbers",
    "analyzer.seafarers.api": "the out= API: writes its reports",
    "analyzer.seafarers.tournament": "pair_sentence: a sentence in the summary (points_range)",
}


@cache
def modules() -> dict[str, Path]:
    """Every module of the three layers by dotted name (a package by its own name)."""
    found = {}
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def our_module(name: str) -> str | None:
    """The module a dotted name lands in: itself, else its longest prefix that is a module of ours (None: outside)."""
    parts = name.split(".")
    for n in range(len(parts), 0, -1):
        if ".".join(parts[:n]) in modules():
            return ".".join(parts[:n])
    return None


def imported_names(name: str) -> set[str]:
    """Every dotted name module `name` imports (ours and others'): `from p import m` gives p.m and p."""
    path = modules()[name]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's package, one level up per dot after the first
                base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
    return names


@cache
def graph() -> dict[str, frozenset[str]]:
    """module -> the modules of ours it imports (not itself)."""
    return {name: frozenset(m for m in map(our_module, imported_names(name)) if m is not None and m != name)
            for name in modules()}


def circles(edges: dict[str, frozenset[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan): modules that import each other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def round_trip(component: set[str], edges: dict[str, frozenset[str]]) -> list[str]:
    """A shortest path from the component's first module back to itself (breadth first): the failure message."""
    start = min(component)
    came_from: dict[str, str] = {}
    frontier = [start]
    while start not in came_from:
        reached = []
        for v in frontier:
            for w in sorted(edges[v] & component):
                if w not in came_from:
                    came_from[w] = v
                    reached.append(w)
        frontier = reached
    path = [start]
    while path[-1] != start or len(path) == 1:
        path.append(came_from[path[-1]])
    return path[::-1]


def test_circles_finds_a_circle_and_only_one():
    """The finder the next test trusts: a circle of three with a tail into it and a module beside it."""
    edges = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a", "d"}), "d": frozenset(),
             "tail": frozenset({"a"})}
    assert circles(edges) == [{"a", "b", "c"}]
    assert round_trip({"a", "b", "c"}, edges) == ["a", "b", "c", "a"]
    assert circles({**edges, "c": frozenset({"d"})}) == []


def test_no_circles_among_analyzer_modules():
    core = {name: edges for name, edges in graph().items() if name.startswith("analyzer")}
    found = circles(core)
    new = [f"{' -> '.join(round_trip(c, core))} (all of: {', '.join(sorted(c))})" for c in found
           if c not in KNOWN_CYCLES]
    assert not new, "analyzer modules import each other in a circle: " + "; ".join(new)
    gone = [sorted(cycle) for cycle in KNOWN_CYCLES if cycle not in found]
    assert not gone, f"no longer a circle, delete it from KNOWN_CYCLES: {gone}"


def test_kernels_import_neither_analyzer_nor_reports():
    upward = {name: sorted(m for m in edges if not m.startswith("kernels"))
              for name, edges in graph().items() if name.startswith("kernels")}
    assert not {name: up for name, up in upward.items() if up}


def test_only_the_listed_edge_modules_of_analyzer_import_reports():
    importers = {name: sorted(m for m in edges if m.startswith("reports"))
                 for name, edges in graph().items() if name.startswith("analyzer")}
    importers = {name: up for name, up in importers.items() if up}
    unlisted = {name: up for name, up in importers.items() if name not in REPORTS_ALLOWED}
    assert not unlisted, f"the core imports reports (layers import only downward): {unlisted}"
    stale = sorted(set(REPORTS_ALLOWED) - set(importers))
    assert not stale, f"no longer import reports, delete them from REPORTS_ALLOWED: {stale}"


def test_the_runner_resolves_no_names_with_importlib():
    """What the runner plays comes as a Job (analyzer/job.py builds it); the driver itself imports nothing by name."""
    names = imported_names("analyzer.runner")
    assert not {n for n in names if n.split(".")[0] == "importlib"}
    tree = ast.parse(modules()["analyzer.runner"].read_text())
    assert not {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)} & {"importlib", "__import__"}
