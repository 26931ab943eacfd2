"""Water bill: a form over treecalc.water (filled in when the module lands)."""

from __future__ import annotations

from app_support import ui


def body() -> None:
    if not ui.need("water"):
        return


ui.run_page("Water bill", body)
