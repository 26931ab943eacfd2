"""Excavation: a form over treecalc.excavation (filled in when the module lands)."""

from __future__ import annotations

from app_support import ui


def body() -> None:
    if not ui.need("excavation"):
        return


ui.run_page("Excavation", body)
