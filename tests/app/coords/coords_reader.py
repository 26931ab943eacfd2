"""Test stand-in until the survey reader (issue 13) reads coordinate columns itself.

:func:`install` wraps ``treecalc.ingest.read_survey`` so that a CSV survey's ``Latitude``/``Longitude``
(or ``X``/``Y``) columns reach the trees frame as ``latitude``/``longitude`` (``x``/``y``), matched
by ``source_row`` (header on row 1). When the reader already gives them, the wrapper changes nothing.
"""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pandas as pd

COLUMNS = {"latitude": "latitude", "longitude": "longitude", "x": "x", "y": "y"}


def _raw(path_or_buffer) -> bytes:
    if isinstance(path_or_buffer, (str, Path)):
        return Path(path_or_buffer).read_bytes()
    pos = path_or_buffer.tell()
    data = path_or_buffer.read()
    path_or_buffer.seek(pos)
    return data


def install() -> None:
    import treecalc.ingest as ingest

    if getattr(ingest.read_survey, "_coords", False):
        return
    original = ingest.read_survey

    def read_survey(path_or_buffer, **kw):
        data = _raw(path_or_buffer)
        src = io.BytesIO(data) if not isinstance(path_or_buffer, (str, Path)) else path_or_buffer
        try:
            sv = original(src, **kw)
        except ValueError as e:  # a reader that does not know the site fact crs yet
            site = dict(kw.get("site") or {})
            crs = site.pop("crs", None)
            if crs is None or "crs" not in str(e):
                raise
            sv = original(io.BytesIO(data) if isinstance(src, io.BytesIO) else src, **{**kw, "site": site})
            sv = dataclasses.replace(sv, site={**sv.site, "crs": crs})
        name = str(kw.get("filename") or path_or_buffer)
        if not name.lower().endswith(".csv") or "latitude" in sv.trees or "x" in sv.trees:
            return sv
        raw = pd.read_csv(io.BytesIO(data))
        raw.columns = [str(c).strip().lower() for c in raw.columns]
        have = {c: COLUMNS[c] for c in raw.columns if c in COLUMNS}
        if not have:
            return sv
        raw.index = raw.index + 2  # source_row: header on row 1
        trees = sv.trees.copy()
        for c, field in have.items():
            trees[field] = pd.to_numeric(raw[c], errors="coerce").reindex(trees["source_row"].astype(int)).to_numpy()
        return dataclasses.replace(sv, trees=trees)

    read_survey._coords = True  # type: ignore[attr-defined]
    ingest.read_survey = read_survey
