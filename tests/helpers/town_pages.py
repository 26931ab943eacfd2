"""A town's survey as the Engineer sends it to the app, and what the app's Permit page says of it: one way for
every test town (held as data or by its own rules) to be assessed through the app."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def site_survey(csv_text: str, town: str) -> bytes:
    """The survey's CSV rows as a workbook: a Trees sheet (DBH as numbers) and a Site sheet naming ``town``."""
    import pandas as pd

    rows = [line.split(",") for line in csv_text.strip().splitlines()]
    trees = pd.DataFrame(rows[1:], columns=rows[0])
    trees["DBH (in)"] = trees["DBH (in)"].astype(float)
    buf = io.BytesIO()
    with pd.ExcelWriter(buf, engine="openpyxl") as xw:
        trees.to_excel(xw, sheet_name="Trees", index=False)
        pd.DataFrame({"field": ["jurisdiction"], "value": [town]}).to_excel(
            xw, sheet_name="Site", index=False, header=False
        )
    return buf.getvalue()


def permit_page(name: str, workbook: bytes) -> tuple[str, dict[str, Any]]:
    """The app given ``workbook`` (uploaded as ``name``), on its Permit page: every text it shows joined, and its
    metrics by label. Fails on an exception or an error the page shows."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.file_uploader(key="w_upload").set_value((name, workbook, "application/octet-stream")).run()
    assert not at.exception, [e.value for e in at.exception]
    at.switch_page("treecalc/app/pages/permit.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    texts = [
        str(e.value)
        for kind in (at.markdown, at.caption, at.info, at.warning, at.success, at.subheader, at.header, at.title)
        for e in kind
        if isinstance(getattr(e, "value", None), str)
    ]
    metrics = {m.label: m.value for m in at.metric}
    return " ".join(texts + list(metrics)), metrics
