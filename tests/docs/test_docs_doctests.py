"""The library API page's examples (docs/reference/api.md renders these docstrings) run as written: each
module's doctests pass, and each module has some (a module whose examples were deleted fails, not passes)."""

import doctest
import importlib

import pytest

MODULES = ["treecalc.assessment", "treecalc.models.benefits", "treecalc.register"]


@pytest.mark.parametrize("name", MODULES)
def test_examples_in_the_docstrings_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no example"
    assert result.failed == 0
