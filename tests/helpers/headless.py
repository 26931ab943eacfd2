"""The app run headless (Streamlit ``AppTest``): a fresh app, the path of a page for ``switch_page``, and the
check that a run raised nothing."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
#: seconds a run may take: the first run of a page imports the library (pandas, the law data)
TIMEOUT = 120


def new_app(timeout: float = TIMEOUT) -> AppTest:
    """The app as ``streamlit run app.py`` starts it, not yet run."""
    return AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)


def page_path(name: str) -> str:
    """The path ``AppTest.switch_page`` takes for the page ``treecalc/app/pages/<name>.py``."""
    return f"treecalc/app/pages/{name}.py"


def no_exception(at: AppTest) -> None:
    """The last run raised nothing (the exceptions' texts in the failure)."""
    assert not at.exception, [e.value for e in at.exception]


def forget_app_caches() -> None:
    """Empty the app's ``st.cache_data`` and ``st.cache_resource``: they live as long as the process, so a test that
    reads another data folder (an amended copy) would otherwise get assessments and labels an earlier test in the
    same worker cached from the bundled law."""
    import streamlit as st

    st.cache_data.clear()
    st.cache_resource.clear()
