"""The presenters read what the registry and the findings say: none names a village in its code.

Every jurisdiction's name, fund, permit line and sections are in its record (:mod:`treecalc.law.registry`);
a presenter comparing the jurisdiction with "croton_on_hudson" or "wesley_hills" would leave a third village
out (its fine None, its sections Croton's). Docstrings and comments may name them; code may not.
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
    "treecalc/cli/assess.py",
    "treecalc/assessment.py",
    # the app: its pages and their helpers read the record of the law applied (a third village's too)
    "app.py",
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
