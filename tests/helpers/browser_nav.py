"""Chromium for the browser tests, opening the app, uploading a survey and choosing a page in the app's sidebar,
at any width.

Chromium is launched once per test process (:func:`shared_chromium`; pytest-xdist: once per worker) and each
test gets its own contexts of it through the ``chromium`` fixture (``tests/app/conftest.py``,
:class:`BrowserOfATest`): a context has its own cookies, storage, cache and downloads, so to the app each is
another browser, as a browser launched for the test was. Launching Chromium took a few seconds of a loaded
machine's CPU per test.

``with app_page(chromium, server, survey, "Permit & replacement", width=390) as page:`` is the setup the browser
tests share: a page of a new context on the app, the survey uploaded, the page chosen, the context closed at the
end.

On a phone (390 px) the sidebar is closed, and the app closes it again after a page is chosen: a link can
be in the page's box while the sidebar is still sliding shut. Wait until the sidebar is open or closed (its
box and transform, not a fixed time), open it when it is closed, then click.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: Debian's Chromium (``.ci/run`` installs it with apt-get): no browser is downloaded.
CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

#: This process's Playwright and Chromium, while the tests running one after another use them.
_SHARED: dict[str, Any] = {}


def shared_chromium() -> Any:
    """This test process's Chromium (Playwright's ``Browser``), launched at the first call and again after
    :func:`stop_chromium` or a crash."""
    browser = _SHARED.get("browser")
    if browser is not None and browser.is_connected():
        return browser
    stop_chromium()
    sync_api = importlib.import_module("playwright.sync_api")
    playwright = sync_api.sync_playwright().start()
    try:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
    except BaseException:
        playwright.stop()
        raise
    _SHARED.update(playwright=playwright, browser=browser)
    return browser


def stop_chromium() -> None:
    """Close this process's Chromium and stop its Playwright, if started. While Playwright's sync API is
    started it keeps an asyncio loop running in this thread, under which ``asyncio.run`` and another
    ``sync_playwright()`` refuse to start: ``tests/conftest.py`` stops it before a test that does not use it."""
    browser, playwright = _SHARED.pop("browser", None), _SHARED.pop("playwright", None)
    if browser is not None:
        with contextlib.suppress(Exception):  # a browser that crashed is closed already
            browser.close()
    if playwright is not None:
        playwright.stop()


class BrowserOfATest:
    """What a test drives in place of a Chromium of its own: :meth:`new_context` and :meth:`new_page` open a
    new context of the process's Chromium (its own cookies and storage: another browser to the app), and
    :meth:`close` closes every context the test opened."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self._contexts: list[Any] = []

    def new_context(self, **kwargs: Any) -> Any:
        context = self.browser.new_context(**kwargs)
        self._contexts.append(context)
        return context

    def new_page(self, **kwargs: Any) -> Any:
        """A page of a new context (as Playwright's ``Browser.new_page``), ``kwargs`` the context's."""
        return self.new_context(**kwargs).new_page()

    def close(self) -> None:
        while self._contexts:
            with contextlib.suppress(Exception):  # closed by the test already
                self._contexts.pop().close()


def open_browser(browser: BrowserOfATest, url: str, width: int = 1280, height: int = 1400) -> Any:
    """A page of a new context of ``browser`` at ``width`` x ``height`` px on the app at ``url``, once the app
    shows its survey."""
    from playwright.sync_api import expect

    expect.set_options(timeout=30_000)  # a loaded machine (two cores, many sessions) takes more than 5 s a rerun
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(90_000)
    page.goto(url)
    page.get_by_text("Showing").first.wait_for()
    return page


@contextlib.contextmanager
def app_page(
    browser: BrowserOfATest,
    url: str,
    survey: Path | None = None,
    title: str | None = None,
    *,
    width: int = 1280,
    height: int = 1400,
) -> Iterator[Any]:
    """The page of a browser test: the app opened at ``url`` in a new context of ``browser`` (the ``chromium``
    fixture; :func:`open_browser`), ``survey`` uploaded and the page ``title`` chosen in the sidebar when given
    (:func:`nav`); the context closed at exit."""
    page = open_browser(browser, url, width, height)
    try:
        if survey is not None:
            upload(page, survey)
        if title is not None:
            nav(page, title)
        yield page
    finally:
        page.context.close()


def settle(page: Any) -> None:
    """Let the rerun finish: the status widget gone, no spinner, then a moment for the last elements."""
    page.wait_for_timeout(400)
    page.locator('[data-testid="stStatusWidget"]').wait_for(state="hidden")
    page.locator('[data-testid="stSpinner"]').wait_for(state="detached")
    page.wait_for_timeout(800)


def nav(page: Any, title: str) -> None:
    """Choose the page ``title`` in the sidebar (:func:`click_sidebar_page`) and wait until it is drawn."""
    click_sidebar_page(page, title, exact=True)
    page.locator('[data-testid="stMain"] h1').filter(has_text=title.split(" ")[0]).first.wait_for()
    settle(page)


def upload(page: Any, path: Path) -> None:
    """Upload ``path`` with the Survey page's uploader and wait until the app shows it."""
    with page.expect_file_chooser() as fc:
        page.locator('[data-testid="stMain"] [data-testid="stFileUploaderDropzone"] button').first.click()
    fc.value.set_files(str(path))
    page.get_by_text(f"Showing {path.name}").first.wait_for()


#: The sidebar's state from its box, as the page draws it: "open" (in the screen, not sliding), "closed"
#: (wholly left of the screen) or "moving" (its 0.3 s slide).
_SIDEBAR_STATE = """() => {
  const s = document.querySelector('[data-testid="stSidebar"]');
  if (!s) return "closed";
  const r = s.getBoundingClientRect(), t = getComputedStyle(s).transform;
  if (r.right <= 0) return "closed";
  if (r.left >= 0 && r.width > 0 && (t === "none" || /, 0, 0\\)$/.test(t))) return "open";
  return "moving";
}"""


_SIDEBAR_BOX = """() => {
  const s = document.querySelector('[data-testid="stSidebar"]');
  if (!s) return null;
  const r = s.getBoundingClientRect();
  return {left: r.left, right: r.right, width: r.width, transform: getComputedStyle(s).transform,
          collapsed: s.getAttribute("data-collapsed"), closer: typeof document.__treecalcCloseSidebar,
          url: location.pathname,
          button: !!document.querySelector('[data-testid="stSidebarCollapseButton"] button')};
}"""


def sidebar_state(page: Any) -> str:
    """``"open"``, ``"closed"`` or ``"moving"``: where the sidebar is now."""
    return str(page.evaluate(_SIDEBAR_STATE))


def wait_sidebar(page: Any, *states: str, timeout: float = 60_000) -> str:
    """Wait until the sidebar is in one of ``states`` (default: open or closed, i.e. not sliding); its state."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    want = list(states or ("open", "closed"))
    try:
        page.wait_for_function(f"(want) => want.includes(({_SIDEBAR_STATE})())", arg=want, timeout=timeout)
    except PlaywrightTimeout as e:
        box = page.evaluate(_SIDEBAR_BOX)
        raise AssertionError(f"the sidebar is not {' or '.join(want)} after {timeout / 1000:.0f} s: {box}") from e
    return sidebar_state(page)


def click_sidebar_page(page: Any, title: str, *, exact: bool = False, tries: int = 3) -> None:
    """Click the sidebar's link to the page ``title``, opening the sidebar first when it is closed (a phone).

    Each step waits on the sidebar's state (open, closed, not sliding), never on a fixed time: a loaded
    machine can take seconds for a slide that takes 0.3 s on an idle one."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    nav = page.locator('[data-testid="stSidebarNav"]').get_by_text(title, exact=exact)
    expand = page.locator('[data-testid="stExpandSidebarButton"]').first
    for attempt in range(tries):
        if wait_sidebar(page) == "closed":  # a phone: open it, and wait until it has slid in
            expand.click()
            wait_sidebar(page, "open")
        try:
            nav.click(timeout=30_000)
            return
        except PlaywrightTimeout:
            if attempt == tries - 1:
                raise  # its own error says what stood in the way


def until_it_lands(act: Any, landed: Any, *, again: Any = None, tries: int = 3) -> None:
    """``act()`` (a click on a grid, a canvas) and wait on ``landed()`` (it raises when what the act brings has
    not come: a Playwright timeout or a failed ``expect``); when it has not, ``again()`` (if given) and act again.

    A click that lands while Streamlit redraws the page after a rerun reaches the app as nothing: no row added,
    no editor opened, no box ticked. Acting again is safe only when the first act did nothing, so ``landed``
    waits long enough (15 s) that a slow act is not taken for a lost one."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for attempt in range(tries):
        act()
        try:
            landed()
            return
        except (PlaywrightTimeout, AssertionError):
            if attempt == tries - 1:
                raise
            if again is not None:
                again()
