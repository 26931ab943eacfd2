"""Random surveys: every row read is a tree or a rejected row; a file is refused only for a reason
the generated input gives; valid generated surveys are read whole, with the values written."""

from __future__ import annotations

import csv
import io
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from treecalc.ingest import REJECTION_KINDS, SurveyError, read_survey
from treecalc.schema import ACTIONS

HEADERS = {
    "tag": ["Tag #", "Tree No.", "ID"],
    "species": ["Species", "Common Name", "Botanical Name", "Scientific name"],
    "dbh": ["DBH", "D.B.H. (in.)", "Diameter (cm)", "DBH in", "Diameter (mm)"],
    "stem": ["Stem 2"],
    "action": ["Action", "Remove?", "Status", "Proposed"],
    "condition": ["Condition", "Cond."],
    "notes": ["Notes"],
    "street": ["Street tree"],
    "wetland": ["Wetland"],
    "distance": ["Distance to house (ft)"],
    "unit": ["Units"],
    "genus": ["GENUS"],
    "cultivar": ["CULTIVAR"],
    "stump": ["stump_diam"],
    "coordinates": ["Latitude", "POINT_X", "Easting"],
    "curb": ["curb_loc"],
}
SPECIES = [
    "Acer rubrum",
    "Red Mapel",
    "Quercus sp.",
    "Acer rubrum 'October Glory'",
    "tree-of-heaven",
    "Norway maple / Acer platanoides",
    "Xyzzy",
    "Pinus",
    "Quercus",
    "12",
    "",
    "Total",
    "Oak sp.",
    "Mulberry / Morus sp.",
    "Maple, Norway",
    "platanoides",
    "sp.",
]
CELL_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=12)
JUNK = st.one_of(
    st.none(),
    st.just(""),
    st.just("  "),
    CELL_TEXT,
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6),
    st.integers(-10, 400),
    st.booleans(),
    st.sampled_from(SPECIES),
    st.sampled_from(
        [
            "12, 8, 6",
            "12,5",
            "n/a",
            "twelve",
            "0",
            "-3",
            "251",
            "30 cm",
            "Remove",
            "retain",
            "X",
            "Y",
            "N",
            "yes",
            "dead",
            "Good",
            "TBR",
            "Total",
            "Sum",
            "cm",
            "mm",
            "in",
            "=1+1",
            "✓",
            "12/8",
            "1e400",
            "nan",
            "inf",
            "−5",
            "Transplant",
            "Stump",
            "Alive",
            "OnCurb",
            "Remove – hazard",
            "Topped",
            "Over-pruned",
            "Girdled",
            "Crimson King",
            "40.7",
            "-73.9",
        ]
    ),
)


@st.composite
def surveys(draw):
    fields = ["species", "dbh"] + draw(
        st.lists(st.sampled_from(sorted(set(HEADERS) - {"species", "dbh"})), unique=True, max_size=6)
    )
    fields = draw(st.permutations(fields))
    header = [draw(st.sampled_from(HEADERS[f])) for f in fields]
    n = draw(st.integers(0, 25))
    rows = []
    for _ in range(n):
        row = []
        for f in fields:
            if f == "species":
                row.append(draw(st.one_of(st.sampled_from(SPECIES), JUNK)))
            elif f in ("dbh", "stem"):
                row.append(draw(st.one_of(st.floats(0.5, 60).map(lambda x: round(x, 1)), JUNK)))
            else:
                row.append(draw(JUNK))
        rows.append(row)
    title = draw(st.lists(st.lists(CELL_TEXT, max_size=2), max_size=3))
    return title, header, rows


def _text(v) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _blank(v) -> bool:
    return v is None or (isinstance(v, str) and not v.strip())


def _check(s, data_rows):
    assert s.rows_read == len(s.trees) + len(s.rejected)
    assert set(s.rejected["kind"]) <= set(REJECTION_KINDS)
    assert s.trees["species_code"].notna().all()
    assert ((s.trees["dbh_in"] > 0) & (s.trees["dbh_in"] <= 250)).all()
    assert set(s.trees["action"]) <= set(ACTIONS)
    assert not s.trees["tag"].duplicated().any()
    rows = sorted(list(s.trees["source_row"]) + list(s.rejected["source_row"]))
    assert len(rows) == len(set(rows))
    summary = s.summary()
    assert summary["rows_read"] == summary["trees"] + summary["rejected"]
    assert sum(summary["rejected_reasons"].values()) == summary["rejected"]


def _read_or_justified(raw: bytes, name: str, header: list[str]):
    """The survey read. Every generated file has a header naming one species and one DBH column,
    so the file as a whole is never refused: bad cells reject their rows, not the file. (The only
    refusal the reader makes of such a file, two columns read as DBH in the same unit, cannot be
    generated: the DBH field is drawn once.) A refusal fails the test, with its message."""
    assert sum(h in HEADERS["dbh"] for h in header) == 1
    try:
        return read_survey(raw, filename=name)
    except SurveyError as e:
        raise AssertionError(f"a survey with header {header} was refused: {e}") from None


SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@settings(max_examples=120, **SETTINGS)
@given(surveys(), st.sampled_from([",", ";", "\t"]), st.sampled_from(["utf-8", "utf-8-sig", "cp1252"]))
def test_random_csv_surveys(tmp_path_factory, survey, delimiter, encoding):
    title, header, rows = survey
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator="\n")
    for r in title + [header] + rows:
        w.writerow([_text(v) for v in r])
    try:
        raw = buf.getvalue().encode(encoding)
    except UnicodeEncodeError:
        raw = buf.getvalue().encode("utf-8")
    s = _read_or_justified(raw, "random.csv", header)
    _check(s, rows)


@settings(max_examples=40, **SETTINGS)
@given(surveys())
def test_random_xlsx_surveys(tmp_path_factory, survey):
    from openpyxl import Workbook
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    title, header, rows = survey
    wb = Workbook()
    ws = wb.active
    for r in title + [header] + rows:
        ws.append([ILLEGAL_CHARACTERS_RE.sub("", v) if isinstance(v, str) else v for v in r])
    buf = io.BytesIO()
    wb.save(buf)
    s = _read_or_justified(buf.getvalue(), "random.xlsx", header)
    _check(s, rows)
    if s.source["header_row"] == len(title) + 1:
        # every non-blank row under the header was read
        expected = sum(
            1 for r in rows if any(not _blank(v) and not (isinstance(v, float) and math.isnan(v)) for v in r)
        )
        assert s.rows_read == expected


KNOWN = {
    "Acer rubrum": "ACRU",
    "Quercus alba": "QUAL",
    "Sugar maple": "ACSA2",
    "Ailanthus altissima": "AIAL",
    "Betula lenta": "BELE",
}


@st.composite
def valid_surveys(draw):
    """Surveys a careful user would write: a tag, a known species and a DBH in inches on every row."""
    n = draw(st.integers(1, 40))
    species = draw(st.lists(st.sampled_from(sorted(KNOWN)), min_size=n, max_size=n))
    dbh = draw(st.lists(st.integers(10, 600).map(lambda x: x / 10), min_size=n, max_size=n))
    extra = draw(st.sampled_from([None, "Action", "Condition", "Notes"]))
    header = [
        "Tag",
        draw(st.sampled_from(["Species", "Botanical Name", "Common Name"])),
        draw(st.sampled_from(["DBH", "DBH (in)", "D.B.H."])),
    ] + ([extra] if extra else [])
    fill = {"Action": ["retain", "remove"], "Condition": ["good", "fair"], "Notes": ["near drive", ""]}
    rows = [
        [f"T{i + 1}", sp, d] + ([draw(st.sampled_from(fill[extra]))] if extra else [])
        for i, (sp, d) in enumerate(zip(species, dbh))
    ]
    return header, rows


@settings(max_examples=60, **SETTINGS)
@given(valid_surveys(), st.sampled_from(["csv", "xlsx"]))
def test_valid_surveys_are_read_whole(tmp_path_factory, survey, fmt):
    header, rows = survey
    if fmt == "csv":
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows([header, *rows])
        raw = buf.getvalue().encode()
    else:
        from openpyxl import Workbook

        wb = Workbook()
        for r in [header, *rows]:
            wb.active.append(r)
        out = io.BytesIO()
        wb.save(out)
        raw = out.getvalue()
    s = read_survey(raw, filename=f"valid.{fmt}")  # never refused: nothing in it is wrong
    assert len(s.rejected) == 0 and len(s.trees) == len(rows) == s.rows_read
    assert list(s.trees["tag"]) == [r[0] for r in rows]
    assert list(s.trees["species_code"]) == [KNOWN[r[1]] for r in rows]
    assert list(s.trees["dbh_in"]) == [r[2] for r in rows]  # inches as written, exactly


@pytest.mark.parametrize("title", ["<", ";", "<5 in trees only"])
@pytest.mark.parametrize("rows", [0, 1])
def test_a_title_of_markup_or_delimiter_characters_is_a_title(tmp_path, title, rows):
    # hypothesis found both: a first line of "<" was taken for an XML file, and a first line of ";" (two blank
    # cells) outvoted a header-only survey's "," - each survey below has its header found and its rows read
    f = tmp_path / "titled.csv"
    f.write_text(f"{title}\nSpecies,DBH\n" + "Acer rubrum,12\n" * rows, encoding="utf-8")
    s = read_survey(f)
    assert s.rows_read == rows and list(s.trees["dbh_in"]) == [12.0] * rows


def test_a_title_with_commas_above_a_semicolon_header_is_read_by_semicolons():
    # found by test_random_csv_surveys: the title "0,;," splits by ',' into three cells (one line) and by ';' into
    # two, the header "Species;DBH;Action" only by ';' — so ';' splits two lines and ',' one: ';' is the delimiter
    s = read_survey(b"0,;,\nSpecies;DBH;Action\nAcer rubrum;12;Retain\n", filename="title.csv")
    assert s.source["header_row"] == 2
    assert list(s.trees["dbh_in"]) == [12.0]


def test_titles_split_by_pipes_above_a_comma_header_are_read_by_commas():
    # found by test_random_csv_surveys: two titles "0|0" split by '|' (two lines alike) and the header "Species,DBH"
    # only by ',' (one line); '|' won on lines split and no header was found. The line that reads as a header of a
    # species and a DBH settles the delimiter.
    s = read_survey(b"0|0\n0|0\nSpecies,DBH\nAcer rubrum,12\nQuercus alba,20.5\n", filename="titles.csv")
    assert s.source["header_row"] == 3
    assert list(s.trees["dbh_in"]) == [12.0, 20.5]
