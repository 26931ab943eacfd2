"""The law pages of the docs are generated from the data folder at build time (tools/docs_hooks.py): a number
amended in a copy of data/law/ is on its page with no edit of the docs, every entry of every chapter is listed
with its section, words, value and unit, and every key of data/readings/ is on its village's readings page."""

import re
import shutil
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tools.docs_hooks import law_pages  # noqa: E402
from treecalc.law.schema import META_KEYS, is_bracket, is_entry  # noqa: E402
from treecalc.reference.datafolder import BUNDLED_DATA_DIR  # noqa: E402


def _row(page: str, key: str) -> list[str]:
    rows = [line for line in page.splitlines() if line.startswith(f"| `{key}` |")]
    assert len(rows) == 1, key
    return [c.strip() for c in rows[0].strip("|").split(" | ")]


def _copy(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, data, ignore=shutil.ignore_patterns("species", "examples"))
    return data


def test_an_amended_number_is_on_the_generated_page(tmp_path):
    data = _copy(tmp_path)
    water = data / "law" / "croton_on_hudson" / "ch223_water.toml"
    # §223-12F(2) "a penalty of 5% of the amount due": as held, the page says 5 (percent of the unpaid charge)
    before = law_pages(data)["law/croton_on_hudson/ch223_water.md"]
    assert _row(before, "first_penalty_rate") == [
        "`first_penalty_rate`",
        "§223-12F(2)",
        "a penalty of 5% of the amount due shall be assessed",
        "5",
        "percent of the unpaid water charge",
    ]
    # an amendment to 7.25 % in the copy: the page says 7.25, and no longer 5
    text = water.read_text(encoding="utf-8")
    amended = text.replace('[first_penalty_rate]\nvalue = "5"', '[first_penalty_rate]\nvalue = "7.25"')
    assert amended != text
    water.write_text(amended, encoding="utf-8")
    row = _row(law_pages(data)["law/croton_on_hudson/ch223_water.md"], "first_penalty_rate")
    assert row[3] == "7.25"
    # an entry amended from a date (values keyed by the date each took effect): "more than 60 days overdue"
    # until 2026-12-31, 90 from 2027-01-01, each with its date, the comparison kept
    text = water.read_text(encoding="utf-8")
    amended = text.replace(
        "[relevy_overdue_days]\nvalue = 60\n", "[relevy_overdue_days]\nvalues = { 2025-01-01 = 60, 2027-01-01 = 90 }\n"
    )
    assert amended != text
    water.write_text(amended, encoding="utf-8")
    row = _row(law_pages(data)["law/croton_on_hudson/ch223_water.md"], "relevy_overdue_days")
    assert row[3] == "> 60 from 2025-01-01<br>> 90 from 2027-01-01"
    # the §208-29B(3) maximum raised from 2027-03-01 (a dated cell): both values with the date each took effect
    trees = data / "law" / "croton_on_hudson" / "ch208_trees.toml"
    text = trees.read_text(encoding="utf-8")
    amended = text.replace("tier = 3\nusd = 3000\n", "tier = 3\nusd = { 2025-01-01 = 3000, 2027-03-01 = 3500 }\n")
    assert amended != text
    trees.write_text(amended, encoding="utf-8")
    page = law_pages(data)["law/croton_on_hudson/ch208_trees.md"]
    assert "3000 from 2025-01-01<br>3500 from 2027-03-01" in page


def _keys(t: dict, prefix: str = "") -> list[tuple[str, dict]]:
    out = []
    for k, v in t.items():
        if not prefix and k in META_KEYS:
            continue
        if isinstance(v, dict) and (is_entry(v) or is_bracket(v)):
            out.append((f"{prefix}{k}", v))
        elif isinstance(v, dict):
            out += _keys(v, f"{prefix}{k}.")
    return out


def test_every_entry_of_every_chapter_is_on_its_page():
    pages = law_pages(BUNDLED_DATA_DIR)
    files = sorted((BUNDLED_DATA_DIR / "law").glob("*/*.toml"))
    assert len(files) >= 5  # Croton's 120, 208, 223 and fee schedule; Wesley Hills' two parts of 95
    seen = 0
    for f in files:
        page = pages[f"law/{f.parent.name}/{f.stem}.md"]
        for key, t in _keys(tomllib.loads(f.read_text(encoding="utf-8"))):
            seen += 1
            if is_bracket(t):
                assert f"## `{key}`" in page, key
                for row in t["rows"]:
                    assert re.sub(r"\s+", " ", row["text"]).replace("|", "\\|") in page, key
                continue
            row = _row(page, key)
            assert row[1] == t["section"], key
            assert row[4] == " ".join(t["unit"].split()), key
            if "value" in t:
                assert row[3].endswith(str(t["value"])), key
    assert seen > 50


def test_every_reading_is_on_its_village_page():
    pages = law_pages()
    for village in ("croton_on_hudson", "wesley_hills"):
        page = pages[f"law/{village}/readings.md"]
        raw = tomllib.loads((BUNDLED_DATA_DIR / "readings" / f"{village}.toml").read_text(encoding="utf-8"))
        leaves = [k for k, v in raw.items() if not isinstance(v, dict)]
        leaves += [f"{k}.{k2}" for k, v in raw.items() if isinstance(v, dict) for k2 in v]
        assert leaves
        for key in leaves:
            assert f"`{key}" in page, (village, key)
        # the readings of unclear text an assessment states, as the JSON lists them
        assert "## The readings of unclear text an assessment states" in page
    assert "§208-17 REGULATED BUFFER ZONE" in pages["law/croton_on_hudson/readings.md"]
