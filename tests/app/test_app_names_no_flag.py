"""The app names its own controls, never the command line's flags, in what it shows of a violation survey.

The library's messages tell a caller what to give; the app says which of its controls sets it (a note saying
"give --site subdividable=true" on a page of the app would send a user to a command line they do not have).
"""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers.headless import new_app, no_exception, page_path

PAGES = [page_path(name) for name in ("survey", "benefits", "permit", "violations", "fund", "map")]
#: a flag of the command line: two hyphens and a word, not inside a word or a dash of prose ("a -- b")
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]*")
#: a flag, or a keyword marker of the library's messages (treecalc.messages) left unrendered
SHOWN = re.compile(FLAG.pattern + r"|[‹›]")

#: trees removed and damaged with no permit column, no site sheet: the facts left unknown are named
VIOLATION_SURVEY = (
    b"Tag,Species,DBH (in),Action,Condition\n"
    b"1,Acer rubrum,14,removed,good\n"
    b"2,Quercus rubra,31,removed,fair\n"
    b"3,Acer saccharum,9,retain,good\n"
    b"4,Pinus strobus,19,damaged,good\n"
    b"5,Tsuga canadensis,26,remove,poor\n"
)


def _texts(at: AppTest) -> list[str]:
    """Every text the pages show: labels, bodies, help, options, and the cells of their tables."""
    out: list[str] = []

    def walk(n):
        t = getattr(n, "type", "")
        if t == "arrow_data_frame" or t == "dataframe":
            try:
                df = n.value
                out.extend(str(v) for v in df.astype(str).to_numpy().ravel())
                out.extend(map(str, df.columns))
            except Exception:  # noqa: BLE001 - a table without a frame: its proto below
                pass
        else:
            proto = getattr(n, "proto", None)
            if proto is not None and t not in ("download_button",):
                out.append(str(proto))
        children = getattr(n, "children", None)
        if isinstance(children, dict):
            for c in children.values():
                walk(c)

    walk(at._tree)
    return out


@pytest.mark.parametrize("jurisdiction", [None, "wesley-hills"])
def test_no_command_line_flag_on_any_page_of_a_violation_survey(jurisdiction):
    at = new_app().run()
    at.file_uploader(key="w_upload").set_value(("harmed.csv", VIOLATION_SURVEY, "text/csv")).run()
    if jurisdiction:
        at.session_state["tc_read_opts"] = {**at.session_state["tc_read_opts"], "site": {"jurisdiction": jurisdiction}}
    seen = []
    for page in PAGES:
        at.switch_page(page).run()
        no_exception(at)
        seen += [
            (page, m.group(0), t[max(0, m.start() - 60) : m.end() + 40]) for t in _texts(at) for m in SHOWN.finditer(t)
        ]
    assert seen == []
