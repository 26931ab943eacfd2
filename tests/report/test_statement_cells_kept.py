"""The statement's cells stay what they were when the writer changes how it writes them (shared strings, cells
left out, compression): every cell's value, number format and quote prefix of every sheet, for the bundled
sample and for surveys a village receives (an arborist's 25 trees with multi-stem diameters, a steep-slope
violation, a developer's lot read under Wesley Hills' Chapter 95).

The expected cells (``tests/data/statement_cells/*.json``) were read with openpyxl from the statements the writer
made before it wrote shared strings: they are the result the statement must keep, not something the build makes.
The surveys are fixed files (an xlsx carries its time of writing, and the fingerprint the survey's hash).
The Fingerprint sheet's hashes and version change with the code, so there only its items are compared, and
``treecalc verify`` must accept the statement.
"""

from __future__ import annotations

import datetime as _dt
import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from treecalc.cli import main
from treecalc.reference.datafolder import BUNDLED_DATA_DIR

DATA = Path(__file__).resolve().parents[1] / "data" / "statement_cells"
#: The law's date the statements are made on (a later amendment of the law must not move the expected cells).
ON = "2026-11-01"
#: name: (survey, extra options of ``treecalc assess``)
CASES: dict[str, tuple[Path, list[str]]] = {
    "sample": (BUNDLED_DATA_DIR / "examples" / "sample_survey.xlsx", []),
    "arborist_25": (DATA / "arborist_25.xlsx", []),
    "slope_violation_5": (DATA / "slope_violation_5.xlsx", []),
    "developer_8_wesley_hills": (
        DATA / "developer_8.xlsx",
        ["--jurisdiction", "wesley_hills", "--site", "lot_area_acres=1.5"],
    ),
}
FINGERPRINT = "Fingerprint"


def _json_value(v: Any) -> Any:
    if isinstance(v, (_dt.datetime, _dt.date, _dt.time)):
        return {"date": v.isoformat()}
    return v


def statement_cells(path: Path) -> dict[str, dict[str, Any]]:
    """Per sheet, each cell that holds a value: coordinate -> its value, or [value, number format, quote prefix]
    when it has a number format other than General or a quote prefix. On the Fingerprint sheet only its items
    (column A): its values are hashes of the code and the data."""
    wb = openpyxl.load_workbook(path)
    out: dict[str, dict[str, Any]] = {}
    for ws in wb.worksheets:
        cells: dict[str, Any] = {}
        for row in ws.iter_rows():
            for c in row:
                if c.value is None or (ws.title == FINGERPRINT and c.column != 1):
                    continue
                v, fmt, quote = _json_value(c.value), c.number_format, bool(c.quotePrefix)
                cells[c.coordinate] = (
                    v if fmt == "General" and not quote and not isinstance(v, list) else [v, fmt, quote]
                )
        out[ws.title] = cells
    return out


def _same(got: Any, want: Any) -> bool:
    """A cell as kept: the same text, format and quote prefix, and a number equal to 12 significant digits (a sum
    of floats may differ in its last bit with the order numpy adds in, far below the cent the cells show)."""
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want) == 3:
        return _same(got[0], want[0]) and got[1:] == want[1:]
    if isinstance(got, float) and isinstance(want, (int, float)) and not isinstance(want, bool):
        return got == pytest.approx(want, rel=1e-12, abs=1e-12)
    return bool(got == want)


def _statement(tmp_path: Path, name: str) -> Path:
    survey, extra = CASES[name]
    out = tmp_path / f"{name}.xlsx"
    assert main(["assess", str(survey), "--out", str(out), "--on", ON, *extra]) == 0
    return out


@pytest.mark.parametrize("name", list(CASES))
def test_every_cell_of_the_statement_is_kept(tmp_path, name, capsys):
    out = _statement(tmp_path, name)
    got = statement_cells(out)
    want = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    assert list(got) == list(want)
    assert sum(len(cells) for cells in want.values()) > 100  # the fixture holds the statement, not an empty shell
    for sheet, cells in want.items():
        assert got[sheet].keys() == cells.keys(), sheet
        diff = {k: (got[sheet][k], v) for k, v in cells.items() if not _same(got[sheet][k], v)}
        assert not diff, (sheet, dict(list(diff.items())[:5]))
    # the statement still proves what it was derived from
    capsys.readouterr()
    assert main(["verify", str(out), str(CASES[name][0])]) == 0, capsys.readouterr().out


def record(folder: Path) -> None:
    """Write the expected cells of each case from the statements of the code at hand (run once, on the code whose
    cells are to be kept: ``python -c 'from tests.report.test_statement_cells_kept import record; record(...)'``)."""
    for name in CASES:
        out = _statement(folder, name)
        cells = statement_cells(out)
        text = "{\n" + ",\n".join(
            f"{json.dumps(sheet)}: {{\n"
            + ",\n".join(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in c.items())
            + "\n}"
            for sheet, c in cells.items()
        )
        (DATA / f"{name}.json").write_text(text + "\n}\n", encoding="utf-8")


def test_the_statement_is_plain_deflate_whichever_compressor(tmp_path):
    """The statement's parts are deflated by ISA-L where it is installed (treecalc.report.xlsx._ZipFile): plain
    deflate, which zlib inflates, every part's CRC right; without ISA-L zlib's level 1 writes the same cells."""
    import zipfile

    from treecalc.report import xlsx

    assert xlsx._FAST_DEFLATE is not None  # isal is a dependency (pyproject.toml): the fast path is the one tested
    fast = _statement(tmp_path, "arborist_25")
    with zipfile.ZipFile(fast) as z:
        assert z.testzip() is None  # every part inflates (zlib) to the bytes its CRC was taken of
        sheets = [i for i in z.infolist() if i.filename.startswith("xl/worksheets/sheet")]
        assert sheets and all(i.compress_type == zipfile.ZIP_DEFLATED for i in sheets)
    slow_dir = tmp_path / "zlib"
    slow_dir.mkdir()
    held = xlsx._FAST_DEFLATE
    xlsx._FAST_DEFLATE = None
    try:
        slow = _statement(slow_dir, "arborist_25")
    finally:
        xlsx._FAST_DEFLATE = held
    fast_cells, slow_cells = statement_cells(fast), statement_cells(slow)
    assert sum(len(c) for c in fast_cells.values()) > 100
    assert fast_cells == slow_cells
