"""The library's messages name keywords, never a command-line flag; the CLI and the app each render them.

A note saying "give --replacement-cost" is the command line's words in the library: the app had to rewrite it
with regular expressions, and a flag no expression knew reached its pages. The messages name the keyword
(``‹replacement_cost_usd›``, :mod:`treecalc.messages`); the command line's table (read off its parsers) and the
app's table render it. These tests hold the messages to that and the two tables to the messages.
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

from treecalc.app import words as app_words
from treecalc.app.views import readable
from treecalc.cli import words as cli_words
from treecalc.ingest.site import SITE_FIELDS
from treecalc.messages import MARK, keywords, plain, render

ROOT = Path(__file__).resolve().parents[1]
#: a flag of the command line: two hyphens and a word, not inside a word or a dash of prose ("a -- b")
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]*")

#: files whose messages still name flags, each with why (the list only shrinks: each must still have one)
KNOWN = {
    # being moved to treecalc/earthwork/ by another branch: its messages are converted after the move
    "treecalc/excavation.py": "moving",
    "treecalc/surfaces.py": "moving",
    # the reader's own limits (--limit, --max-mb): the app sets them in its environment and its server's upload
    # limit, and the limits' message names TREECALC_LIMITS beside the flag
    "treecalc/ingest/limits.py": "reader",
    "treecalc/ingest/sources/filetype.py": "reader",
    # names the command that writes a fingerprinted JSON (`treecalc verify` is the command line's alone)
    "treecalc/report/fingerprint.py": "cli-only",
    # a comment in the fee schedule file the command writes (a TOML comment, not a message)
    "treecalc/rules/croton_on_hudson/schedule.py": "file comment",
}


def _literals(path: Path) -> list[str]:
    """The string literals of a module that are not docstrings (the parts of an f-string included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and n.body
        and isinstance(n.body[0], ast.Expr)
        and isinstance(n.body[0].value, ast.Constant)
    }
    # an f-string as one text, each {value} as X: a marker split over its parts is read whole
    joined = [n for n in ast.walk(tree) if isinstance(n, ast.JoinedStr)]
    parts = {id(c) for j in joined for c in j.values}
    out = ["".join(c.value if isinstance(c, ast.Constant) else "X" for c in j.values) for j in joined]
    return out + [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs | parts
    ]


def _library_modules() -> list[Path]:
    return [p for p in sorted((ROOT / "treecalc").rglob("*.py")) if "treecalc/cli/" not in p.as_posix()]


def _messages() -> list[str]:
    """Every text of the library and of its readings that names a keyword."""
    out = [s for p in _library_modules() for s in _literals(p) if MARK.search(s)]
    for f in sorted((ROOT / "data" / "readings").glob("*.toml")):

        def strings(v):
            if isinstance(v, str):
                yield v
            elif isinstance(v, dict):
                for x in v.values():
                    yield from strings(x)
            elif isinstance(v, list):
                for x in v:
                    yield from strings(x)

        out += [s for s in strings(tomllib.loads(f.read_text(encoding="utf-8"))) if MARK.search(s)]
    return out


def test_no_library_message_names_a_command_line_flag():
    seen = {}
    for p in _library_modules():
        rel = p.relative_to(ROOT).as_posix()
        if rel.startswith("treecalc/app/"):
            continue  # the app's own texts: held by tests/app/test_app_names_no_flag.py on every page
        hits = [s for s in _literals(p) if FLAG.search(s)]
        if hits and rel not in KNOWN:
            seen[rel] = hits
    assert seen == {}


def test_the_known_exceptions_still_name_a_flag():
    """An entry of KNOWN whose flags are gone is removed (the list only shrinks)."""
    stale = [f for f in KNOWN if (ROOT / f).exists() and not any(FLAG.search(s) for s in _literals(ROOT / f))]
    assert stale == []


def test_the_readings_name_no_flag():
    hits = [
        (f.name, line)
        for f in sorted((ROOT / "data" / "readings").glob("*.toml"))
        for line in f.read_text(encoding="utf-8").splitlines()
        if not line.lstrip().startswith("#") and FLAG.search(line)
    ]
    assert hits == []


def test_the_messages_name_keywords():
    """Enough messages to mean something: the readings' site facts and the options (not an empty scan)."""
    named = {k for m in _messages() for k in keywords(m)}
    assert {"replacement_cost_usd", "zone", "on", "site", "jurisdiction", "has_residence", "violation"} <= named


def test_every_keyword_a_message_names_has_a_flag_and_a_control():
    missing_cli, missing_app = [], []
    for m in _messages():
        for match in MARK.finditer(m):
            name, value = match.group(1), match.group(2)
            fact = value is not None and name in SITE_FIELDS  # a site fact with its value: --site, the site facts
            if not fact and name not in cli_words.flags():
                missing_cli.append(name)
            if not fact and name not in app_words.CONTROLS:
                missing_app.append(name)
    assert (sorted(set(missing_cli)), sorted(set(missing_app))) == ([], [])


def test_the_app_table_names_only_keywords_the_command_line_has():
    """A control for a keyword no flag gives is a keyword misspelt in one table."""
    assert sorted(set(app_words.CONTROLS) - set(cli_words.flags())) == []


@pytest.mark.parametrize("render_as", ["cli", "app", "library"])
def test_every_message_rendered_shows_no_marker(render_as):
    show = {"cli": cli_words.render, "app": readable, "library": render}[render_as]
    left = [(m, s) for m in _messages() if re.search(r"[‹›]", s := show(m))]
    assert left == []


def test_the_app_renders_every_message_without_a_flag():
    shown = [(m, s) for m in _messages() if FLAG.search(s := readable(m))]
    assert shown == []


def test_the_command_line_says_the_flags_it_said_before():
    # the words `treecalc assess` printed before the messages named keywords, one of each form
    cases = {
        "(give ‹replacement_cost_usd›)": "(give --replacement-cost)",
        "give ‹has_residence=true› if it has one": "give --site has_residence=true if it has one",
        "give ‹violation=true/false› (or ‹violation›) to decide it": (
            "give --site violation=true/false (or --violation) to decide it"
        ),
        "(Site sheet or ‹site›)": "(Site sheet or --site)",
        "on / ‹on›, today when not given": "on / --on, today when not given",
        "(‹prices=hydro_interception=USD›)": "(--price hydro_interception=USD)",
        "‹continuing_days›": "--days",
        "(‹zone› or the site fact climate_zone)": "(--zone or the site fact climate_zone)",
    }
    assert {m: cli_words.render(m) for m in cases} == cases


def test_the_app_says_the_controls_it_said_before():
    # the words the app's pages showed for the same notes when it rewrote the flags
    cases = {
        "planted is a PLACEHOLDER (give ‹replacement_cost_usd›)": (
            "planted is a PLACEHOLDER (give the Unit cost under “Replacement stock and planting space” on the "
            "Permit page)"
        ),
        "give ‹violation=true/false› (or ‹violation›) to decide it": (
            "set “trees harmed without a permit” to yes or no in the site facts on the Survey page (or “Trees were "
            "harmed without a "
            "permit” on the Violations page) to decide it"
        ),
        "(the date of the application or violation: on / ‹on›, today when not given)": (
            "(today: the app assesses on today's date)"
        ),
        "(‹zone› or the site fact climate_zone)": "(the climate zone on the Benefits page, or in the site facts)",
        "determined clear cutting (‹clear_cutting›)": (
            "determined clear cutting (“Clear cutting took place” on the Violations page)"
        ),
    }
    assert {m: readable(m) for m in cases} == cases


def test_the_library_says_the_keyword():
    assert render("give ‹replacement_cost_usd›; give ‹has_residence=true›") == (
        "give replacement_cost_usd; give has_residence=true"
    )
    assert plain("prices", "electricity=0.2") == "prices=electricity=0.2"


def test_the_json_carries_the_keyword_and_the_command_line_the_flag(tmp_path, capsys):
    import json

    from treecalc.cli import main

    f = tmp_path / "lot.csv"  # two removals, no Site sheet: the site facts assumed say what to give
    f.write_text(
        "Tag,Species,DBH (in),Action,Condition\n1,Acer rubrum,14,remove,good\n2,Quercus rubra,20,remove,fair\n"
    )
    assert main(["assess", str(f), "--on", "2026-12-01", "--json"]) == 0
    said = json.dumps(json.loads(capsys.readouterr().out), ensure_ascii=False)
    assert "give ‹has_residence=true› if it has one" in said and not FLAG.search(said)
    assert main(["assess", str(f), "--on", "2026-12-01"]) == 0
    text = capsys.readouterr().out
    assert "give --site has_residence=true if it has one" in text and "‹" not in text


def test_the_apps_errors_and_rejected_rows_say_the_control():
    import pandas as pd

    from treecalc.app import views
    from treecalc.app.state import AppError

    said = str(AppError("no climate zone: choose one with ‹zone›"))
    assert said == "no climate zone: choose one with the climate zone on the Benefits page"
    rows = views.rejected_table(pd.DataFrame({"reason": ["species 'X' not recognised; give ‹zone›"], "row": [2]}))
    assert rows is not None and not rows.astype(str).apply(lambda c: c.str.contains("[‹›]")).any().any()
    assert "give the climate zone on the Benefits page" in str(rows.iloc[0, 0])
