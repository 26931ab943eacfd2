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
