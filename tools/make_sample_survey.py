"""Write data/examples/sample_survey.xlsx: a consulting arborist's tree survey
for a Croton-on-Hudson tree removal permit (Chapter 208), 40 trees.

    python tools/make_sample_survey.py [OUT]

It is what an arborist sends: a title block above the header, units in the
header ("D.B.H. (in.)"), "Common / Botanical" species names with cultivars,
X-marked flag columns, and a "Site" sheet of field/value rows. Three things
are deliberately wrong or unusual, so that the ingest shows what it does with
them (see data/examples/README.md):

* tag 17: DBH written "twelve"            → rejected, "DBH not a number"
* tag 24: species typed "Sugar Mapel"     → accepted with a fuzzy-match warning (Acer saccharum)
* tag 9:  multi-stem DBH "14, 10, 6"      → combined as sqrt(14² + 10² + 6²) = 18.2 in

Nothing else in it should produce a rejection or a warning. The output is
deterministic (fixed document dates).
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "data" / "examples" / "sample_survey.xlsx"

TITLE = [
    "Hudson Valley Arboricultural Consulting, LLC",
    "Tree Survey — 12 Example Lane, Croton-on-Hudson, NY",
    "Surveyed April 14, 2025 by J. Rivera, ISA Certified Arborist NY-5123A · Section 79.17, Block 2, Lot 14",
    'Trees 4" DBH and larger; DBH measured at 4.5 ft above grade. Tags are numbered aluminium tags on the north side.',
]
HEADER = [
    "Tag #",
    "Species (Common / Botanical)",
    "D.B.H. (in.)",
    "Condition",
    "Action",
    "Street Tree",
    "Wetland Buffer",
    "Slope >20%",
    "Landmark",
    "Notes",
]

# tag, species, dbh, condition, action, street, wetland, slope, landmark, notes
TREES = [
    (
        1,
        "Northern red oak / Quercus rubra",
        28,
        "Good",
        "Retain",
        "X",
        "",
        "",
        "",
        "Front yard; protect root zone during driveway work",
    ),
    (
        2,
        "Sugar maple / Acer saccharum 'Green Mountain'",
        16,
        "Good",
        "Retain",
        "X",
        "",
        "",
        "",
        "Street tree, Village ROW",
    ),
    (
        3,
        "Norway maple / Acer platanoides",
        19,
        "Fair",
        "Remove",
        "X",
        "",
        "",
        "",
        "Invasive; girdling roots, conflicts with new walk",
    ),
    (4, "Red maple / Acer rubrum 'October Glory'", 11, "Good", "Retain", "", "", "", "", ""),
    (
        5,
        "White oak / Quercus alba",
        41,
        "Excellent",
        "Retain",
        "",
        "",
        "",
        "X",
        "Specimen; on the Village landmark list",
    ),
    (
        6,
        "Tulip tree / Liriodendron tulipifera",
        33,
        "Good",
        "Remove",
        "",
        "",
        "",
        "",
        "Within footprint of proposed addition",
    ),
    (7, "Tulip tree / Liriodendron tulipifera", 24, "Good", "Retain", "", "", "", "", ""),
    (8, "Black birch / Betula lenta", 9, "Fair", "Remove", "", "", "", "", "Within footprint of proposed addition"),
    (9, "Black birch / Betula lenta", "14, 10, 6", "Fair", "Retain", "", "", "X", "", "Three-stemmed from the base"),
    (
        10,
        "Eastern hemlock / Tsuga canadensis",
        13,
        "Poor",
        "Remove",
        "",
        "",
        "X",
        "",
        "Hemlock woolly adelgid, >50% crown loss",
    ),
    (11, "Eastern hemlock / Tsuga canadensis", 15, "Fair", "Retain", "", "", "X", "", "Treat for HWA"),
    (12, "Eastern hemlock / Tsuga canadensis", 8, "Fair", "Retain", "", "", "X", "", ""),
    (
        13,
        "Tree-of-heaven / Ailanthus altissima",
        7,
        "Good",
        "Remove",
        "",
        "",
        "",
        "",
        "Invasive (Part 575 prohibited); treat stump",
    ),
    (14, "Black cherry / Prunus serotina", 12, "Fair", "Retain", "", "", "", "", ""),
    (15, "Scarlet oak / Quercus coccinea", 22, "Good", "Retain", "", "", "", "", ""),
    (16, "Black oak / Quercus velutina", 26, "Fair", "Retain", "", "X", "", "", "Near intermittent stream"),
    (17, "Red maple / Acer rubrum", "twelve", "Good", "Retain", "", "X", "", "", "Stream bank"),
    (18, "Red maple / Acer rubrum", 10, "Good", "Retain", "", "X", "", "", "Stream bank"),
    (
        19,
        "American beech / Fagus grandifolia",
        18,
        "Fair",
        "Retain",
        "",
        "",
        "",
        "",
        "Beech leaf disease symptoms, monitor",
    ),
    (20, "Shagbark hickory / Carya ovata", 17, "Good", "Retain", "", "", "", "", ""),
    (21, "White ash / Fraxinus americana", 20, "Poor", "Remove", "", "", "", "", "Emerald ash borer; 60% dieback"),
    (22, "Eastern white pine / Pinus strobus", 21, "Good", "Retain", "", "", "", "", ""),
    (23, "Flowering dogwood / Cornus florida", 5, "Fair", "Retain", "", "", "", "", "Understory"),
    (24, "Sugar Mapel", 14, "Good", "Retain", "", "", "", "", "Back lawn"),
    (25, "Sassafras / Sassafras albidum", 6, "Good", "Remove", "", "", "", "", "Within footprint of proposed patio"),
    (26, "Northern red oak / Quercus rubra", 30, "Good", "Retain", "", "", "X", "", ""),
    (27, "Chestnut oak / Quercus montana", 19, "Good", "Retain", "", "", "X", "", "Rock outcrop"),
    (28, "Black cherry / Prunus serotina", 9, "Poor", "Remove", "", "", "", "", "Trunk decay at base"),
    (
        29,
        "Red maple / Acer rubrum",
        15,
        "Good",
        "Removed",
        "",
        "",
        "",
        "",
        "Removed by owner March 2025; stump remains",
    ),
    (
        30,
        "Pin oak / Quercus palustris",
        25,
        "Fair",
        "Topped",
        "X",
        "",
        "",
        "",
        "Topped by utility contractor; document for §208-17",
    ),
    (31, "American elm / Ulmus americana", 11, "Fair", "Retain", "", "", "", "", ""),
    (32, "Tulip tree / Liriodendron tulipifera", 29, "Good", "Retain", "", "", "", "", ""),
    (33, "Black birch / Betula lenta", 8, "Good", "Remove", "", "", "", "", "Within limit of disturbance (grading)"),
    (34, "Eastern redcedar / Juniperus virginiana", 7, "Good", "Retain", "", "", "", "", ""),
    (35, "Kwanzan cherry / Prunus serrulata 'Kwanzan'", 10, "Fair", "Retain", "", "", "", "", "Ornamental by patio"),
    (36, "Honeylocust / Gleditsia triacanthos var. inermis", 12, "Good", "Retain", "", "", "", "", ""),
    (37, "Shagbark hickory / Carya ovata", 14, "Good", "Retain", "", "", "", "", ""),
    (38, "White oak / Quercus alba", 23, "Good", "Retain", "", "", "", "", ""),
    (39, "Red maple / Acer rubrum", 13, "Fair", "Remove", "", "", "", "", "Within limit of disturbance (grading)"),
    (40, "Eastern white pine / Pinus strobus", 16, "Fair", "Retain", "", "", "", "", ""),
]

SITE = [
    ("jurisdiction", "croton-on-hudson"),
    ("lot_area_acres", 1.2),
    ("subdividable", "no"),
    ("has_residence", "yes"),
    ("one_family_co_issued", "yes"),
    ("site_plan_required", "no"),
    ("prior_removals_12mo", 0),
    ("application_pending", "no"),
    ("prior_violation_within_year", "no"),
    ("village_work", "no"),
]


def build(out: Path = OUT) -> Path:
    wb = Workbook()
    ws = wb.active
    ws.title = "Tree Survey"
    ncol = len(HEADER)
    for i, text in enumerate(TITLE, start=1):
        ws.cell(i, 1, text).font = Font(bold=(i <= 2), size=14 if i == 1 else 11)
        ws.merge_cells(start_row=i, start_column=1, end_row=i, end_column=ncol)
    hrow = len(TITLE) + 2
    thin = Side(style="thin", color="999999")
    for j, h in enumerate(HEADER, start=1):
        c = ws.cell(hrow, j, h)
        c.font = Font(bold=True)
        c.fill = PatternFill("solid", fgColor="DDEBD5")
        c.alignment = Alignment(wrap_text=True, vertical="center", horizontal="center")
        c.border = Border(bottom=thin, top=thin, left=thin, right=thin)
    for r, tree in enumerate(TREES, start=hrow + 1):
        for j, v in enumerate(tree, start=1):
            if v != "":
                ws.cell(r, j, v)
        ws.cell(r, 3).alignment = Alignment(horizontal="right")
    widths = [7, 44, 12, 11, 10, 8, 10, 9, 10, 52]
    for j, w in enumerate(widths, start=1):
        ws.column_dimensions[chr(64 + j)].width = w
    ws.freeze_panes = ws.cell(hrow + 1, 1)

    site = wb.create_sheet("Site")
    site.append(["Field", "Value"])
    site["A1"].font = site["B1"].font = Font(bold=True)
    for f, v in SITE:
        site.append([f, v])
    site.column_dimensions["A"].width = 30
    site.column_dimensions["B"].width = 20

    stamp = dt.datetime(2025, 4, 15, 9, 0, 0)
    wb.properties.creator = "J. Rivera"
    wb.properties.created = stamp
    wb.properties.modified = stamp
    wb.properties.lastModifiedBy = "J. Rivera"
    out.parent.mkdir(parents=True, exist_ok=True)
    wb.save(out)
    return out


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    print(build(target))
