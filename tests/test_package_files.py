"""The files a Python user looks for beside the code: the licence pyproject.toml declares, the version in one place,
a changelog in the keep-a-changelog form, a citation file the Citation File Format schema accepts, and metadata
PyPI would take (known classifiers)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import jsonschema
import trove_classifiers
import yaml

import treecalc

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]


def test_the_licence_file_is_the_standard_text_of_the_licence_declared():
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    # the SPDX MIT text (spdx.org/licenses/MIT), paragraph by paragraph, words compared with the whitespace folded
    words = " ".join(text.split())
    assert words.startswith("MIT License Copyright (c) 2026 ")
    for paragraph in (
        "Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated "
        'documentation files (the "Software"), to deal in the Software without restriction, including without '
        "limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of "
        "the Software, and to permit persons to whom the Software is furnished to do so, subject to the following "
        "conditions:",
        "The above copyright notice and this permission notice shall be included in all copies or substantial "
        "portions of the Software.",
        'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT '
        "LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO "
        "EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER "
        "IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE "
        "USE OR OTHER DEALINGS IN THE SOFTWARE.",
    ):
        assert paragraph in words
    assert words.endswith("USE OR OTHER DEALINGS IN THE SOFTWARE.")


def test_the_version_is_written_once():
    # before: "0.1.0" in pyproject.toml and again in treecalc/__init__.py, free to disagree
    assert "version" not in PROJECT and "version" in PROJECT["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "treecalc.schema.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", treecalc.__version__)
    literal = re.compile(r"""(?:__version__|\bversion)\s*[:=]\s*["']\d+\.\d+""")
    written = [
        p.relative_to(ROOT).as_posix()
        for p in [ROOT / "pyproject.toml", ROOT / "CITATION.cff", *sorted((ROOT / "treecalc").rglob("*.py"))]
        if literal.search(p.read_text(encoding="utf-8"))
    ]
    assert written == ["treecalc/schema.py"]
    out = subprocess.run(
        [sys.executable, "-m", "treecalc", "--version"], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == f"treecalc {treecalc.__version__}"


SECTIONS = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def test_the_changelog_is_in_the_keep_a_changelog_form_up_to_this_version():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n") and "keepachangelog.com/en/1.1.0" in text
    versions = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}|Unreleased))?$", text, flags=re.M)
    headings = re.findall(r"^## .*$", text, flags=re.M)
    assert len(versions) == len(headings) >= 1, headings  # every release heading in the form "## [x.y.z] - date"
    assert versions[0][0] == treecalc.__version__  # the newest entry is this release
    assert versions[-1][0] == "0.1.0"
    sections = re.findall(r"^### (.*)$", text, flags=re.M)
    assert sections and set(sections) <= SECTIONS, sections
    # each version's link at the foot, as keep-a-changelog writes them, or none at all
    assert not re.findall(r"^\[[\d.]+\]: ", text, flags=re.M) or all(
        re.search(rf"^\[{re.escape(v)}\]: ", text, flags=re.M) for v, _ in versions
    )


def test_the_citation_file_is_valid_citation_file_format():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    # the Citation File Format 1.2.0 schema (citation-file-format/citation-file-format, CC-BY-4.0), as kept beside
    # this test; cffconvert --validate checks against the same file
    schema = json.loads((ROOT / "tests" / "data" / "citation-file-format-1.2.0.schema.json").read_text("utf-8"))
    jsonschema.validate(cff, schema, cls=jsonschema.Draft7Validator, format_checker=jsonschema.FormatChecker())
    assert cff["cff-version"] == "1.2.0"
    assert cff["title"] == PROJECT["name"] and cff["license"] == PROJECT["license"]
    assert cff["abstract"] == PROJECT["description"]
    assert {a.get("name") for a in cff["authors"]} == {a["name"] for a in PROJECT["authors"]}
    assert set(cff["keywords"]) == set(PROJECT["keywords"])


def test_the_classifiers_are_ones_pypi_knows():
    classifiers = PROJECT["classifiers"]
    assert "Typing :: Typed" in classifiers and (ROOT / "treecalc" / "py.typed").is_file()
    assert [c for c in classifiers if c not in trove_classifiers.classifiers] == []
    # the Python versions said are those requires-python allows
    assert PROJECT["requires-python"] == ">=3.11"
    said = [c.rsplit(" ", 1)[1] for c in classifiers if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    assert said and all(int(v.split(".")[1]) >= 11 for v in said)
