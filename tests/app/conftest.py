"""Fixtures shared by the app's browser tests."""

from tests.app.test_browser import server  # noqa: F401 - the `streamlit run app.py` fixture, for every test here
