"""Root of the test suite.

Shared builders live in the package :mod:`tests.helpers` (importable because pyproject.toml's
``[tool.pytest.ini_options] pythonpath`` puts the checkout on the path, for pytest as for ``python -m
pytest``); their ``assert`` statements are rewritten like the tests' own, so a failing check in a helper
shows its values. Worked law cases as data run from :mod:`tests.cases`.
"""

import pytest

pytest.register_assert_rewrite("tests.helpers")

# The built species and zone tables are kept between runs in a cache folder (treecalc.units.table_cache): the
# tests keep theirs in a folder of their own, made for this run, so that neither the user's cache nor an
# earlier run's can stand in for a build the tests mean to make.
if "TREECALC_CACHE" not in __import__("os").environ:
    import atexit
    import os
    import shutil
    import tempfile

    os.environ["TREECALC_CACHE"] = tempfile.mkdtemp(prefix="treecalc-test-cache-")
    atexit.register(shutil.rmtree, os.environ["TREECALC_CACHE"], True)
