"""In a real browser: three large uploads at once stay within the server's read budget (the third waits, saying
"queued") while a fourth session keeps answering; two users uploading the same bytes under different names each
see only their own name.

The server runs with ``TREECALC_LIMITS=memory_gb=1`` and ``TREECALC_READ_BUDGET_GB=2``: two reads at once, each
child capped to 1 GB of address space, so the children's resident memory together never passes 2 GB.
"""

from __future__ import annotations

import json
import os
import threading
import time
import zipfile
from pathlib import Path

import pytest
from test_browser import CHROMIUM, _metric, streamlit_server


def _descendants_rss_kb(pid: int) -> int:
    """Resident memory of every process below ``pid`` (the reader children and the forkserver), KB."""
    parent: dict[int, int] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = Path(f"/proc/{d}/stat").read_text()
                parent[int(d)] = int(stat.rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    below, todo = set(), [pid]
    while todo:
        p = todo.pop()
        for c, pp in parent.items():
            if pp == p and c not in below:
                below.add(c)
                todo.append(c)
    total = 0
    for c in below:
        try:
            for line in Path(f"/proc/{c}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total


def _upload(page, path: Path) -> None:
    with page.expect_file_chooser() as fc:
        page.locator('[data-testid="stMain"] [data-testid="stFileUploaderDropzone"] button').first.click()
    fc.value.set_files(str(path))


@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium not found at /usr/bin/chromium")
def test_three_large_uploads_share_the_budget_and_a_fourth_session_answers(tmp_path, chromium):
    files = []
    for k in range(3):  # three different large surveys (different bytes: no cache could serve one)
        f = tmp_path / f"estate_{k}.csv"
        rows = "".join(f"{i},Acer rubrum,{10 + k},note {k}\n" for i in range(400_000))
        f.write_text("Tag,Species,DBH,Notes\n" + rows)
        files.append(f)
    env = {**os.environ, "TREECALC_LIMITS": "memory_gb=1", "TREECALC_READ_BUDGET_GB": "2"}
    with streamlit_server(tmp_path, env) as (proc, url):
        peak = [0]
        stop = threading.Event()

        def watch() -> None:
            while not stop.is_set():
                peak[0] = max(peak[0], _descendants_rss_kb(proc.pid))
                time.sleep(0.1)

        try:
            pages = [chromium.new_context().new_page() for _ in range(4)]
            for page in pages:
                page.set_default_timeout(120_000)
                page.goto(url)
                page.get_by_text("Showing").first.wait_for()
            before = _metric(pages[3], "Trees")
            t = threading.Thread(target=watch, daemon=True)
            t.start()
            for page, f in zip(pages, files):
                _upload(page, f)
            # one of the three waits its turn and says so
            queued = [pg.get_by_text("queued", exact=False) for pg in pages[:3]]
            deadline = time.monotonic() + 60
            while not any(q.count() for q in queued) and time.monotonic() < deadline:
                time.sleep(0.2)
            assert any(q.count() for q in queued), "no read said it was queued"
            # meanwhile the fourth session answers
            pages[3].reload()
            pages[3].get_by_text("Showing").first.wait_for()
            assert _metric(pages[3], "Trees") == before
            for page, f in zip(pages[:3], files):
                page.get_by_text(f"Showing {f.name}").first.wait_for(timeout=180_000)
                metric = page.locator('[data-testid="stMetric"]').filter(has_text="400,000")
                metric.first.wait_for(timeout=180_000)
            stop.set()
            t.join(5)
            assert proc.poll() is None
            assert peak[0] < 2 * 2**20, f"the reader children held {peak[0] / 2**20:.2f} GB at once"
        finally:
            stop.set()
            chromium.close()


@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium not found at /usr/bin/chromium")
def test_two_users_uploading_the_same_bytes_each_see_their_own_name(tmp_path, chromium):
    body = "Tag,Species,DBH,Action\n1,Acer rubrum,12,remove\n2,Quercus rubra,20,removed\n"
    x = tmp_path / "x" / "Smith_12_Elm_St_client_survey.csv"
    y = tmp_path / "y" / "mine.csv"
    for f in (x, y):
        f.parent.mkdir()
        f.write_text(body)
    with streamlit_server(tmp_path) as (proc, url):
        try:
            px, py = chromium.new_context().new_page(), chromium.new_context().new_page()
            names = []
            for page, f in ((px, x), (py, y)):
                page.set_default_timeout(60_000)
                page.goto(url)
                page.get_by_text("Showing").first.wait_for()
                _upload(page, f)
                page.get_by_text(f"Showing {f.name}").first.wait_for()
                _metric(page, "Trees")
                side = page.locator('[data-testid="stSidebar"]')
                side.get_by_text(f"Survey: {f.name} (uploaded)").first.wait_for()  # the sidebar of this run
                # Save project: the zip names this session's file (it was cached by the bytes' hash alone)
                page.locator('[data-testid="stSidebar"]').get_by_text("Project", exact=True).first.click()
                with page.expect_download() as d:
                    page.get_by_role("button", name="Save project").click()
                with zipfile.ZipFile(d.value.path()) as z:
                    names.append(json.loads(z.read("project.json"))["survey"]["name"])
            assert names == ["Smith_12_Elm_St_client_survey.csv", "mine.csv"]
            assert py.get_by_text("Smith_12_Elm_St").count() == 0
            assert px.get_by_text("Showing Smith_12_Elm_St_client_survey.csv").count() == 1
        finally:
            chromium.close()
