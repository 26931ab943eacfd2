"""An amended Chapter 223 gives a wholly amended water statement: each entry of
``data/law/croton_on_hudson/ch223_water.toml`` amended (its value and its words) in a copy of the data folder
(TREECALC_DATA) changes what is computed and shows in the JSON and the text of ``treecalc water``, and the
old number shows nowhere.

Each amendment is run in a fresh process (the rules read the law when they are imported); the same command
under the bundled law is run first, in this process, to show the old words are there (the check can fail).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from treecalc.cli import main
from treecalc.reference.datafolder import BUNDLED_DATA_DIR, DATA_ENV

WATER_LAW = "law/croton_on_hudson/ch223_water.toml"

#: One bill of $100.00 due 10 January 2026 (no 15 in its dates, so the relevy day's 15 is the law's alone).
BILL = ["water", "penalty", "--amount", "100", "--due", "2026-01-10"]

# case -> (table, [(old, new) in that table: the value and the ordinance's words], command, JSON fields
#          expected, words the outputs must show, old words they must not)
CASES = {
    # §223-12F(2) 5% -> 6%: 11 Jan 6% of 100.00 = 6.00; 11 Feb and 11 Mar 1% = 1.00 each -> 8.00 (was 7.00)
    "first_penalty_rate": (
        "[first_penalty_rate]",
        [('value = "5"', 'value = "6"'), ("a penalty of 5% of", "a penalty of 6% of")],
        [*BILL, "--as-of", "2026-03-20"],
        {"penalties_outstanding": "8.00"},
        ["6% of the unpaid water charge 100.00", "+6% on 16 Jan", "a penalty of 6% of"],
        ["5%"],
    ),
    # 1% -> 2% a month: 11 Jan 5% = 5.00; 11 Feb and 11 Mar 2% of 100.00 = 2.00 each -> 9.00 (was 7.00)
    "monthly_penalty_rate": (
        "[monthly_penalty_rate]",
        [('value = "1"', 'value = "2"'), ("a further penalty of 1% shall", "a further penalty of 2% shall")],
        [*BILL, "--as-of", "2026-03-20"],
        {"penalties_outstanding": "9.00"},
        ["2% of the unpaid water charge 100.00 for succeeding month 1", "+2% on 16 Feb", "the 2% is taken"],
        ["1%"],
    ),
    # relevy on 15 May, not 15 April: 10 Jan -> 15 May 2026 is 125 days (> 60); penalties 11 Jan 5.00 and
    # 11 Feb, Mar, Apr, May 1.00 each = 9.00 -> 109.00 relevied on 2026-05-15 (was 108.00 on 2026-04-15)
    "relevy_month": (
        "[relevy_month]",
        [("value = 4", "value = 5"), ("April 15", "May 15")],
        [*BILL, "--as-of", "2026-06-01"],
        {"relevy_date": "2026-05-15", "relevy_amount": "109.00", "penalties_assessed": "9.00"},
        ["15 May", "2026-05-15"],
        ["April", "2026-04-15"],
    ),
    # relevy on 20 April: penalties 11 Jan 5.00, 11 Feb, Mar, Apr 1.00 each = 8.00 -> 108.00 on 2026-04-20
    "relevy_day": (
        "[relevy_day]",
        [("value = 15", "value = 20"), ("April 15", "April 20")],
        [*BILL, "--as-of", "2026-05-01"],
        {"relevy_date": "2026-04-20", "relevy_amount": "108.00"},
        ["20 April", "2026-04-20"],
        ["15 April", "2026-04-15"],
    ),
    # more than 100 days, not 60: 10 Jan -> 15 Apr 2026 is 21 + 28 + 31 + 15 = 95 days, not more than 100, so
    # the bill waits for 15 April 2027; on 1 May 2026 it still owes 100.00 + 8.00 on the water account
    "relevy_overdue_days": (
        "[relevy_overdue_days]",
        [("value = 60", "value = 100"), ("more than 60 days overdue", "more than 100 days overdue")],
        [*BILL, "--as-of", "2026-05-01"],
        {"relevy_date": None, "scheduled_relevy_date": "2027-04-15", "total_due": "108.00"},
        ["more than 100 days overdue", "at least 101 days"],
        ["60 days", "61 days"],
    ),
    # §223-6G tolerance 1.5% -> 2.5%: an error of +2.0% is within it: no adjustment, the fee retained (under
    # 1.5% the bill was 1000 / 1.02 = 980.39 and the 30.00 fee returned)
    "meter_tolerance": (
        "[meter_tolerance]",
        [('value = "1.5"', 'value = "2.5"'), ("(more than 1.5%, plus or minus)", "(more than 2.5%, plus or minus)")],
        ["water", "meter-test", "--billed", "1000", "--result", "2.0", "--fee", "30"],
        {"tolerance_pct": "2.5", "adjusted": False, "adjusted_consumption": "1000", "fee_refund": "0.00"},
        ["tolerance ±2.5%", "more than 2.5% (plus or minus)", "exactly 2.5%"],
        ["1.5"],
    ),
}


def _amend(folder: Path, table: str, changes: list[tuple[str, str]]) -> None:
    p = folder / WATER_LAW
    s = p.read_text(encoding="utf-8")
    i = s.index(table)
    end = s.find("\n[", i + 1)
    end = len(s) if end < 0 else end
    part = s[i:end]
    for old, new in changes:
        assert part.count(old) == 1, f"{old!r} is not once in {table}"
        part = part.replace(old, new)
    p.write_text(s[:i] + part + s[end:], encoding="utf-8")


def _bundled(command: list[str]) -> str:
    """The JSON and the text of a command under the bundled law, run in this process."""
    out = []
    for extra in (["--json"], []):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert main([*command, *extra]) == 0
        out.append(buf.getvalue())
    return " ".join(" ".join(out).split())


def _amended(folder: Path, command: list[str]) -> tuple[dict, str]:
    env = {**{k: v for k, v in os.environ.items() if k != DATA_ENV}, DATA_ENV: str(folder)}
    code = [sys.executable, "-m", "treecalc.cli", *command]
    runs = [
        subprocess.run([*code, *extra], capture_output=True, text=True, env=env, timeout=120)
        for extra in (["--json"], [])
    ]
    for r in runs:
        assert r.returncode == 0, r.stderr
    return json.loads(runs[0].stdout), " ".join(runs[1].stdout.split())


@pytest.mark.parametrize("case", sorted(CASES))
def test_an_amended_water_number_shows_in_the_json_and_the_text_and_the_old_one_nowhere(case, tmp_path):
    table, changes, command, fields, new_words, old_words = CASES[case]
    if DATA_ENV in os.environ:
        pytest.skip("the bundled law is compared with its amendment")
    before = _bundled(command)
    for word in old_words:
        assert word in before, f"{word} is not in the outputs under the bundled law"
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    _amend(folder, table, changes)
    got, text = _amended(folder, command)
    assert {k: got[k] for k in fields} == fields
    flat = " ".join(json.dumps(got, ensure_ascii=False).split())
    for where, out in (("JSON", flat), ("text", text)):
        for word in old_words:
            assert word not in out, f"{case} {where}: the old {word!r} is still printed"
    for word in new_words:
        assert word in flat or word in text, f"{case}: the amended {word!r} is not printed"
    # the sentences are in both: every reading and note of the JSON is printed by the text
    for line in [*got.get("interpretation", []), *got.get("notes", [])]:
        assert " ".join(line.split()) in text


def test_the_meter_test_help_reads_the_amended_tolerance(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    _amend(folder, "[meter_tolerance]", [('value = "1.5"', 'value = "2.5"')])
    env = {**os.environ, DATA_ENV: str(folder)}
    r = subprocess.run(
        [sys.executable, "-m", "treecalc.cli", "water", "meter-test", "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    help_text = " ".join(r.stdout.split())
    assert r.returncode == 0 and "outside ±2.5% (§223-6G)" in help_text and "1.5" not in help_text


def test_a_bill_is_charged_the_law_in_force_on_its_due_date(tmp_path):
    # §223-12F(2)'s 5 % amended to 6 % from 1 July 2026. Before, the rate in force today (6 %) was applied to every
    # bill, whenever it fell due, as the module read the law when imported
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    law = folder / WATER_LAW
    text = law.read_text(encoding="utf-8")
    old = '[first_penalty_rate]\nvalue = "5"\n'
    assert text.count(old) == 1
    law.write_text(
        text.replace(old, '[first_penalty_rate]\nvalues = { 2020-01-01 = "5", 2026-07-01 = "6" }\n'), "utf-8"
    )
    env = {**os.environ, DATA_ENV: str(folder)}

    def first_penalty(due: str, as_of: str) -> dict:
        r = subprocess.run(
            [sys.executable, "-m", "treecalc.cli", *BILL[:3], "100", "--due", due, "--as-of", as_of, "--json"],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
        )
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)

    # due 10 March 2026, before the amendment: 11 Mar 5 % of $100.00 = $5.00
    before = first_penalty("2026-03-10", "2026-03-20")
    assert before["penalties_assessed"] == "5.00"
    assert any("5% of the unpaid water charge 100.00" in e["description"] for e in before["events"]), before["events"]
    # due 10 August 2026, after it: 11 Aug 6 % of $100.00 = $6.00
    after = first_penalty("2026-08-10", "2026-08-20")
    assert after["penalties_assessed"] == "6.00"


def test_a_meter_test_reads_the_tolerance_in_force_on_its_date(tmp_path):
    # §223-6G's ±1.5 % amended to ±3 % from 1 July 2026: a meter 2 % fast tested in March is beyond 1.5 %, so the
    # bill is adjusted (10,000 / 1.02 = 9,803.92) and the fee returned; tested in August it is within 3 %: no
    # adjustment, fee retained. Before, the tolerance in force today applied to every test (and there was no --on)
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    law = folder / WATER_LAW
    text = law.read_text(encoding="utf-8")
    old = '[meter_tolerance]\nvalue = "1.5"\n'
    assert text.count(old) == 1
    law.write_text(text.replace(old, '[meter_tolerance]\nvalues = { 2020-01-01 = "1.5", 2026-07-01 = "3" }\n'), "utf-8")
    env = {**os.environ, DATA_ENV: str(folder)}
    test = ["water", "meter-test", "--billed", "10000", "--result", "2", "--fee", "50"]

    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        r = subprocess.run(
            [sys.executable, "-m", "treecalc.cli", *test, *extra], capture_output=True, text=True, env=env, timeout=300
        )
        assert r.returncode == 0, r.stderr
        return r

    march = json.loads(run("--on", "2026-03-01", "--json").stdout)
    assert (march["adjusted"], march["adjusted_consumption"], march["tolerance_pct"]) == (True, "9803.92", "1.5")
    august = json.loads(run("--on", "2026-08-01", "--json").stdout)
    assert (august["adjusted"], august["adjusted_consumption"], august["tolerance_pct"]) == (False, "10000", "3")
    # without --on, today's law, said so
    assert "the law in force today" in run().stdout
