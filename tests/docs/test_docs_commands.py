"""The commands the README and the role guides show are commands treecalc takes: each line of their shell
blocks parses with the command line's own parsers (a renamed flag fails here, not in a reader's terminal)."""

import re
import shlex
from pathlib import Path

import pytest

from treecalc.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs" / "guides").glob("*.md"))]


def _commands() -> list[tuple[str, str]]:
    out = []
    for page in PAGES:
        for block in re.findall(r"```sh\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S):
            for line in block.splitlines():
                line = line.split("   #")[0].strip()
                m = re.match(r"^(?:\.venv/bin/)?treecalc (.+)$", line)
                if m:
                    out.append((page.name, m.group(1)))
    return out


COMMANDS = _commands()


def test_the_pages_show_commands():
    assert len(COMMANDS) >= 10  # README's three, and the guides'
    assert {page for page, _ in COMMANDS} >= {"README.md", "arborist.md", "applicant.md", "engineer.md", "clerk.md"}


@pytest.mark.parametrize(("page", "command"), COMMANDS)
def test_each_command_parses(page, command):
    build_parser().parse_args(shlex.split(command))
