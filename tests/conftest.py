"""Root of the test suite.

Shared builders live in the package :mod:`tests.helpers` (importable because pyproject.toml's
``[tool.pytest.ini_options] pythonpath`` puts the checkout on the path, for pytest as for ``python -m
pytest``); their ``assert`` statements are rewritten like the tests' own, so a failing check in a helper
shows its values. Worked law cases as data run from :mod:`tests.cases`.
"""

import atexit
import os
import shutil
import tempfile

import pytest

pytest.register_assert_rewrite("tests.helpers")


def _own_folder(variable: str, prefix: str, *, unless_set: bool = True) -> None:
    """``variable`` set to a folder made for this run (removed at its end), unless the caller set it."""
    if not (unless_set and variable in os.environ):
        os.environ[variable] = tempfile.mkdtemp(prefix=prefix)
        atexit.register(shutil.rmtree, os.environ[variable], True)


# The built species and zone tables are kept between runs in a cache folder (treecalc.reference.table_cache): the
# tests keep theirs in a folder of their own, so that neither the user's cache nor an earlier run's can stand in
# for a build the tests mean to make.
_own_folder("TREECALC_CACHE", "treecalc-test-cache-")
# The register's default home is the user's data folder (treecalc.register.db: platformdirs, XDG_DATA_HOME on
# Linux): a test that opens the app or a command without a register of its own must neither write into the
# user's nor read one that a newer treecalc migrated.
_own_folder("XDG_DATA_HOME", "treecalc-test-data-", unless_set=False)
# The register signs its chain's head with a key and into anchor files outside the database
# (treecalc.register.anchor), by default in the user's config and state folders: the tests' are their own (set
# before any test runs, so that an app server a test starts inherits them).
_own_folder("TREECALC_ANCHORS", "treecalc-test-anchors-")
_own_folder("TREECALC_TEST_KEY_DIR", "treecalc-test-key-")
os.environ.setdefault("TREECALC_ANCHOR_KEY", os.path.join(os.environ["TREECALC_TEST_KEY_DIR"], "anchor.key"))


def _scan_installed_components_once() -> None:
    """Streamlit scans the metadata of every installed distribution for components each time a script runner
    starts: a third of a second per ``AppTest`` (a server does it once). The installed packages do not change
    during a test run, so the answer is kept after its first scan."""
    import functools

    try:
        from streamlit.components.v2 import manifest_scanner
    except ImportError:  # a streamlit without components v2 scans nothing
        return
    manifest_scanner.scan_component_manifests = functools.cache(manifest_scanner.scan_component_manifests)


_scan_installed_components_once()


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory: pytest.TempPathFactory):
    """``(wheel, build log)`` of the checkout (``tests.test_packaging.build_wheel``), built once per test process:
    the packaging tests read it and install copies of it, none changes it, and each build took ~10 s."""
    from tests.test_packaging import build_wheel

    return build_wheel(tmp_path_factory.mktemp("wheel"))


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Stop the browser tests' shared Chromium before a test that does not use it (the ``chromium`` fixture,
    tests/app/conftest.py): while it runs, Playwright keeps an asyncio loop running in this thread, under which
    ``asyncio.run`` fails. Browser tests run one after another (their files sit side by side), so it is
    launched about once per worker."""
    if "chromium" not in getattr(item, "fixturenames", ()):
        from tests.helpers.browser_nav import stop_chromium

        stop_chromium()


def pytest_sessionfinish(session: pytest.Session) -> None:
    from tests.helpers.browser_nav import stop_chromium

    stop_chromium()
