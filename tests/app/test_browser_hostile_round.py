"""In a real browser, the hostile round's app findings: three hostile uploads at once stay within the server's
read budget while a fourth session keeps answering, and a link carrying each absurd option shows its refusal in
the main area (the page goes on).

The server runs with ``TREECALC_LIMITS=memory_gb=1`` and ``TREECALC_READ_BUDGET_GB=2``: two reads at once, each
child capped to 1 GB of address space, so the reader children's resident memory together stays under 2 GB (three
such 30 MB CSVs had pushed the server and its children to 8.9 GB).
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

from tests.app.test_app_bounds import ABSURD
from tests.app.test_browser import CHROMIUM, _metric, streamlit_server
from tests.app.test_browser_budget import _descendants_rss_kb, _upload


def _hostile(tmp_path: Path) -> list[Path]:
    """Three different ~30 MB hostile CSVs, each within the row, column and cell limits."""
    note = "x" * 14
    cr = tmp_path / "cr_only.csv"  # line ends of CR alone (the row pre-check counted "\n")
    cr.write_bytes(
        ("Tag,Species,DBH,Notes\r" + "".join(f"{i},Acer rubrum,10,{note}\r" for i in range(1_000_000))).encode()
    )
    quotes = tmp_path / "open_quotes.csv"  # a quote opened every 10,000 rows and never closed
    rows = (
        f'{i},"Acer rubrum,10,{note}' if i % 10_000 == 0 else f"{i},Acer rubrum,10,{note}" for i in range(1_000_000)
    )
    quotes.write_text("Tag,Species,DBH,Notes\n" + "\n".join(rows) + "\n")
    wide = tmp_path / "wide.csv"  # 999 columns x 15,000 rows: 15 million cells, under the 20,000,000-cell limit
    head = "Tag,Species,DBH," + ",".join(f"c{j}" for j in range(996))
    wide.write_text(head + "\n" + "".join(f"{i},Acer rubrum,10," + "1," * 995 + "1\n" for i in range(15_000)))
    return [cr, quotes, wide]


@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium not found at /usr/bin/chromium")
def test_three_hostile_uploads_stay_within_the_budget_while_a_fourth_session_answers(tmp_path, chromium):
    files = _hostile(tmp_path)
    env = {**os.environ, "TREECALC_LIMITS": "memory_gb=1", "TREECALC_READ_BUDGET_GB": "2"}
    with streamlit_server(tmp_path, env) as (proc, url):
        peak, stop = [0], threading.Event()

        def watch() -> None:
            while not stop.is_set():
                peak[0] = max(peak[0], _descendants_rss_kb(proc.pid))
                time.sleep(0.1)

        t = threading.Thread(target=watch, daemon=True)
        try:
            pages = [chromium.new_context().new_page() for _ in range(4)]
            for page in pages:
                page.set_default_timeout(240_000)
                page.goto(url)
                page.get_by_text("Showing").first.wait_for()
            before = _metric(pages[3], "Trees")
            t.start()
            for page, f in zip(pages, files):
                _upload(page, f)
            pages[3].reload()  # meanwhile the fourth session answers
            pages[3].get_by_text("Showing").first.wait_for(timeout=60_000)
            assert _metric(pages[3], "Trees") == before
            for page, f in zip(pages[:3], files):
                # each upload ends in its main area: read, or refused naming the file, never a blank page
                main = page.locator('[data-testid="stMain"]')
                done = main.get_by_text(
                    re.compile(rf"Showing {re.escape(f.name)}|{re.escape(f.name)}.*(refused|could not)")
                )
                done.first.wait_for(timeout=240_000)
            stop.set()
            t.join(5)
            assert proc.poll() is None  # the server lives
            assert peak[0] < 2 * 2**20, f"the reader children held {peak[0] / 2**20:.2f} GB at once"
        finally:
            stop.set()
            chromium.close()


@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium not found at /usr/bin/chromium")
def test_a_link_carrying_each_absurd_option_shows_its_refusal_in_the_main_area(tmp_path, chromium):
    with streamlit_server(tmp_path) as (_proc, url):
        try:
            assert ABSURD, "nothing to check: the loop below would pass on no item"
            for opts, words in ABSURD:
                page = chromium.new_context().new_page()
                page.set_default_timeout(60_000)
                page.goto(f"{url}/violations?" + urllib.parse.urlencode({"opts": json.dumps(opts)}))
                main = page.locator('[data-testid="stMain"]')
                main.get_by_text(words, exact=False).first.wait_for()
                main.locator('[data-testid="stMetric"]').first.wait_for()  # the page goes on with its figures
                assert page.get_by_text("InvalidOperation").count() == 0
                page.context.close()
        finally:
            chromium.close()
