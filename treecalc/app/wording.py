"""The library's words as the app says them: its keywords as the app's controls, site facts in words.

Apart from :mod:`treecalc.app.views` so that :mod:`treecalc.app.state` (which views reads) says them too.
"""

from __future__ import annotations

import contextvars
import re

from treecalc.app import words as app_words
from treecalc.ingest import site
from treecalc.law.access import labels
from treecalc.law.registry import records
from treecalc.report.field_words import said

#: Site facts (the Site sheet's fields) as a user reads them, with the unit or the kind of answer: the data's labels
#: (data/readings/site_facts.toml), the jurisdiction with the spellings the app takes.
SITE_LABELS: dict[str, str] = {
    **site.SITE_LABELS,
    "jurisdiction": f"{site.SITE_LABELS['jurisdiction']} ({' or '.join(r.user_spelling for r in records())})",
}
# a fact whose label quotes a number of the law (a period, a count) is labelled by the law that reads it
# ([site_labels] of its readings), its number that of the law files
SITE_LABELS.update(labels("site_labels"))

#: Site facts in running text, as a user reads them (the reader's and the law engine's notes name them
#: by their Site-sheet field).
SITE_WORDS: dict[str, str] = {
    k: v.split(" (")[0][:1].lower() + v.split(" (")[0][1:]
    for k, v in SITE_LABELS.items()
    if k not in ("jurisdiction", "violation", "crs", "climate_zone")
}


def fact_words(k: str) -> str:
    """A site fact in running text: its label without the kind of answer, lower-cased ("a residence stands on the
    lot")."""
    label = SITE_LABELS.get(k, k.replace("_", " ")).split(" (")[0]
    return label[:1].lower() + label[1:]


def readable(text: str) -> str:
    """``text`` with the keywords it names (``give ‹replacement_cost_usd›``, :mod:`treecalc.messages`) as the
    controls of the app that set them (:mod:`treecalc.app.words`), the snake_case site facts in words, and
    True/False as yes/no."""

    out = app_words.render(str(text))
    # a fact named as the subject of a note or of what to set ("crs not given: ...", "set violation to yes"): its
    # label, also for the facts whose name is a plain word in running text (violation) and is otherwise kept
    out = re.sub(
        r"^([a-z]+(?:_[a-z0-9]+)*)(?= not given:)|(?<=\bset )([a-z]+(?:_[a-z0-9]+)*)(?= to )",
        lambda m: f"“{fact_words(m.group(0))}”" if m.group(0) in SITE_LABELS else m.group(0),
        out,
    )
    # a site fact without words of its own (vacant_lot) before "in the site facts": its field name in words
    out = re.sub(
        r"\b([a-z]+(?:_[a-z0-9]+)+)(?= (?:to|=) .{0,12}in the site facts)",
        lambda m: m.group(1) if m.group(1) in SITE_WORDS else f"“{m.group(1).replace('_', ' ')}”",
        out,
    )
    for k, words in SITE_WORDS.items():
        out = re.sub(rf"\b{k}\b", f"“{words}”", out)
    out = out.replace("assumed True", "assumed yes").replace("assumed False", "assumed no")
    out = said(out)  # any other field named (a survey column, a figure): its label, as the reports say it
    here = _page_name()  # on the page a control is on, the control by its name alone: no "on this page" loop
    return out.replace(f" on the {here} page", "") if here else out


#: The page a text is said for, set where no session is at hand (a download built when clicked runs in the
#: server's own thread, where reading the session only logs a warning): "" for none
PAGE_SAID: contextvars.ContextVar[str] = contextvars.ContextVar("treecalc_app_page_said")


def _page_name() -> str | None:
    """The first word of the page being drawn (``ui.run_page`` records it): 'Permit', 'Violations', ..."""
    given = PAGE_SAID.get(None)
    if given is not None:
        return given or None
    try:
        import streamlit as st  # optional dependency: streamlit ([app] extra)

        name = st.session_state.get("tc_page_name")
    except Exception:  # noqa: BLE001 - outside a Streamlit run (the library's notes read in a test)
        return None
    return name if isinstance(name, str) and name else None
