"""The shape of the package, measured from its source: modules at the root, import cycles, imports that climb
from a lower layer to a higher one, section literals in the code, and imports made inside functions.

Run ``python tools/architecture.py`` (``--json`` for the figures as JSON). ``tests/test_architecture.py`` holds
the package to the goals; ARCHITECTURE.md quotes the figures.

Every import counts: at the top of a module, inside a function, under ``if TYPE_CHECKING:`` (a type named for
mypy is still a dependency of the design) and through ``importlib.import_module("treecalc....")``.
"""

from __future__ import annotations

import argparse
import ast
import functools
import json
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "treecalc"

#: The layers, lowest first: a module may import its own layer and those below it. A name ending in "." is a
#: package prefix; the longest match wins.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "core",
        (
            "treecalc.money",
            "treecalc.quantities",
            "treecalc.files",
            "treecalc.schema",
            "treecalc.frames",
            "treecalc.messages",
        ),
    ),
    ("reference", ("treecalc.reference", "treecalc.reference.")),
    ("law", ("treecalc.law", "treecalc.law.")),
    ("ingest", ("treecalc.ingest", "treecalc.ingest.")),
    ("models", ("treecalc.models", "treecalc.models.", "treecalc.earthwork", "treecalc.earthwork.")),
    # the typed findings the rules return and the reports read, each naming the law's entries it applied
    ("findings", ("treecalc.results",)),
    ("rules", ("treecalc.rules", "treecalc.rules.")),
    ("assessment", ("treecalc.assessment",)),
    ("studies", ("treecalc.studies", "treecalc.studies.")),
    ("report", ("treecalc.report", "treecalc.report.")),
    ("register", ("treecalc.register", "treecalc.register.")),
    ("front", ("treecalc", "treecalc.__main__", "treecalc.cli", "treecalc.cli.")),
    ("app", ("treecalc.app", "treecalc.app.")),
)
RANK = {name: i for i, (name, _) in enumerate(LAYERS)}
#: The modules as they were named before the package root was emptied (2026-12), so that the script measures an
#: older checkout too (``git worktree add /tmp/old <commit>; python tools/architecture.py --root /tmp/old``).
FORMERLY = {
    "treecalc.benefits": "treecalc.models.benefits",
    "treecalc.benefit_tables": "treecalc.models.benefit_tables",
    "treecalc.benefit_notes": "treecalc.models.benefit_notes",
    "treecalc.valuation": "treecalc.models.valuation",
    "treecalc.planting": "treecalc.models.planting",
    "treecalc.projection": "treecalc.models.projection",
    "treecalc.climate_zones": "treecalc.ingest.zone",
    "treecalc.data": "treecalc.reference.data",
    "treecalc.species": "treecalc.reference.species",
    "treecalc.geo": "treecalc.reference.geo",
    "treecalc.batch": "treecalc.studies.batch",
    "treecalc.plan": "treecalc.studies.plan",
    "treecalc.plan_regimes": "treecalc.studies.plan_regimes",
    "treecalc.exports": "treecalc.report.exports",
    "treecalc.fingerprint": "treecalc.report.fingerprint",
    "treecalc.jurisdictions": "treecalc.law.registry",
    "treecalc.isolated": "treecalc.ingest.isolated",
    "treecalc.water_account": "treecalc.ingest.water_account",
    "treecalc.units.datafolder": "treecalc.reference.datafolder",
    "treecalc.units.table_cache": "treecalc.reference.table_cache",
    "treecalc.units.money": "treecalc.money",
    "treecalc.units.files": "treecalc.files",
    "treecalc.units.quantities": "treecalc.quantities",
    "treecalc.units.dates": "treecalc.quantities",
    "treecalc.units.ranges": "treecalc.quantities",
}
#: Why an import is made inside a function, not at the top of its module: its comment (on its line or the line
#: above) names one of these. start-up: a module a common command does not need is loaded only when it runs;
#: optional: a dependency of an extra; heavy: a costly third-party library (pyproj, scipy, SQLAlchemy ...);
#: cycle: the import at the top would close a cycle or climb a layer; late-bound: a name read when called (a
#: module's attribute a caller may set, the data folder).
LOCAL_REASONS = ("start-up", "optional", "heavy", "cycle", "late-bound")
_REASON = re.compile(r"#.*?\b(" + "|".join(map(re.escape, LOCAL_REASONS)) + r")\b", re.IGNORECASE)
#: A section of a chapter as the code would retype it: "§208-19A(2)", "§ 95-3", "§§208-17".
SECTION = re.compile(r"§+ ?\d{2,3}-\d+")


def layer_of(module: str) -> str | None:
    module = FORMERLY.get(module, module)
    best, found = -1, None
    for name, prefixes in LAYERS:
        for p in prefixes:
            if (module == p or (p.endswith(".") and module.startswith(p))) and len(p) > best:
                best, found = len(p), name
    return found


def modules(root: Path = ROOT) -> dict[str, Path]:
    out = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        if "migrations" in path.parts:  # Alembic's revisions: Alembic loads them, nothing imports them
            continue
        name = ".".join(path.relative_to(root).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


@dataclass
class Import:
    importer: str
    imported: str
    line: int
    in_function: bool
    how: str  # "import", "type" (under TYPE_CHECKING), "importlib" (a name written out) or "dynamic" (a name computed)
    reason: str | None = None  # inside a function: the reason its comment names (:data:`LOCAL_REASONS`)


def reason_at(lines: list[str], line: int) -> str | None:
    """The reason (one of :data:`LOCAL_REASONS`) a comment on ``line`` (1-based), or on a comment line just above
    it, names; None when there is none."""
    for i, whole in ((line, False), (line - 1, True)):
        if 1 <= i <= len(lines) and (not whole or lines[i - 1].lstrip().startswith("#")):
            m = _REASON.search(lines[i - 1])
            if m:
                return m.group(1).lower()
    return None


def _is_import_module(func: ast.expr) -> bool:
    return (isinstance(func, ast.Attribute) and func.attr == "import_module") or (
        isinstance(func, ast.Name) and func.id == "import_module"
    )


def _resolve(target: str, known: dict[str, Path]) -> str | None:
    while target and target not in known:
        target = target.rpartition(".")[0]
    return target or None


@functools.cache
def _parsed(path: Path) -> tuple[str, ast.Module]:
    text = path.read_text(encoding="utf-8")
    return text, ast.parse(text)


def imports_of(name: str, path: Path, known: dict[str, Path]) -> list[Import]:
    text, tree = _parsed(path)
    lines = text.splitlines()
    found: list[Import] = []
    is_pkg = path.name == "__init__.py"

    def targets(node: ast.AST) -> list[str]:
        if isinstance(node, ast.Import):
            return [a.name for a in node.names]
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base[: len(base) - node.level + (1 if is_pkg else 0)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            subs = [f"{mod}.{a.name}" for a in node.names if f"{mod}.{a.name}" in known]
            return subs if len(subs) == len(node.names) else [mod, *subs]
        if (
            isinstance(node, ast.Call)
            and _is_import_module(node.func)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            return [node.args[0].value]
        return []

    def visit(node: ast.AST, in_function: bool, typing_only: bool) -> None:
        if (
            isinstance(node, ast.Call)
            and _is_import_module(node.func)
            and node.args
            and not isinstance(node.args[0], ast.Constant)
        ):
            found.append(Import(name, "?", node.lineno, in_function, "dynamic", reason_at(lines, node.lineno)))
        for child in ast.iter_child_nodes(node):
            fn = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            tc = typing_only or (isinstance(child, ast.If) and "TYPE_CHECKING" in ast.dump(child.test))
            for t in targets(child):
                if not t.startswith(PACKAGE):
                    continue
                r = _resolve(t, known)
                # a module reading its own package's names is inside it (the facade treecalc/__init__ excepted)
                if r is None or r == name or (name.startswith(r + ".") and r != PACKAGE):
                    continue
                how = "importlib" if isinstance(child, ast.Call) else "type" if tc else "import"
                found.append(Import(name, r, child.lineno, fn, how, reason_at(lines, child.lineno) if fn else None))
            visit(child, fn, tc)

    visit(tree, False, False)
    if any(i.how == "dynamic" for i in found):  # a module importing by computed names: each module it names in a
        # string ("treecalc.assessment" in a table of lazy names) counts as imported, for the reason its call gives
        why = next((i.reason for i in found if i.how == "dynamic" and i.reason), None)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in known:
                if node.value != name and not name.startswith(node.value + "."):
                    found.append(Import(name, node.value, node.lineno, True, "importlib", why))
    return found


def graph(known: dict[str, Path]) -> list[Import]:
    """Every import of a treecalc module by another (imports by a computed name: :attr:`Shape.dynamic`)."""
    return [i for name, path in known.items() for i in imports_of(name, path, known) if i.how != "dynamic"]


def dynamic(known: dict[str, Path]) -> list[str]:
    """``module:line`` of each ``importlib.import_module`` of a computed name (the graph cannot follow it)."""
    return [f"{i.importer}:{i.line}" for n, p in known.items() for i in imports_of(n, p, known) if i.how == "dynamic"]


@dataclass
class LocalImport:
    """An import made inside a function (any package's: treecalc's, the standard library's, a third party's)."""

    module: str
    line: int
    text: str
    reason: str | None


def local_imports(known: dict[str, Path]) -> list[LocalImport]:
    """Every ``import`` statement and ``importlib.import_module(...)`` call inside a function, with the reason its
    comment names (:data:`LOCAL_REASONS`; None when it names none)."""
    out: list[LocalImport] = []
    for name, path in known.items():
        text, tree = _parsed(path)
        lines = text.splitlines()
        work: list[tuple[ast.AST, bool]] = [(tree, False)]
        while work:
            node, in_function = work.pop()
            for child in ast.iter_child_nodes(node):
                if in_function and (
                    isinstance(child, (ast.Import, ast.ImportFrom))
                    or (isinstance(child, ast.Call) and _is_import_module(child.func))
                ):
                    found = lines[child.lineno - 1].strip()
                    out.append(LocalImport(name, child.lineno, found, reason_at(lines, child.lineno)))
                fn = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                work.append((child, fn))
    return sorted(out, key=lambda i: (i.module, i.line))


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for root in sorted(set(edges) | {t for ts in edges.values() for t in ts}):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def _docstring_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                lines |= set(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return lines


def section_literals(known: dict[str, Path]) -> dict[str, int]:
    """Per module, the section numbers written in its code (strings and comments), docstrings left out."""
    out: dict[str, int] = {}
    for name, path in known.items():
        text, tree = _parsed(path)
        skip = _docstring_lines(tree)
        n = sum(len(SECTION.findall(line)) for i, line in enumerate(text.splitlines(), 1) if i not in skip)
        if n:
            out[name] = n
    return out


@dataclass
class Shape:
    root_modules: list[str]
    cycles: list[list[str]]
    upward: list[str]
    section_literals: dict[str, int]
    internal_imports: int
    function_local: list[str] = field(default_factory=list)
    function_local_reasoned: list[str] = field(default_factory=list)
    #: the imports inside functions (of any package) whose comment names no reason, ``module:line: text``
    unexplained: list[str] = field(default_factory=list)
    unplaced: list[str] = field(default_factory=list)
    dynamic: list[str] = field(default_factory=list)

    def figures(self) -> dict[str, int]:
        return {
            "modules at the package root": len(self.root_modules),
            "import cycles": len(self.cycles),
            "imports from a lower layer to a higher one": len(self.upward),
            "section literals outside docstrings": sum(self.section_literals.values()),
            "internal imports": self.internal_imports,
            "internal imports inside functions": len(self.function_local),
            "internal imports inside functions, with a reason": len(self.function_local_reasoned),
            "imports inside functions (any package) without a reason": len(self.unexplained),
        }


@functools.cache
def shape(root: Path = ROOT) -> Shape:
    known = modules(root)
    found = graph(known)
    edges: dict[str, set[str]] = defaultdict(set)
    for i in found:
        edges[i.importer].add(i.imported)
    upward = sorted(
        {
            f"{i.importer} -> {i.imported} ({layer_of(i.importer)} < {layer_of(i.imported)})"
            for i in found
            if layer_of(i.importer) is not None
            and layer_of(i.imported) is not None
            and RANK[layer_of(i.importer)] < RANK[layer_of(i.imported)]  # type: ignore[index]
        }
    )
    root_modules = sorted(p.name for p in (root / PACKAGE).glob("*.py"))
    return Shape(
        root_modules,
        cycles(edges),
        upward,
        section_literals(known),
        len(found),
        sorted(f"{i.importer}:{i.line} -> {i.imported}" for i in found if i.in_function),
        sorted(f"{i.importer}:{i.line} -> {i.imported} ({i.reason})" for i in found if i.in_function and i.reason),
        [f"{i.module}:{i.line}: {i.text}" for i in local_imports(known) if i.reason is None],
        sorted(m for m in known if layer_of(m) is None),
        dynamic(known),
    )


def survey_walk(root: Path = ROOT) -> dict[str, int]:
    """Following a survey through :func:`treecalc.assess` (the bundled sample by default): how many calls go from a
    lower layer up to a higher one (a callback given down, or an import made late), how often the survey is read
    and how often its climate zone is found."""
    sys.path.insert(0, str(root))  # the checkout measured, not the one installed
    import treecalc

    climbs: set[tuple[str, str]] = set()
    climb_calls = 0
    counts = {"read_survey": 0, "survey_zone": 0}

    def profile(frame, event, arg):  # type: ignore[no-untyped-def]
        nonlocal climb_calls
        if event != "call" or frame.f_back is None:
            return
        callee, caller = frame.f_globals.get("__name__", ""), frame.f_back.f_globals.get("__name__", "")
        callee, caller = FORMERLY.get(callee, callee), FORMERLY.get(caller, caller)
        if frame.f_code.co_name in counts and callee in ("treecalc.ingest.survey", "treecalc.ingest.zone"):
            counts[frame.f_code.co_name] += 1
        lc, le = layer_of(caller), layer_of(callee)
        if lc and le and RANK[lc] < RANK[le]:
            climb_calls += 1
            climbs.add((caller, callee))

    sys.setprofile(profile)
    try:
        treecalc.assess(str(root / "data" / "examples" / "sample_survey.xlsx"))
    finally:
        sys.setprofile(None)
    if "--list" in sys.argv:
        for c in sorted(climbs):
            print("climb:", " -> ".join(c))
    return {
        "calls climbing a layer": climb_calls,
        "distinct climbs (caller module -> callee module)": len(climbs),
        "survey reads": counts["read_survey"],
        "zone findings": counts["survey_zone"],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="the figures as JSON")
    ap.add_argument("--list", action="store_true", help="list the cycles, upward imports and literals per module")
    ap.add_argument("--walk", action="store_true", help="follow the sample through assess (calls up a layer, reads)")
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure (default: this one)")
    a = ap.parse_args(argv)
    s = shape(a.root.resolve())
    if a.json:
        print(json.dumps(s.figures(), indent=2))
        return 0
    for k, v in s.figures().items():
        print(f"{v:6d}  {k}")
    if a.walk:
        for k, v in survey_walk(a.root.resolve()).items():
            print(f"{v:6d}  {k} (the sample through assess)")
    if a.list:
        print("\nroot modules:", ", ".join(s.root_modules))
        for c in s.cycles:
            print("cycle:", " <-> ".join(c))
        for u in s.upward:
            print("upward:", u)
        for m in s.unplaced:
            print("no layer:", m)
        for d in s.dynamic:
            print("import by a computed name:", d)
        for u in s.unexplained:
            print("import inside a function, no reason given:", u)
        for m, n in sorted(s.section_literals.items(), key=lambda kv: -kv[1]):
            print(f"literals: {n:4d} {m}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
