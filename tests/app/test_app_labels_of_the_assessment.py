"""The app's tables of an assessment head a column that quotes a number of the law as the assessment quotes it (the
law of its date), not as the law read again today."""

from __future__ import annotations

import shutil

from tests.helpers.headless import forget_app_caches
from treecalc.assessment import assess
from treecalc.ingest import read_survey
from treecalc.law import clear_caches
from treecalc.reference import datafolder
from treecalc.reference.datafolder import BUNDLED_DATA_DIR

CH208 = "law/croton_on_hudson/ch208_trees.toml"


def test_the_trees_table_of_an_assessment_made_before_an_amendment_says_its_slope(tmp_path, monkeypatch):
    """§208-19A(3)'s slope amended from 20% to 25% on 2026-01-01 (already in force today): an assessment made on
    2025-06-01 applied 20%, so its trees table heads the column "Slope over 20%"; today's law would say 25%."""
    from treecalc.app import views

    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    p = folder / CH208
    s = p.read_text(encoding="utf-8")
    j = s.index("value = 20.0", s.index("[permit.slope_percent]"))
    p.write_text(
        s[:j] + "values = { 2025-01-01 = 20.0, 2026-01-01 = 25.0 }" + s[j + len("value = 20.0") :], encoding="utf-8"
    )
    monkeypatch.setattr(datafolder, "DATA_DIR", folder)
    clear_caches()
    forget_app_caches()
    try:
        lot = "Tag,Species,DBH (in),Action,Slope over 20%\n1,Acer rubrum,14,Remove,yes\n"
        a = assess(read_survey(lot.encode("utf-8"), filename="lot.csv"), on="2025-06-01")
        heads = [str(c) for c in views.labelled(a.trees, a).columns if str(c).startswith("Slope over")]
        assert heads == ["Slope over 20%"]
        assert views.label("slope_over_20pct") == "Slope over 25%"  # today's law, for a survey not yet assessed
    finally:
        monkeypatch.undo()
        clear_caches()
        forget_app_caches()
