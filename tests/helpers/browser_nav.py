"""Uploading a survey and choosing a page in the app's sidebar from a browser test, at any width.

On a phone (390 px) the sidebar is closed, and the app closes it again after a page is chosen: a link can
be in the page's box while the sidebar is still sliding shut (not visible, or not stable). Open it when the
link is not visible there, and try again while it moves, rather than wait out one click's timeout.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def upload(page: Any, path: Path) -> None:
    """Upload ``path`` with the Survey page's uploader and wait until the app shows it."""
    with page.expect_file_chooser() as fc:
        page.locator('[data-testid="stMain"] [data-testid="stFileUploaderDropzone"] button').first.click()
    fc.value.set_files(str(path))
    page.get_by_text(f"Showing {path.name}").first.wait_for()


def click_sidebar_page(page: Any, title: str, *, exact: bool = False, tries: int = 5) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    nav = page.locator('[data-testid="stSidebarNav"]').get_by_text(title, exact=exact)
    expand = page.locator('[data-testid="stExpandSidebarButton"]').first
    width = page.viewport_size["width"]
    for _ in range(tries - 1):
        box = nav.bounding_box()
        if box is not None and 0 <= box["x"] <= width and nav.is_visible():
            try:
                nav.click(timeout=10_000)
                return
            except PlaywrightTimeout:
                pass  # still moving: look again
        if expand.is_visible():  # a phone: the sidebar is closed
            expand.click()
        page.wait_for_timeout(700)
    nav.click()  # the last try: its own error says what stood in the way
