"""The tests cannot pass by not running: a declared dependency that fails to import is an error, never a skip."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def skipped_imports(root: Path = TESTS) -> list[str]:
    """``path:line`` of each ``pytest.importorskip`` and each ``except ImportError`` whose body skips."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "importorskip":
                found.append(f"{path.relative_to(root)}:{node.lineno}")
            if isinstance(node, ast.ExceptHandler) and node.type is not None:
                caught = ast.unparse(node.type)
                if ("ImportError" in caught or "ModuleNotFoundError" in caught) and "skip" in ast.unparse(node):
                    found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_no_import_error_becomes_a_skip():
    assert len(list(TESTS.rglob("test_*.py"))) > 100, "the scan found too few test files to mean anything"
    assert skipped_imports() == []


def test_the_scan_sees_both_kinds(tmp_path):
    (tmp_path / "test_a.py").write_text('import pytest\nx = pytest.importorskip("pypdf")\n')
    (tmp_path / "test_b.py").write_text(
        "import pytest\ntry:\n    import odf\nexcept ImportError:\n    pytest.skip('no odf')\n"
    )
    assert skipped_imports(tmp_path) == ["test_a.py:2", "test_b.py:4"]


def loops_over_nothing(root: Path = TESTS) -> list[str]:
    """``path:line`` of each loop whose asserts are all the test's: a test that asserts only inside a loop over a
    collection it computed passes on an empty one. A loop over a literal (a list written out, ``range(5)``) is
    not empty."""
    found = []
    for path in sorted(root.rglob("test_*.py")):
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(fn, ast.FunctionDef) or not fn.name.startswith("test"):
                continue
            asserts = [a for a in ast.walk(fn) if isinstance(a, ast.Assert)]
            for loop in (n for n in ast.walk(fn) if isinstance(n, ast.For)):
                inside = {id(a) for a in ast.walk(loop) if isinstance(a, ast.Assert)}
                literal = (isinstance(loop.iter, (ast.Tuple, ast.List)) and loop.iter.elts) or (
                    isinstance(loop.iter, ast.Call)
                    and ast.unparse(loop.iter.func) == "range"
                    and all(isinstance(x, ast.Constant) for x in loop.iter.args)
                )
                if inside and not literal and all(id(a) in inside for a in asserts):
                    found.append(f"{path.relative_to(root)}:{loop.lineno}")
    return found


def test_no_test_asserts_only_inside_a_loop_over_what_it_computed():
    assert loops_over_nothing() == []


def test_the_loop_scan_sees_a_loop_over_nothing(tmp_path):
    (tmp_path / "test_c.py").write_text(
        "def test_x():\n    for r in rows():\n        assert r\n"
        "def test_y():\n    assert rows()\n    for r in rows():\n        assert r\n"
        "def test_z():\n    for r in [1, 2]:\n        assert r\n"
    )
    assert loops_over_nothing(tmp_path) == ["test_c.py:2"]
