"""Chapter 223's sections renumbered in a copy of the data folder: what ``treecalc water`` and the Water page cite is
the law file's (an entry's ``section``, or the record ``[sections.no_penalty]``), never a number written in the code.

The copy renumbers the late-payment penalties §223-12F as §223-92F (its entries and the no-penalty provision
§223-12F(1)(a)) and the meter test §223-6G as §223-96G, numbers Chapter 223 does not have: a new number in an output
can only have come from the amended data.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from treecalc.law import clear_caches
from treecalc.reference import datafolder
from treecalc.reference.datafolder import BUNDLED_DATA_DIR, DATA_ENV

ROOT = Path(__file__).resolve().parents[2]
CH223 = "law/croton_on_hudson/ch223_water.toml"
OLD = ("§223-12F", "§223-6G")
NEW = ("§223-92F(2)", "§223-92F(1)(a)", "§223-96G")

#: A bill paid in full by its due date (the no-penalty provision), one not yet due, one late and relevied to the tax
#: bill (the penalties, partial payments and relevy), the meter test; each as text and JSON, and the help texts.
RUNS = [
    ["water", "penalty", "--amount", "300", "--due", "2026-01-15", "--payment", "2026-01-10:300"]
    + ["--as-of", "2026-03-01"],
    ["water", "penalty", "--amount", "300", "--due", "2026-01-15", "--as-of", "2026-01-01"],
    ["water", "penalty", "--amount", "300", "--due", "2025-01-15", "--payment", "2025-03-01:100"]
    + ["--as-of", "2026-07-01"],
    ["water", "meter-test", "--billed", "12000", "--result", "2", "--fee", "50"],
]
HELP = [["water", "--help"], ["water", "penalty", "--help"], ["water", "meter-test", "--help"]]


def _renumber(folder: Path) -> None:
    p = folder / CH223
    s = p.read_text(encoding="utf-8")
    assert s.count('section = "§223-12F') == 6 and s.count('section = "§223-6G"') == 1, "the sections renumbered"
    p.write_text(s.replace('section = "§223-12F', 'section = "§223-92F').replace("§223-6G", "§223-96G"), "utf-8")


def _cli(folder: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """Every run's text and JSON (and the help texts) with ``folder`` as the data folder."""
    from treecalc.cli.water import register

    saved = datafolder.DATA_DIR
    datafolder.DATA_DIR = folder
    clear_caches()
    out = []
    try:
        ap = argparse.ArgumentParser(prog="treecalc")
        register(ap.add_subparsers(dest="command", required=True))  # its help texts read the law
        for argv in [*RUNS, *[[*r, "--json"] for r in RUNS]]:
            args = ap.parse_args(argv)
            assert args.func(args) == 0, argv
            out.append(capsys.readouterr().out)
        for argv in HELP:
            with pytest.raises(SystemExit):
                ap.parse_args(argv)
            out.append(capsys.readouterr().out)
    finally:
        datafolder.DATA_DIR = saved
        clear_caches()
    return "\n".join(out)


#: The Water page's words: its headings, labels, helps, notes and the reading of the penalties; with a bill not yet
#: due (its no-penalty note) and the default bill, late and relevied.
SCRIPT = f"""
import datetime as dt
from streamlit.testing.v1 import AppTest
at = AppTest.from_file({str(ROOT / "app.py")!r}, default_timeout=120).run()
at.switch_page("treecalc/app/pages/water.py").run()
words = []
def say(at):
    assert not at.exception, [e.value for e in at.exception]
    words.extend(e.value for e in [*at.subheader, *at.markdown, *at.info, *at.caption])
    words.extend(str(e.label) + " " + str(e.proto.help) for e in [*at.metric, *at.radio])
    words.extend(str(e.label) for e in at.expander)
say(at)
at.date_input(key="w_water_asof").set_value(dt.date(2025, 1, 1)).run()
say(at)
print(" ".join(" ".join(words).split()))
"""


def _page(folder: Path | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != DATA_ENV}
    if folder is not None:
        env[DATA_ENV] = str(folder)
    r = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    f = tmp_path_factory.mktemp("sections223") / "data"
    import shutil

    shutil.copytree(BUNDLED_DATA_DIR, f)
    _renumber(f)
    yield f


def test_the_cli_cites_the_renumbered_sections_and_not_the_old(folder, capsys):
    bundled = _cli(BUNDLED_DATA_DIR, capsys)
    for old in ("§223-12F(2)", "§223-12F(1)(a)", "§223-6G"):
        assert old in bundled, old
    assert not any(new in bundled for new in NEW)
    renumbered = _cli(folder, capsys)
    for new in NEW:
        assert new in renumbered, new
    for old in OLD:
        assert old not in renumbered, (old, renumbered[max(0, renumbered.find(old) - 200) :][:300])


def test_the_json_cites_the_renumbered_sections(folder, capsys):
    _cli(folder, capsys)
    saved = datafolder.DATA_DIR
    datafolder.DATA_DIR = folder
    clear_caches()
    try:
        from treecalc.cli.water import register

        ap = argparse.ArgumentParser(prog="treecalc")
        register(ap.add_subparsers(dest="command", required=True))
        args = ap.parse_args([*RUNS[2], "--json"])
        args.func(args)
        late = json.loads(capsys.readouterr().out)
        args = ap.parse_args([*RUNS[0], "--json"])
        args.func(args)
        paid = json.loads(capsys.readouterr().out)
    finally:
        datafolder.DATA_DIR = saved
        clear_caches()
    # each event of the late bill names its section: the penalties and the relevy, all of §223-92F(2)
    sections = {e["section"] for e in late["events"]}
    assert sections and all(s.startswith("§223-92F(2)") for s in sections), sections
    # the bill paid by its due date: the no-penalty provision's record
    assert any(n.startswith("§223-92F(1)(a)") for n in paid["notes"]), paid["notes"]


def test_the_water_page_cites_the_renumbered_sections_and_not_the_old(folder):
    bundled = _page(None)
    for old in ("§223-12F(2)", "§223-12F(1)(a)", "§223-6G"):
        assert old in bundled, old
    renumbered = _page(folder)
    for new in NEW:
        assert new in renumbered, new
    for old in OLD:
        assert old not in renumbered, (old, renumbered[max(0, renumbered.find(old) - 200) :][:300])
