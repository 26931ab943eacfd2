"""An amendment renumbering sections of Chapter 208: what the presenters write (the app's labels, the CLI's help and
the register's lines, the statement's table titles) cites the new numbers and never the old ones.

The copy of the data folder renumbers §208-20 to §208-29 as §208-90 to §208-99 in the law file, its readings and the
fee schedule (the replacement's §208-22 becomes §208-92, the penalties' §208-29 §208-99, the Fund's §208-24
§208-94): every section the presenters cite of those is read from these files, so none may still say "§208-2N".
The rules' own lines are apart (they cite their entries on their own), so the assertions read the presenters'
words: the app's metric labels, the CLI's help and the register's lines, the statement's table titles.
"""

from __future__ import annotations

import io
import re
import shutil

import openpyxl
import pytest

from tests.helpers.headless import forget_app_caches, new_app, no_exception, page_path
from treecalc.law import clear_caches
from treecalc.reference import datafolder
from treecalc.reference.datafolder import BUNDLED_DATA_DIR

RENUMBERED = (
    "law/croton_on_hudson/ch208_trees.toml",
    "law/croton_on_hudson/fee_schedule.toml",
    "readings/croton_on_hudson.toml",
)
#: a section of §208-20 to §208-29 as the held law numbers it (old) and as the amended one does (new)
OLD = re.compile(r"§ ?208-2\d")
NEW = re.compile(r"§ ?208-9\d")
PASSWORD = "correct horse battery"

#: A Croton-on-Hudson lot: two trees removed without a permit on a subdividable parcel (offences: the §208-22F part,
#: civil penalties) and three proposed for removal (the §208-22A part, a permit for three or more trees).
LOT = (
    "Tag,Species,DBH (in),Action\n"
    "1,Red maple,14,removed\n"
    "2,Northern red oak,18,removed\n"
    "3,Sugar maple,12,remove\n"
    "4,Red maple,10,remove\n"
    "5,White oak,16,remove\n"
    "6,White pine,16,retain\n"
)


@pytest.fixture
def renumbered(tmp_path, monkeypatch):
    """The data folder with §208-2N renumbered §208-9N, read by the library in this process (and by a CLI run)."""
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    for rel in RENUMBERED:
        p = folder / rel
        p.write_text(re.sub(r"(§ ?208-)2(\d)", r"\g<1>9\2", p.read_text(encoding="utf-8")), encoding="utf-8")
    monkeypatch.setattr(datafolder, "DATA_DIR", folder)
    monkeypatch.setenv("TREECALC_DATA", str(folder))
    clear_caches()
    forget_app_caches()
    yield folder
    monkeypatch.undo()
    clear_caches()
    forget_app_caches()


def _cited(texts: list[str]) -> list[str]:
    """The texts that cite a section of §208-20 to §208-29 in either numbering (not empty: the check means
    something)."""
    out = [t for t in texts if OLD.search(t) or NEW.search(t)]
    assert out, "no text cites a section of §208-20 to §208-29"
    return out


def _only_new(texts: list[str]) -> None:
    old = [t for t in _cited(texts) if OLD.search(t)]
    assert not old, f"the old numbers are still cited: {old}"


def test_the_copy_renumbers_the_sections(renumbered):
    from treecalc.law import cites

    held = cites.sections("croton_on_hudson")
    assert held["replacement.percent"] == "§208-92A"
    assert held["sections.no_building_permit"] == "§208-99F"
    assert held["penalty.civil_tiers[6]"] == "§208-99B(6)"


def test_the_cli_help_cites_the_renumbered_sections(renumbered, capsys):
    from treecalc.cli import main

    texts = []
    for argv in (
        ["assess", "--help"],
        ["fee-schedule", "--help"],
        ["case", "--help"],
        ["case", "hold", "--help"],
        ["case", "plant", "--help"],
        ["case", "fund", "--help"],
    ):
        with pytest.raises(SystemExit):
            main(argv)
        texts.append(" ".join(capsys.readouterr().out.split()))
    _only_new(texts)
    assert "apply the §208-92F violation standard" in texts[0]
    assert "fee schedule for payments in lieu (§208-94C)" in texts[0]
    assert "post, release or forfeit a bond (§208-93)" in texts[2]
    assert "open or close a §208-99F hold" in texts[2]


def test_the_register_lines_cite_the_renumbered_sections(renumbered, tmp_path, monkeypatch, capsys):
    from treecalc.cli import main
    from treecalc.register import Register

    url = f"sqlite:///{tmp_path / 'reg.db'}"
    monkeypatch.setenv("TREECALC_DB", url)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    Register(url).add_user("eng", "engineer", PASSWORD, by="eng")
    monkeypatch.setenv("TREECALC_PASSWORD", PASSWORD)
    survey = tmp_path / "lot.csv"
    survey.write_text(LOT, encoding="utf-8")
    by = ["--by", "eng"]
    assert main(["case", "new", "--survey", str(survey), "--kind", "violation", *by]) == 0
    assert main(["case", "plant", "1", "--trees", "3", "--accepted", "2026-05-01", *by]) == 0
    assert main(["case", "hold", "open", "1", "--date", "2026-05-02", *by]) == 0
    capsys.readouterr()
    assert main(["case", "show", "1"]) == 0
    show = capsys.readouterr().out
    assert main(["case", "due", "--from", "2026-01-01", "--to", "2031-01-01"]) == 0
    due = capsys.readouterr().out
    # the warranty is three years: the planting accepted 2026-05-01 is inspected 2029-05-01
    assert due.strip() == "2029-05-01  case 1 planting 1: 3 trees (lot.csv) §208-92G"
    assert "holding building permits and certificates (§208-99F)" in show
    assert main(["case", "holds", "--json"]) == 0
    holds = capsys.readouterr().out
    assert '"section": "§208-99F"' in holds
    lines = [ln for ln in show.splitlines() if "holding" in ln or "planting 1" in ln] + [due, holds]
    _only_new(lines)


def test_the_statement_titles_cite_the_renumbered_sections(renumbered, tmp_path):
    from treecalc.assessment import assess
    from treecalc.report.statement import statement_bytes

    survey = tmp_path / "lot.csv"
    survey.write_text(LOT, encoding="utf-8")
    a = assess(str(survey), site={"subdividable": True}, replacement_species="Quercus alba")
    assert a.labels.sections["replacement.violation_percent"] == "§208-92F"
    wb = openpyxl.load_workbook(io.BytesIO(statement_bytes(a)))
    cells = [str(c.value) for row in wb["Replacement plan"].iter_rows() for c in row if isinstance(c.value, str)]
    parts = [c for c in cells if c.startswith("Replacement parts")]
    stock = [c for c in cells if c.startswith("Replacement stock offered")]
    assert len(parts) == 1 and len(stock) == 1, cells
    assert parts[0].startswith("Replacement parts (§208-92F: trees harmed in offences; §208-92A: proposed removals")
    assert stock == ["Replacement stock offered (§208-92D minimum sizes)"]
    titles = parts + stock
    _only_new(titles)


def _labels(page: str) -> list[str]:
    at = new_app().run()
    no_exception(at)
    at.switch_page(page_path(page)).run()
    no_exception(at)
    return [m.label for m in at.metric]


@pytest.mark.parametrize(
    ("page", "expected"),
    [
        ("permit", ["Replacement required (§208-92)", "Replacement percentage (§208-92A/F)"]),
        ("violations", ["Civil penalty, maximum (USD, §208-99B)", "Criminal fine, maximum (USD, §208-99A)"]),
        (
            "fund",
            ["Payment in lieu to the Tree Preservation Fund (USD, §208-94)", "Trees paid in lieu (trees, §208-92D)"],
        ),
    ],
)
def test_the_app_labels_cite_the_renumbered_sections(renumbered, page, expected):
    labels = _labels(page)
    assert set(expected) <= set(labels), labels
    _only_new(labels)


def test_the_part_headings_cite_the_renumbered_sections(renumbered, tmp_path):
    """The headings of the report's parts (the registry's record names the entries they cite) follow the amendment:
    the replacement part §208-92 (the whole section of ``replacement.percent``, §208-92A), the Fund §208-94, each
    tree's offence §208-99 (the whole section of the civil penalty tiers, §208-99B), the value basis §208-92B."""
    from pypdf import PdfReader

    from treecalc.assessment import assess
    from treecalc.report.content import law_parts, plain_answer, report_data, tree_columns
    from treecalc.report.pdf import write_pdf

    survey = tmp_path / "lot.csv"
    survey.write_text(LOT, encoding="utf-8")
    a = assess(str(survey), site={"subdividable": True}, replacement_species="Quercus alba")
    d = report_data(a)
    parts = law_parts(d)
    assert {k: parts[k] for k in ("replacement", "trees_needed", "planting", "fund", "offence", "civil_penalty")} == {
        "replacement": "§208-92",
        "trees_needed": "§208-92A",
        "planting": "§208-92D",
        "fund": "§208-94",
        "offence": "§208-99",
        "civil_penalty": "§208-99B",
    }
    assert parts["permit"] == "§208-19"  # not renumbered: §208-19 stays
    headings = dict(tree_columns(d))
    assert headings["offence"] == "Offence (§208-99)" and headings["counted"] == "Counted (§208-92)"
    assert a.options["value_basis_label"].endswith(", §208-92B)")
    pdf = tmp_path / "lot.pdf"
    write_pdf(a, pdf)
    text = " ".join("\n".join(p.extract_text() for p in PdfReader(pdf).pages).split())
    assert "Replacement and the planting plan (§208-92)" in text and "Tree Preservation Fund (§208-94)" in text
    _only_new([*headings.values(), *plain_answer(d)["sections"].values(), a.options["value_basis_label"], text])


def test_the_option_labels_cite_the_renumbered_sections(renumbered, tmp_path, capsys):
    """An option of Chapter 208 given under Wesley Hills is named with its section as the amended law numbers it:
    refused by the command line, said in the library's warnings."""
    from treecalc.assessment import assess
    from treecalc.cli import main

    survey = tmp_path / "lot.csv"
    survey.write_text(LOT, encoding="utf-8")
    argv = ["assess", str(survey), "--jurisdiction", "wesley-hills", "--violation", "--fee-per-tree", "10"]
    assert main(argv) == 2
    said = " ".join(capsys.readouterr().err.split())
    assert "options (§208-92F violation standard; §208-94C Tree Preservation Fund)" in said, said
    a = assess(str(survey), jurisdiction="wesley_hills", violation=True, application_pending=True)
    warned = [w for w in a.warnings if "Chapter 208 options" in w]
    assert len(warned) == 1 and "(§208-92F violation standard; §208-99B(7) pending application)" in warned[0]
    _only_new([said, *warned])
