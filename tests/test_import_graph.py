"""No import cycles in treecalc: the layers only call downwards (ARCHITECTURE.md).

The graph is read from the source (every ``import`` and ``from ... import``, at the top of a module or inside
a function: a function's import is as much a dependency as the module's), not by importing it. Imports under
``if TYPE_CHECKING:`` are left out (they name types for mypy; nothing runs them). A module importing from its
own package (``from treecalc import data`` in a submodule of treecalc) counts as an edge to that module only.

Two graphs are checked: modules (``treecalc.rules.croton_on_hudson`` -> ``treecalc.ingest.site``) and the
first-level units of treecalc (``treecalc.rules`` -> ``treecalc.ingest``), so two packages cannot import
each other through different modules either.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Cycles known, each in another area of work; each is to go, and the test fails once it has gone, so that
#: this list only shrinks. Nothing may be added to it.
KNOWN = {
    # the climate zones' note on trees near another zone values them there (climate_zones -> benefits), and
    # one tree's benefits at a position find its zone (benefits -> climate_zones)
    frozenset({"treecalc.benefits", "treecalc.climate_zones"}),
}


def _modules(package: str = "treecalc", root: Path = ROOT) -> dict[str, Path]:
    out = {}
    for p in sorted((root / package).rglob("*.py")):
        parts = p.relative_to(root).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = p
    return out


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            inside |= {id(n) for n in ast.walk(node)}
    return inside


def import_graph(mods: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the treecalc modules it imports."""
    edges: dict[str, set[str]] = defaultdict(set)
    for name, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_checking_nodes(tree)
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                subs = [f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in mods]
                targets = subs if len(subs) == len(node.names) else [node.module, *subs]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            for t in targets:
                # a module of a package reading the package's own names is inside it, not a cycle
                if t in mods and t != name and not name.startswith(t + "."):
                    edges[name].add(t)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[frozenset[str]] = []
    nodes = sorted(set(edges) | {t for ts in edges.values() for t in ts})
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.add(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    out.append(frozenset(comp))
    return out


def _units(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    def unit(m: str) -> str:
        return ".".join(m.split(".")[:2])

    out: dict[str, set[str]] = defaultdict(set)
    for a, ts in edges.items():
        for b in ts:
            if unit(a) != unit(b):
                out[unit(a)].add(unit(b))
    return out


def test_the_cycle_finder_finds_a_cycle_and_only_cycles():
    # a -> b -> c -> a is one cycle; d -> a leads into it without being part of it
    found = cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
    assert found == [frozenset({"a", "b", "c"})]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_reads_imports_inside_functions_and_leaves_out_type_checking(tmp_path):
    pkg = tmp_path / "treecalc"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from treecalc import b\n")
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from treecalc.a import f\n")
    edges = import_graph(_modules(root=tmp_path))
    assert edges["treecalc.a"] == {"treecalc.b"} and not edges.get("treecalc.b")


@pytest.mark.parametrize("level", ["modules", "units"])
def test_treecalc_has_no_import_cycle(level):
    edges = import_graph(_modules())
    found = set(cycles(edges if level == "modules" else _units(edges)))
    assert found - KNOWN == set(), f"import cycles: {sorted(sorted(c) for c in found - KNOWN)}"


def test_each_known_cycle_is_still_there():
    # a cycle removed leaves the list: KNOWN only shrinks
    edges = import_graph(_modules())
    found = set(cycles(edges)) | set(cycles(_units(edges)))
    assert KNOWN <= found, f"no longer cycles, remove them from KNOWN: {sorted(sorted(c) for c in KNOWN - found)}"
