"""The worked examples of the docs (docs/gallery/*.py) run as they are shown, each in its own process, and
print what their pages say."""

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import treecalc

ROOT = Path(__file__).resolve().parents[2]
GALLERY = ROOT / "docs" / "gallery"


def _run(script: str, out: Path) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, str(GALLERY / script), str(out)], capture_output=True, text=True, env=env, cwd=out, timeout=600
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_every_script_has_its_page_and_a_test():
    scripts = sorted(p.name for p in GALLERY.glob("*.py"))
    assert scripts == ["inventory_batch.py", "survey_to_statement.py"]  # each run below
    for s in scripts:
        assert f'--8<-- "docs/gallery/{s}"' in (GALLERY / s.replace(".py", ".md")).read_text(encoding="utf-8")


def test_a_survey_to_a_statement(tmp_path):
    said = _run("survey_to_statement.py", tmp_path)
    # data/examples/README.md: 40 rows read, 39 trees, 1 rejected (tag 17, DBH 'twelve')
    assert "rows read 40: 39 trees, 1 rejected" in said
    assert (tmp_path / "statement.xlsx").stat().st_size > 0
    # the page shows the script's output: it is what the script prints today
    page = (GALLERY / "survey_to_statement.md").read_text(encoding="utf-8")
    for line in said.splitlines()[:-1]:  # the last line names the folder given
        assert line in page, line


def test_an_inventory_through_benefits_batch(tmp_path):
    said = _run("inventory_batch.py", tmp_path)
    assert said.startswith("1000 trees valued")
    valued = pd.read_parquet(tmp_path / "benefits")
    # 1,000 trees, species in turn (i % 4): 250 of each
    assert len(valued) == 1000
    assert valued["species_code"].astype(str).value_counts().to_dict() == {
        c: 250 for c in ("ACRU", "PLAC", "QUPA", "GLTR")
    }
    # the batch's total is compute_benefits' total of the same trees (the engine it runs per partition)
    inventory = pd.read_csv(tmp_path / "inventory.csv")
    total = treecalc.compute_benefits(inventory)["usd_total_annual"].sum()
    assert valued["usd_total_annual"].sum() == pytest.approx(total, rel=1e-9)
    assert f"benefits per year: ${total:,.2f}" in said
