"""The house: at most ten modules at the package root, no import cycle, no import from a lower layer to a higher
one, every module in a layer. The graph is :mod:`tools.architecture`'s (every import counts: a function's, one
under ``if TYPE_CHECKING:``, one through ``importlib`` by a written name, and the modules a lazy table names).
No allow-list: a new cycle or upward import fails here, wherever it is."""

from __future__ import annotations

from pathlib import Path

from tools import architecture

#: The modules that import by a computed name, and why the graph may trust them: the facade and the report's
#: package resolve their lazy names from a table of module names (counted as imports); the rules import the
#: village package the registry names (a rules package: the same layer).
DYNAMIC = {
    "treecalc": "the facade's lazy names (treecalc.assess ...), each module named in its table",
    "treecalc.report": "the report's lazy names, each module named in its table",
    "treecalc.ingest": "the survey reader's lazy names, each module named in its table",
    "treecalc.rules": "the village's rules package the registry names",
    "treecalc.rules.excavation": "the village's excavation rules, in its rules package",
}


def test_at_most_ten_modules_at_the_root():
    shape = architecture.shape()
    assert shape.root_modules, "no module found at the root: the check reads nothing"
    assert len(shape.root_modules) <= 10, shape.root_modules


def test_no_import_cycle():
    shape = architecture.shape()
    assert shape.internal_imports > 500, "the graph read too few imports to mean anything"
    assert shape.cycles == []


def test_no_import_climbs_a_layer_and_every_module_has_one():
    shape = architecture.shape()
    assert shape.upward == []
    assert shape.unplaced == []


def test_imports_by_a_computed_name_are_the_known_dispatchers():
    found = {d.rpartition(":")[0] for d in architecture.shape().dynamic}
    assert found, "no dynamic import found: the facade's lazy names are one"
    assert found <= set(DYNAMIC), found - set(DYNAMIC)


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def test_the_checks_see_each_kind_of_import(tmp_path):
    """An upward import under TYPE_CHECKING, one through importlib by name, a cycle through a function's import and
    a module in no layer are each found: the checks can fail."""
    _write(
        tmp_path,
        {
            "treecalc/__init__.py": "",
            "treecalc/money.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from treecalc.rules import x\n",
            "treecalc/rules/__init__.py": "",
            "treecalc/rules/x.py": "def f():\n    from treecalc.rules import y\n",
            "treecalc/rules/y.py": "from treecalc.rules import x\n",
            "treecalc/models/m.py": "import importlib\ndef g():\n    importlib.import_module('treecalc.assessment')\n",
            "treecalc/assessment.py": "",
            "treecalc/newroom/thing.py": "",
        },
    )
    shape = architecture.shape(tmp_path)
    assert shape.upward == [
        "treecalc.models.m -> treecalc.assessment (models < assessment)",
        "treecalc.money -> treecalc.rules.x (core < rules)",
    ]
    assert shape.cycles == [["treecalc.rules.x", "treecalc.rules.y"]]
    assert shape.unplaced == ["treecalc.newroom.thing"]
    assert shape.root_modules == ["__init__.py", "assessment.py", "money.py"]


def test_section_literals_are_counted_outside_docstrings(tmp_path):
    _write(
        tmp_path,
        {
            "treecalc/__init__.py": "",
            "treecalc/rules/__init__.py": '"""§208-19 in a docstring is not counted."""\nX = "§208-19A(2)"  # §208-17\n',
        },
    )
    assert architecture.shape(tmp_path).section_literals == {"treecalc.rules": 2}


#: The packages whose every section comes from the law file (an entry's section or a provision's record): each is
#: held at no section literal outside docstrings, so none grows back.
NO_SECTION_LITERALS = ("treecalc.law", "treecalc.rules.croton_on_hudson", "treecalc.rules.wesley_hills")
#: Modules of those packages not held (none: Chapter 120's rules cite their entries and records too).
COMPANIONS: tuple[str, ...] = ()
#: The companions' presenters and readers, and the excavation check's entry point and finding: each sentence cites
#: the entry or record it applies (Ch. 223's account reader; Ch. 120 and Ch. 95 through the excavation check).
HELD_MODULES = (
    "treecalc.cli.water",
    "treecalc.app.pages.water",
    "treecalc.ingest.water_account",
    "treecalc.cli.excavation",
    "treecalc.app.pages.excavation",
    "treecalc.rules.excavation",
    "treecalc.rules.excavation_check",
)


#: The literals left in them, each with why: none. The registry's records name the entries whose sections they cite
#: (the statement's part headings, the options' labels, the value basis's section), said through the sections the
#: assessment recorded (:func:`treecalc.law.registry.said`), so it is held at 0 with the rest.
LEFT: dict[str, int] = {}


def _held(name: str) -> bool:
    return name in HELD_MODULES or (name.startswith(NO_SECTION_LITERALS) and name.rpartition(".")[2] not in COMPANIONS)


def test_the_law_and_the_tree_rules_write_no_section_number():
    held = [m for m in architecture.modules() if _held(m)]
    # the law's loader, registry, both villages' rules: what the check holds must be there to hold
    assert {
        "treecalc.law.registry",
        "treecalc.rules.croton_on_hudson.readings",
        "treecalc.rules.wesley_hills",
        "treecalc.rules.croton_on_hudson.ch223_water",
        "treecalc.rules.croton_on_hudson.excavation",
        "treecalc.rules.wesley_hills.excavation",
        *HELD_MODULES,
    } <= set(held), held
    # the count reads the modules it holds: their docstrings cite sections, which it leaves out (every section of
    # their code is read from the law files, so the count may find none at all)
    known = architecture.modules()
    assert sum(len(architecture.SECTION.findall(known[m].read_text(encoding="utf-8"))) for m in held) > 100
    counts = architecture.shape().section_literals
    written = {m: n for m, n in counts.items() if _held(m) and n > LEFT.get(m, 0)}
    assert written == {}, f"section numbers written in the code, not read from the law file: {written}"


def test_every_import_inside_a_function_says_why():
    """An import inside a function (treecalc's, the standard library's, a third party's) is there for start-up, an
    optional or heavy dependency, a cycle it would close at the top, or a name read when called, and its comment
    (on its line or the line above) names which (:data:`tools.architecture.LOCAL_REASONS`); any other import
    belongs at the top of its module."""
    found = architecture.local_imports(architecture.modules())
    # the CLI's subcommands and the optional extras are imported late: the check must read them to hold anything
    assert len({i.module for i in found}) > 20 and len(found) > 100, len(found)
    assert any(i.reason == "optional" for i in found) and any(i.reason == "start-up" for i in found)
    unexplained = [f"{i.module}:{i.line}: {i.text}" for i in found if i.reason is None]
    assert unexplained == [], "imports inside functions without a reason (start-up, optional, heavy, ...):\n" + (
        "\n".join(unexplained)
    )
    shape = architecture.shape()
    assert shape.function_local and len(shape.function_local_reasoned) == len(shape.function_local)


def test_a_local_import_without_a_reason_is_found(tmp_path):
    """The check can fail: a comment that names no reason is no reason; one on the line above counts."""
    _write(
        tmp_path,
        {
            "treecalc/__init__.py": "",
            "treecalc/money.py": (
                "def f():\n    import json  # the JSON\n"
                "def g():\n    # heavy: scipy costs 0.4 s\n    import scipy\n"
                "def h():\n    import importlib\n    return importlib.import_module('treecalc.money')  # start-up: x\n"
            ),
        },
    )
    found = architecture.local_imports(architecture.modules(tmp_path))
    assert [(i.line, i.reason) for i in found] == [(2, None), (5, "heavy"), (7, None), (8, "start-up")]
