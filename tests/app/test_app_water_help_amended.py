"""The Water page's relevy help is the law's (data/law/croton_on_hudson/ch223_water.toml): amended in a copy
of the data folder (TREECALC_DATA) to 20 May and more than 100 days, the page says those and not 15 April /
60 days. Run in a fresh process: the Chapter 223 rules read the law when they are imported."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.law.test_amended_water import WATER_LAW, _amend
from treecalc.reference.datafolder import BUNDLED_DATA_DIR, DATA_ENV

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = f"""
from streamlit.testing.v1 import AppTest
at = AppTest.from_file({str(ROOT / "app.py")!r}, default_timeout=120).run()
at.switch_page("treecalc/app/pages/water.py").run()
assert not at.exception, [e.value for e in at.exception]
print(" ".join({{m.label: m.proto.help for m in at.metric}}["Relevy date"].split()))
"""


def _help(env: dict[str, str]) -> str:
    r = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout.strip().splitlines()[-1]


def test_the_relevy_help_reads_the_amended_day_month_and_days_overdue(tmp_path):
    base = {k: v for k, v in os.environ.items() if k != DATA_ENV}
    bundled = _help(base)
    assert bundled.startswith("15 April (§223-12F(2)): ") and "more than 60 days overdue" in bundled, bundled

    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    _amend(folder, "[relevy_month]", [("value = 4", "value = 5"), ("April 15", "May 15")])
    _amend(folder, "[relevy_day]", [("value = 15", "value = 20"), ("April 15", "April 20")])
    _amend(
        folder,
        "[relevy_overdue_days]",
        [("value = 60", "value = 100"), ("more than 60 days overdue", "more than 100 days overdue")],
    )
    assert (folder / WATER_LAW).is_file()
    amended = _help({**base, DATA_ENV: str(folder)})
    assert amended.startswith("20 May (§223-12F(2)): ") and "more than 100 days overdue" in amended, amended
    assert "April" not in amended and "60" not in amended, amended
