"""The Streamlit app: ``app.py`` runs :func:`treecalc.app.main.main`; the pages are the scripts in ``pages/``.

Nothing here computes a tree, a penalty or a volume: every number the app
shows comes from the :mod:`treecalc` library. These modules only load the
library pieces, cache their results per input, and draw them.
Installed with ``pip install 'treecalc[app]'`` (Streamlit and the chart libraries).
"""

from __future__ import annotations

from pathlib import Path

#: the page scripts (``st.Page`` takes files: each page is a script Streamlit runs again on every interaction)
PAGES_DIR = Path(__file__).resolve().parent / "pages"


def page_path(name: str) -> Path:
    """The file of the page ``name`` (``"permit"``), absolute: the pages are found wherever the package is
    installed, whatever the folder of the ``app.py`` that Streamlit runs."""
    return PAGES_DIR / f"{name}.py"
