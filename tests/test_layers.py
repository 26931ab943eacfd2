"""The layers of treecalc call only downwards, and its modules import one another without a cycle.

    base        units, schema, data, species, geo, results, files, the law's data loader (law), ingest,
                water_account
    science     benefits, models, batch, planting, climate_zones, earthwork (pure method, no law)
    law         rules (the villages' sections, Ch. 223 water and the excavation chapters' router among them), fund
    assessment  assessment, plan, projection                              (values the trees, applies the law)
    report      report, statement, fingerprint, exports, register         (fields of the assessment only)
    front       the package facade (treecalc), cli
    app         treecalc.app (the Streamlit app, its pages and helpers): the top, nothing imports it

A module may import its own layer and any layer below it (an import under ``if TYPE_CHECKING:`` is a
type, not a call, and does not count; an import inside a function does). Like the function-length check
(test_code_shape.py), the violations there are now are listed in PENDING: the test fails on any other,
and on one listed that is gone (remove it from the list). Import cycles count every import, a function's too (an import put inside a
function postpones a cycle, it does not remove it): those there are now are listed in PENDING_CYCLES the
same way; at import time (module-level imports) there must be none.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("treecalc",)
LAYERS = ("base", "science", "law", "assessment", "report", "front", "app")

#: module name or package prefix (ending in ".") -> layer; the longest match wins.
LAYER_OF = {
    "treecalc.units": "base",
    "treecalc.units.": "base",
    "treecalc.messages": "base",
    "treecalc.schema": "base",
    "treecalc.data": "base",
    "treecalc.species": "base",
    "treecalc.geo": "base",
    "treecalc.results": "base",
    "treecalc.jurisdictions": "base",
    "treecalc.frames": "base",
    "treecalc.money": "base",
    "treecalc.law": "base",
    "treecalc.isolated": "base",
    "treecalc.files": "base",
    "treecalc.water_account": "base",
    "treecalc.law.": "base",
    "treecalc.ingest": "base",
    "treecalc.ingest.": "base",
    "treecalc.benefits": "science",
    "treecalc.benefit_tables": "science",
    "treecalc.benefit_notes": "science",
    "treecalc.models.": "science",
    "treecalc.batch": "science",
    "treecalc.planting": "science",
    "treecalc.climate_zones": "science",
    "treecalc.valuation": "science",
    "treecalc.earthwork": "science",
    "treecalc.earthwork.": "science",
    "treecalc.rules": "law",
    "treecalc.rules.": "law",
    "treecalc.fund": "law",
    "treecalc.assessment": "assessment",
    "treecalc.plan": "assessment",
    "treecalc.plan_regimes": "assessment",
    "treecalc.projection": "assessment",
    "treecalc.report": "report",
    "treecalc.report.": "report",
    "treecalc.fingerprint": "report",
    "treecalc.exports": "report",
    "treecalc.register": "report",
    "treecalc.register.": "report",
    "treecalc": "front",
    "treecalc.__main__": "front",  # python -m treecalc: the command line
    "treecalc.cli": "front",
    "treecalc.cli.": "front",
    "treecalc.app": "app",
    "treecalc.app.": "app",
}

#: Upward imports there are now ("importer -> imported (layers)"); do not add to this list, fix the import.
PENDING: set[str] = {
    # Assessment.to_json() builds the report's JSON: the JSON writer belongs to the caller
    "treecalc.assessment -> treecalc.report.json (assessment < report)",
    # the fingerprint reads treecalc.__version__ from the package facade
    "treecalc.fingerprint -> treecalc (report < front)",
}
#: Import cycles there are now, each as its sorted modules joined by " <-> " (all through imports inside
#: functions; the restructuring of earthwork, the report and the app is where they go).
PENDING_CYCLES: set[str] = {
    "treecalc.benefits <-> treecalc.climate_zones",
}


def modules(root: Path = ROOT) -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.parts:  # Alembic's revisions, loaded by Alembic
                continue
            name = ".".join(path.relative_to(root).with_suffix("").parts)
            out[name.removesuffix(".__init__")] = path
    return out


def _type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
    )


def imports(name: str, path: Path, known: dict[str, Path], top_level_only: bool = False) -> set[str]:
    """The modules of ``known`` that ``name`` imports (not under TYPE_CHECKING; with ``top_level_only``,
    not inside a function either)."""
    found: set[str] = set()
    is_pkg = path.name == "__init__.py"

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                for sub in child.orelse:
                    visit_one(sub)
                continue
            if top_level_only and isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            visit_one(child)

    def visit_one(child: ast.AST) -> None:
        if isinstance(child, ast.Import):
            found.update(a.name for a in child.names)
        elif isinstance(child, ast.ImportFrom):
            base = child.module or ""
            if child.level:
                parts = name.split(".") if is_pkg else name.split(".")[:-1]
                parts = parts[: len(parts) - (child.level - 1)]
                base = ".".join([*parts, *([child.module] if child.module else [])])
            for a in child.names:
                sub = f"{base}.{a.name}"
                found.add(sub if sub in known else base)
        visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    out = set()
    for dep in found:
        while dep and dep not in known:
            dep = dep.rpartition(".")[0]
        if dep and dep != name:
            out.add(dep)
    return out


def layer(name: str) -> str | None:
    keys = [k for k in LAYER_OF if name == k or (k.endswith(".") and name.startswith(k))]
    return LAYER_OF[max(keys, key=len)] if keys else None


def upward_imports(root: Path = ROOT) -> list[str]:
    """``importer -> imported (layer < layer)`` of every import into a higher layer, and
    ``module: no layer`` of a module LAYER_OF does not place."""
    known = modules(root)
    out = [f"{m}: no layer" for m in known if layer(m) is None]
    for m, path in known.items():
        lm = layer(m)
        for dep in imports(m, path, known):
            ld = layer(dep)
            if lm and ld and LAYERS.index(ld) > LAYERS.index(lm):
                out.append(f"{m} -> {dep} ({lm} < {ld})")
    return sorted(out)


def cycles(root: Path = ROOT, top_level_only: bool = False) -> list[str]:
    """The strongly connected components (more than one module) of the module-level import graph."""
    known = modules(root)
    graph = {m: imports(m, p, known, top_level_only=top_level_only) for m, p in known.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[str] = []

    def strong(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(" <-> ".join(sorted(comp)))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return sorted(out)


def test_layers_only_call_downwards():
    found = set(upward_imports())
    assert sorted(found - PENDING) == []
    assert sorted(PENDING - found) == [], "fixed now: remove it from PENDING"


def test_no_import_cycle():
    found = set(cycles())
    assert sorted(found - PENDING_CYCLES) == []
    assert sorted(PENDING_CYCLES - found) == [], "fixed now: remove it from PENDING_CYCLES"


def test_no_import_cycle_at_import_time():
    assert cycles(top_level_only=True) == []


def test_the_checks_see_an_upward_import_and_a_cycle(tmp_path):
    """A science module calling the law, an unplaced module and a two-module cycle are found: the checks can fail."""
    for package in PACKAGES:
        (tmp_path / package).mkdir()
    (tmp_path / "treecalc" / "__init__.py").write_text("")
    (tmp_path / "treecalc" / "benefits.py").write_text("def f():\n    from treecalc import fund\n")
    (tmp_path / "treecalc" / "fund.py").write_text("from treecalc.rules import water\n")
    (tmp_path / "treecalc" / "rules").mkdir()
    (tmp_path / "treecalc" / "rules" / "water.py").write_text(
        "from typing import TYPE_CHECKING\nimport treecalc.fund\nif TYPE_CHECKING:\n    from treecalc import assessment\n"
    )
    (tmp_path / "treecalc" / "assessment.py").write_text("def g():\n    import treecalc.projection\n")
    (tmp_path / "treecalc" / "projection.py").write_text("from treecalc import assessment\n")
    (tmp_path / "treecalc" / "newthing.py").write_text("")
    assert upward_imports(tmp_path) == [
        "treecalc.benefits -> treecalc.fund (science < law)",
        "treecalc.newthing: no layer",
    ]
    # fund and water at import time; assessment and projection through a function's import
    assert cycles(tmp_path) == ["treecalc.assessment <-> treecalc.projection", "treecalc.fund <-> treecalc.rules.water"]
    assert cycles(tmp_path, top_level_only=True) == ["treecalc.fund <-> treecalc.rules.water"]
