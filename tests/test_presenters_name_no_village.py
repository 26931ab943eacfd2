"""The presenters read what the registry and the findings say: none names a village in its code.

Every jurisdiction's name, fund, permit line and sections are in its record (:mod:`treecalc.law.registry`);
a presenter comparing the jurisdiction with "croton_on_hudson" or "wesley_hills" would leave a third village
out (its fine None, its sections Croton's). Docstrings and comments may name them; code may not. The register
keeps the law files of an assessment by asking the registry too.

The presenters (the command line, the app) hold no domain logic either: they ask the registry through its
functions (which law has a water chapter, reads a site fact, is the default), never by walking its dict
(``REGISTRY``). (The everyday equivalents of the benefits are :mod:`treecalc.models.equivalents`' figures and
an offence row says definite or conditional under :func:`treecalc.results.offence_status`' keys: their tests
are tests/models/test_equivalents.py and the app's offence table's.)
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRESENTERS = [
    "treecalc/report/json.py",
    "treecalc/report/json_text.py",
    "treecalc/report/content.py",
    "treecalc/report/pdf.py",
    "treecalc/report/statement.py",
    "treecalc/report/cells.py",
    "treecalc/report/xlsx.py",
    "treecalc/assessment.py",
    # the register's record of the law files an assessment read: every village the registry holds
    "treecalc/register/core.py",
    "treecalc/register/lawfiles.py",
    "app.py",
    # the command line and the app (its pages and their helpers) read the record of the law applied (a third
    # village's too)
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "treecalc" / "cli").rglob("*.py")),
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "treecalc" / "app").rglob("*.py")),
]
#: The presenters proper: what they show is the library's, asked through its functions
FRONTS = [
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "treecalc" / "cli").rglob("*.py")),
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "treecalc" / "app").rglob("*.py")),
]
VILLAGES = ("croton", "wesley")


def village_literals(source: str) -> list[str]:
    """The string literals of code (not docstrings) that name a village."""
    tree = ast.parse(source)
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if any(v in node.value.lower() for v in VILLAGES):
                out.append(node.value)
    return out


def test_the_check_finds_a_village_in_code_and_not_in_a_docstring():
    src = '"""Croton-on-Hudson."""\ndef f(a):\n    """Wesley Hills."""\n    return a == "croton_on_hudson"\n'
    assert village_literals(src) == ["croton_on_hudson"]
    assert village_literals("x = 1  # wesley\n") == []


@pytest.mark.parametrize("path", PRESENTERS)
def test_no_presenter_names_a_village(path):
    assert village_literals((ROOT / path).read_text(encoding="utf-8")) == []


def registry_walks(source: str) -> list[int]:
    """The lines of code naming the registry's dict (``REGISTRY``, imported, read or walked)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.alias) and node.name.split(".")[-1] == "REGISTRY":
            out.append(getattr(node, "lineno", 0))
        elif (isinstance(node, ast.Name) and node.id == "REGISTRY") or (
            isinstance(node, ast.Attribute) and node.attr == "REGISTRY"
        ):
            out.append(node.lineno)
    return out


def test_the_check_finds_a_registry_walk():
    walk = "from treecalc.law.registry import REGISTRY\nx = [r for r in jurisdictions.REGISTRY.values()]\n"
    assert registry_walks(walk) == [1, 2]
    assert registry_walks("from treecalc.law.registry import records\nx = records()\n") == []


def test_the_fronts_are_found():
    assert any(p.startswith("treecalc/cli/") for p in FRONTS) and any(p.startswith("treecalc/app/") for p in FRONTS)


@pytest.mark.parametrize("path", FRONTS)
def test_no_presenter_walks_the_registry(path):
    """Which law has a water or excavation chapter, a fund, reads a site fact, or applies when none is named is
    the registry's answer (:func:`treecalc.law.registry.with_chapter`, ``with_section``,
    ``reader_of_site_fact``, ``get_or_default``), asked once there, not worked out again by each page."""
    assert registry_walks((ROOT / path).read_text(encoding="utf-8")) == []
