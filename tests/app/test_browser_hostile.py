"""In a real browser: a hostile upload costs its uploader a message, never the server.

The 1.6 KB far-cell workbook (one cell at XFD1048576, no ``<dimension>``: the native reader asks
for 550 GB and aborts the whole process) is uploaded in one session. The page must show why it
was refused, ``/_stcore/health`` must still answer, and a second session must keep working.

Two servers: with the default limits (the pre-flight refuses the file before any native reader
sees it) and with the limits raised past it (``TREECALC_LIMITS``), so that the file does reach the
native reader — which aborts, in the isolated child process only.
"""

from __future__ import annotations

import time
import urllib.request

import pytest
from test_browser import CHROMIUM, _metric, streamlit_server

from tests.helpers.hostile import far_cell_xlsx

RAISED = "columns=20000,cells=1e12,rows=2000000"


def _health(url: str) -> bytes:
    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=5) as r:
        return r.read().strip()


def _env(limits: str | None) -> dict[str, str]:
    import os

    env = {**os.environ}
    env.pop("TREECALC_LIMITS", None)
    if limits:
        env["TREECALC_LIMITS"] = limits
    return env


@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium not found at /usr/bin/chromium")
@pytest.mark.parametrize("limits,says", [(None, "refused"), (RAISED, "could not be read")])
def test_far_cell_upload_is_refused_and_the_server_lives(tmp_path, limits, says, chromium):
    bad = far_cell_xlsx(tmp_path / "far.xlsx")
    assert bad.stat().st_size < 2_000
    with streamlit_server(tmp_path, _env(limits)) as (proc, url):
        try:
            attacker = chromium.new_context().new_page()
            other = chromium.new_context().new_page()  # a second session, with the bundled sample
            for page in (attacker, other):
                page.set_default_timeout(60_000)
                page.goto(url)
                page.get_by_text("Showing").first.wait_for()
            before = _metric(other, "Trees")

            with attacker.expect_file_chooser() as fc:
                attacker.locator('[data-testid="stMain"] [data-testid="stFileUploaderDropzone"] button').first.click()
            t0 = time.monotonic()
            fc.value.set_files(str(bad))
            error = attacker.locator('[data-testid="stAlertContentError"]').filter(has_text="far.xlsx")
            error.first.wait_for(timeout=30_000)
            text = error.first.inner_text()
            assert says in text and "far.xlsx" in text, text
            if limits is None:
                assert "XFD1048576" in text and "--limit" in text, text
            else:
                assert "memory" in text, text  # the isolated reader died; the server did not
            assert time.monotonic() - t0 < 30

            assert proc.poll() is None, "the server died"
            assert _health(url) == b"ok"
            # the other session still works: it reruns and shows its survey
            other.reload()
            other.get_by_text("Showing").first.wait_for()
            assert _metric(other, "Trees") == before
            assert other.locator('[data-testid="stException"]').count() == 0
        finally:
            chromium.close()
        assert proc.poll() is None and _health(url) == b"ok"
