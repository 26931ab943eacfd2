"""``survey --export opentreemap``: OpenTreeMap's tree importer's own field names (otm-core
``opentreemap/importer/fields.py``, class ``trees``), every one the survey gives, and no other."""

from __future__ import annotations

import csv

from treecalc.cli import main

#: otm-core opentreemap/importer/fields.py, ``trees.ALL`` (its EXPORTER_PAIRS' names, in order), read from
#: github.com/OpenTreeMap/otm-core at 084f70e5.
OTM_TREE_FIELDS = (
    "point x",
    "point y",
    "street address",
    "city",
    "postal code",
    "planting site width",
    "planting site length",
    "planting site id",
    "owner orig id",
    "tree present",
    "genus",
    "species",
    "cultivar",
    "other part of name",
    "common name",
    "diameter",
    "tree height",
    "canopy height",
    "date planted",
)


def _export(tmp_path, text: str) -> list[dict[str, str]]:
    src = tmp_path / "street_trees.csv"
    src.write_text(text, encoding="utf-8")
    out = tmp_path / "otm.csv"
    assert main(["survey", str(src), "--export", "opentreemap", "--out", str(out)]) == 0
    return list(csv.DictReader(out.open(newline="", encoding="utf-8")))


def test_a_sugar_maple_green_mountain_keeps_its_cultivar(tmp_path):
    # a street-tree survey as a field crew writes it: the cultivar in quotes after the species, and in a
    # column of its own on another row
    rows = _export(
        tmp_path,
        "Tree ID,Species,Cultivar,DBH (in),Action,Latitude,Longitude\n"
        "ST-1,Acer saccharum 'Green Mountain',,14,Retain,41.2089,-73.8912\n"
        "ST-2,Acer saccharum,Green Mountain,11.5,Remove,41.2090,-73.8913\n"
        "ST-3,Gleditsia triacanthos var. inermis,,9,Removed,41.2091,-73.8914\n"
        "ST-4,Quercus rubra,,22,Retain,41.2092,-73.8915\n",
    )
    assert len(rows) == 4
    head = list(rows[0])
    # only the importer's own names, in its order: no "i-tree region" or "custom id" it would not know
    assert set(head) <= set(OTM_TREE_FIELDS), set(head) - set(OTM_TREE_FIELDS)
    assert head == [f for f in OTM_TREE_FIELDS if f in head]
    # every field the survey gives: position, tag, species in its parts, diameter, whether the tree stands
    for f in ("point x", "point y", "owner orig id", "genus", "species", "cultivar", "common name", "diameter"):
        assert f in head, f
    first, second, third, fourth = rows
    assert (first["genus"], first["species"], first["cultivar"]) == ("Acer", "saccharum", "Green Mountain")
    assert (second["genus"], second["species"], second["cultivar"]) == ("Acer", "saccharum", "Green Mountain")
    assert first["common name"] == "Sugar maple" and first["diameter"] == "14.0"
    assert first["owner orig id"] == "ST-1"
    assert (first["point x"], first["point y"]) == ("-73.8912", "41.2089")
    assert third["other part of name"] == "var. inermis" and third["cultivar"] == ""
    assert fourth["cultivar"] == "" and fourth["other part of name"] == ""
    # the survey says ST-3 was removed: no tree stands at that planting site; the others stand
    assert [r["tree present"] for r in rows] == ["True", "True", "False", "True"]
