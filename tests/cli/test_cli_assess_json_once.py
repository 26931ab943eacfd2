"""``treecalc assess --json`` into a pipe writes the assessment's JSON text once: the fingerprint's result hash is of
that text (without the fingerprint), and the text printed is the same, byte for byte, as ``json.dumps`` of the whole
object (the fingerprint its last key). ``treecalc verify`` still agrees with it.

The survey is a Croton lot of the kind a village receives, with hostile text (leading = + - @, CJK, a long note).
The hash is worked out here with hashlib from the printed text, apart from treecalc's own hashing.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pandas as pd

import treecalc.report.json_text as json_text
from treecalc.cli import main
from treecalc.report.fingerprint import assess_file, json_default
from treecalc.report.json import assessment_json, records

OPTIONS = ["--jurisdiction", "croton-on-hudson", "--days", "2", "--site", "subdividable=false"]


def _survey(path: Path, n: int = 60) -> Path:
    species = ["Acer rubrum", "Quercus rubra", "=Pinus strobus", "+Fagus", "-Tilia", "@Ulmus", "銀杏", "Betula nigra"]
    lines = ["tag,species,dbh_in,action,condition,notes"]
    for i in range(n):
        note = ["", "=SUM(A1:A9)", "長い注記 " * 40, "-5 ft from wall", "@home"][i % 5]
        action = ["removed", "remove", "retain"][i % 3]
        lines.append(f'{500 + i},{species[i % len(species)]},{8 + i % 23}.5,{action},good,"{note}"')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_json_printed_once_is_byte_identical_and_verifies(capsys, tmp_path, monkeypatch):
    survey = _survey(tmp_path / "lot_9_hostile.csv")
    made = []
    real = json_text._assessment_object
    monkeypatch.setattr(json_text, "_assessment_object", lambda *a, **k: made.append(1) or real(*a, **k))
    capsys.readouterr()
    assert main(["assess", str(survey), *OPTIONS, "--json"]) == 0
    printed = capsys.readouterr().out
    # the object's text built once (before: once for the fingerprint's hash, once to print)
    assert len(made) == 1
    monkeypatch.setattr(json_text, "_assessment_object", real)

    doc = json.loads(printed)
    # every row assessed or rejected (the species written "=Pinus strobus" and the like are not known ones)
    assert doc["trees"] + doc["rejected"] == 60 and doc["trees"] >= 30 and doc["rejected"] >= 1
    assert list(doc)[-1] == "fingerprint"
    fp = doc["fingerprint"]
    # the same survey assessed again with the options the fingerprint records, as verify does, then the whole
    # object dumped by the json module: the text printed is that, byte for byte (the fingerprint last)
    again = assess_file(survey, fp["options"])
    whole = json.dumps(assessment_json(again), ensure_ascii=False, default=json_default)
    assert printed == whole + "\n"
    # the result hash: SHA-256 of the printed text without its fingerprint, worked out here
    without = dict(doc)
    del without["fingerprint"]
    unhashed = json.dumps(without, ensure_ascii=False)
    assert printed.startswith(unhashed[:-1]) and len(unhashed) < len(printed)
    assert fp["result_sha256"] == hashlib.sha256(unhashed.encode("utf-8")).hexdigest()

    statement = tmp_path / "statement.json"
    statement.write_text(printed, encoding="utf-8")
    capsys.readouterr()
    assert main(["verify", str(statement), str(survey)]) == 0


def test_the_fingerprint_tail_closes_the_object_as_json_dumps_does():
    body = json.dumps({"a": 1, "b": ["銀杏", "=x"]}, ensure_ascii=False)
    assert body[:-1] + json_text.fingerprint_tail(None) == body
    whole = json.dumps({"a": 1, "b": ["銀杏", "=x"], "fingerprint": {"x": "é", "n": 2.5}}, ensure_ascii=False)
    assert body[:-1] + json_text.fingerprint_tail({"x": "é", "n": 2.5}) == whole


def test_a_big_table_is_made_a_block_at_a_time_with_the_same_text(monkeypatch):
    # three blocks of 2 rows and one of 1: the text is the json module's, as when made in one block
    frame = pd.DataFrame(
        {
            "species": ["銀杏", "=Acer", "銀杏", "-Tilia", "@x", "銀杏", None],
            "dbh_in": [12.5, -0.0, 3.0, float("nan"), 1e300, 7.25, 2.0],
            "n": [1, 2, 3, 4, 5, 6, 7],
            "harmed": [True, False, True, True, False, False, True],
        }
    )
    monkeypatch.setattr(json_text, "_BLOCK_ROWS", 2)
    text = "".join(json_text._frame_text(json.dumps)(frame))
    expected = json.dumps(records(frame), ensure_ascii=False)
    assert text == expected and text.count('"n": ') == 7
