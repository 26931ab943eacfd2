"""The command line reference page is read off the parsers: every command and subcommand, and every flag of
each, is on it, so a flag added to a parser is on the page with no edit."""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tools.docs_hooks import cli_page  # noqa: E402
from treecalc.cli import build_parser  # noqa: E402


def _commands(parser, prog="treecalc"):
    yield prog, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _commands(sub, f"{prog} {name}")


def test_every_command_and_flag_is_on_the_page():
    page = cli_page()
    commands = list(_commands(build_parser()))
    assert len(commands) > 20  # assess, benefits, case (and its subcommands), water, excavation, ...
    for prog, parser in commands:
        assert f"`{prog}`" in page, prog
        for action in parser._actions:
            for flag in action.option_strings:
                assert flag in page, (prog, flag)
    assert "`treecalc water penalty`" in page and "--as-of" in page
