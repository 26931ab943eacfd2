"""UI helpers for the Streamlit app (``app.py`` and ``treecalc_app/``).

Nothing here computes a tree, a penalty or a volume: every number the app
shows comes from the :mod:`treecalc` library. These modules only load the
library pieces, cache their results per input, and draw them.
"""
