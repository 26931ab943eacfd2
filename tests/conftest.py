"""Root of the test suite.

Shared builders live in the package :mod:`tests.helpers` (importable because pyproject.toml's
``[tool.pytest.ini_options] pythonpath`` puts the checkout on the path, for pytest as for ``python -m
pytest``); their ``assert`` statements are rewritten like the tests' own, so a failing check in a helper
shows its values. Worked law cases as data run from :mod:`tests.cases`.
"""

import pytest

pytest.register_assert_rewrite("tests.helpers")
