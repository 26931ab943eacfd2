"""The README is the front page, not the manual: at most 10 KB, each link it gives leads to a file of the
repository, and no test reads a section of it (the manual's pages are under docs/)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def test_readme_is_at_most_10_kb():
    assert README.stat().st_size <= 10 * 1024


def test_every_link_of_the_readme_leads_to_a_file():
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README.read_text(encoding="utf-8"))
    local = [link for link in links if "://" not in link]
    assert len(local) >= 10  # the guides, the docs' parts and the screenshot
    missing = [link for link in local if not (ROOT / link).is_file()]
    assert not missing


def test_the_readme_links_each_role_guide_and_part_of_the_docs():
    text = README.read_text(encoding="utf-8")
    for page in (
        "docs/guides/arborist.md",
        "docs/guides/applicant.md",
        "docs/guides/engineer.md",
        "docs/guides/clerk.md",
        "docs/index.md",
        "docs/library.md",
        "docs/case-register.md",
        "docs/performance.md",
        "docs/reference/api.md",
        "docs/gallery/index.md",
    ):
        assert f"]({page})" in text, page
    assert "make run" in text and "make test" in text
    assert len(re.findall(r"^\.venv/bin/treecalc ", text, flags=re.M)) == 3  # three command line examples


def test_no_test_reads_the_readme():
    # a test that takes README.md's prose or tables as a fixture makes them a test's data; the tests that read it
    # check it (its size and links here, its commands parsing with the real parsers) or copy it into the wheel
    readers = sorted(
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "tests").rglob("*.py")
        if re.search(r"""["']README\.md["']""", p.read_text(encoding="utf-8"))
    )
    assert readers == ["tests/docs/test_docs_commands.py", "tests/docs/test_docs_readme.py", "tests/test_packaging.py"]
