"""Loaded by the browser test's streamlit process (PYTHONPATH): coordinate columns reach the trees frame."""

try:
    import coords_reader

    coords_reader.install()
except Exception as e:  # noqa: BLE001 - a test aid: say why, never stop the interpreter
    import sys

    print(f"coords_reader not installed: {e}", file=sys.stderr)
