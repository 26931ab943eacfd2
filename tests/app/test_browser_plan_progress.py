"""In Chromium: the Permit page's plan shows its progress as it assesses the candidate sets and stops when Cancel
is pressed, saying so (no plan drawn, nothing kept: asked again, it starts over)."""

from __future__ import annotations

import os
import random
import re

import pytest

from tests.app.test_browser import CHROMIUM, streamlit_server
from tests.helpers.browser_nav import app_page, settle

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium not found at /usr/bin/chromium"),
]


def test_the_plan_shows_its_progress_and_cancel_stops_it(tmp_path, chromium):
    # 100 optional removals of mixed species and sizes, 4 on a slope over 20%: one assessment per k, 100 or more
    # (seconds each on a loaded machine): time to see the bar move and to press Cancel
    rnd = random.Random(7)
    rows = ["Tag,Species,DBH (in),Action,Condition,Slope over 20%"]
    rows += [
        f"T{i},{rnd.choice(['Acer rubrum', 'Quercus rubra', 'Tilia americana'])},{rnd.randint(4, 30)},Remove,Good,"
        for i in range(96)
    ]
    rows += [f"S{i},Acer rubrum,{8 + i},Remove,Good,Yes" for i in range(4)]
    survey = tmp_path / "hundred.csv"
    survey.write_text("\n".join(rows) + "\n")
    with streamlit_server(tmp_path, dict(os.environ)) as (_p, url):
        with app_page(chromium, url, survey, "Permit & replacement") as page:
            main = page.locator('[data-testid="stMain"]')
            main.get_by_role("button", name="Find the cheapest plans").click()
            said = main.get_by_text(re.compile(r"Assessed \d+ of 100 candidate sets"))
            said.first.wait_for()  # the bar says how far the plan has come
            assert main.locator('[data-testid="stProgress"]').count() == 1
            main.get_by_role("button", name="Cancel").click()
            main.get_by_text("The plan was cancelled").first.wait_for()
            settle(page)
            assert main.locator('[data-testid="stProgress"]').count() == 0
            assert main.get_by_role("button", name="Use this plan").count() == 0  # no plan drawn
            # the plan stopped, not finished behind the page: asked again it starts over (a plan finished is kept
            # and drawn at once, with no progress to show)
            main.get_by_role("button", name="Find the cheapest plans").click()
            said.first.wait_for()
            main.get_by_role("button", name="Cancel").click()
            main.get_by_text("The plan was cancelled").first.wait_for()
