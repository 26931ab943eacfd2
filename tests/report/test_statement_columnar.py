"""The Excel statement's big tables written a column at a time: the Penalties sheet's offences (thousands of rows at
50,000 trees) as well as the Trees sheet, with no dict per offence on the way, and the same cells as the per-cell
writer that writes each record's row with XlsxWriter's own calls (values, number formats, quote prefixes, widths).

The survey is a user's, not the bundled sample: 3,000 trees of a Croton lot clearing with hostile text in the tags,
species and notes (leading = + - @, tab, control characters, CJK, a long note).
"""

from __future__ import annotations

import io
from pathlib import Path

import openpyxl
import pytest

from tests.report.test_statement import _assert_same, _both, _cells
from treecalc.report import statement, xlsx
from treecalc.results import Records

HOSTILE = ['=HYPERLINK("http://x")', "+1+2", "-3-4", "@SUM(A1)", "\tindent", "a\x01b\x1fc", "銀杏の木", "-229.52"]
SPECIES = ["Acer rubrum", "Quercus rubra", "Pinus strobus", "Acer saccharum", "Fagus grandifolia", "Tilia americana"]


def _survey(path: Path, n: int = 3000) -> Path:
    import xlsxwriter

    wb = xlsxwriter.Workbook(str(path), {"strings_to_formulas": False})
    ws = wb.add_worksheet("Trees")
    for j, h in enumerate(["Tag", "Species", "DBH (in)", "Action", "Condition", "Notes"]):
        ws.write_string(0, j, h)
    for i in range(n):
        r = i + 1
        ws.write_string(r, 0, HOSTILE[i % len(HOSTILE)] + str(i) if i % 7 == 0 else f"T{i}")
        ws.write_string(r, 1, SPECIES[i % len(SPECIES)] if i % 53 else "=Acer rubrum")
        ws.write_number(r, 2, 6 + (i * 7) % 30 + 0.5)
        ws.write_string(r, 3, ["removed", "remove", "retain", "removed", "topped"][i % 5])
        ws.write_string(r, 4, ["good", "fair", "poor"][i % 3])
        if i % 11 == 0:
            ws.write_string(r, 5, HOSTILE[i % len(HOSTILE)] + " 注記" * (1 + i % 40))
    wb.close()
    return path


@pytest.fixture(scope="module")
def assessed(tmp_path_factory):
    from treecalc.assessment import assess

    path = _survey(tmp_path_factory.mktemp("lot") / "lot_clearing_3000.xlsx")
    return assess(path, jurisdiction="croton-on-hudson", continuing_days=2)


def test_no_dict_per_offence_on_the_way_to_the_statement(assessed, monkeypatch):
    """The offences are read as the columns the finding holds them in: making its rows into dicts (before: one
    per offence, kept on the finding) is not needed for the statement."""
    per_tree = assessed.penalties.per_tree
    assert isinstance(per_tree, Records) and len(per_tree) >= 1000

    real = Records._materialise

    def no_rows(self):
        assert len(self) < 100, f"{len(self)} rows made into dicts"  # (small tables of other findings may be)
        return real(self)

    monkeypatch.setattr(Records, "_materialise", no_rows)
    data = statement.statement_bytes(assessed)
    ws = openpyxl.load_workbook(io.BytesIO(data), read_only=True)["Penalties"]
    values = [r[0] for r in ws.iter_rows(values_only=True)]
    # one row per offence, under the definite offences' header
    assert sum(1 for v in values if isinstance(v, str) and v.startswith("Definite offences")) == 1
    tags = {statement.safe_text(str(t)) for t in per_tree._cols["tag"].tolist()}  # control characters as U+FFFD
    assert sum(1 for v in values if str(v) in tags) >= len(per_tree)


def test_the_columnar_sheets_hold_the_cells_of_the_per_cell_writer(assessed, monkeypatch):
    """Every cell of every sheet (value, number format, quote prefix, bold, fill), the panes, filters and widths,
    as the per-cell writer (one XlsxWriter call per cell, a dict per record) makes them; chunks of 700 rows make
    chunk boundaries show inside the tables."""
    monkeypatch.setattr(xlsx, "_CHUNK_ROWS", 700)
    streamed, per_cell = _both(assessed)
    got, want = _cells(streamed), _cells(per_cell)
    _assert_same(got, want)
    pen = want["Penalties"]["cells"]
    assert len(pen) > 5 * len(assessed.penalties.per_tree)  # the offences' rows are there, several cells each
    trees = want["Trees"]["cells"]
    quoted = [v for v, _fmt, quote, *_ in trees.values() if quote]
    assert len(quoted) >= 100 and all(str(v)[:1] in "=+-@\t" for v in quoted)
    assert any(isinstance(v, str) and "銀杏の木" in v for v, *_ in trees.values())
    assert any(isinstance(v, str) and "\ufffd" in v for v, *_ in trees.values())  # a control character replaced
