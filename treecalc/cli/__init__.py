"""Command line: ``treecalc benefits | benefits-batch | survey | assess | verify | plan | water | water-penalty |
excavation | case | user | fee-schedule | app`` (also ``python -m treecalc``).

One module per command (:mod:`treecalc.cli.benefits`, ``survey``, ``assess``, ``plan``, ``water``,
``excavation``), each with ``register(subparsers)``; what they share is in
:mod:`treecalc.cli.common`. The CLI holds no domain logic: it parses arguments, calls the library
and prints what it returns. Errors are printed as one ``error:`` line (exit 2), never as a
traceback.

Start-up is kept light: these modules import only the standard library at the top; pandas,
numpy, scipy and openpyxl are imported by the command that runs, so ``treecalc --help`` answers
at once.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Sequence
from typing import Any

from treecalc import __version__
from treecalc.cli import (
    account,
    app,
    assess,
    batch,
    benefits,
    case,
    excavation,
    fee_schedule,
    jurisdictions,
    plan,
    survey,
    verify,
    water,
    words,
)
from treecalc.cli.common import QUIET, Parser, dump_json, say_helps
from treecalc.messages import quoted, speaking

__all__ = ["build_parser", "dump_json", "main"]

#: the commands that can run long and draw a progress line on a terminal: --quiet draws none
LONG_COMMANDS = ("assess", "plan", "benefits-batch", "survey")


class _PrintCompletion(argparse.Action):
    """``--print-completion SHELL``: the script is written by shtab from a parser built with shtab's own option
    (:func:`build_parser` ``completion=True``), so shtab is imported only when a script is asked for."""

    def __call__(self, parser: Any, namespace: Any, values: Any, option_string: str | None = None) -> None:
        import shtab  # only when a completion script is asked for: it cost every command ~0.08 s (start-up)

        if values not in shtab.SUPPORTED_SHELLS:
            parser.error(f"--print-completion {values}: give one of {', '.join(shtab.SUPPORTED_SHELLS)}")
        print(shtab.complete(build_parser(completion=True), values))
        parser.exit(0)


def build_parser(completion: bool = False) -> argparse.ArgumentParser:
    """The command line's parser; ``completion``: with shtab's ``--print-completion`` and the files each command
    completes, from which shtab writes the shell's script (imported only then: start-up)."""
    ap = Parser(
        prog="treecalc",
        description="Tree survey to environmental value (i-Tree Streets, 16 US climate zones), Chapter 208 permits, "
        "replacement, Tree Preservation Fund and penalties; companions for water-bill penalties "
        "and excavation.",
        epilog="Run 'treecalc COMMAND --help' for the options of one command.",
    )
    ap.add_argument("--version", action="version", version=f"treecalc {__version__}")
    # `treecalc --print-completion bash|zsh`: shtab writes the shell's completion script from this very parser (the
    # commands, their flags and choices; files where a command takes one), so it never lags behind the flags
    help_ = "print the shell completion script (bash, zsh, tcsh)"
    if completion:
        import shtab  # only when a completion script is asked for (start-up)

        shtab.add_argument_to(ap, ["--print-completion"], help=help_)
    else:
        ap.add_argument("--print-completion", action=_PrintCompletion, metavar="SHELL", help=help_)
    sub = ap.add_subparsers(dest="command", required=True)
    for command in (
        benefits,
        batch,
        survey,
        assess,
        verify,
        plan,
        water,
        excavation,
        case,
        account,
        fee_schedule,
        jurisdictions,
        app,
    ):
        command.register(sub)
    for name in LONG_COMMANDS:
        sub.choices[name].add_argument(
            "-q", "--quiet", action="store_true", help="draw no progress line (errors and notes are still said)"
        )
    if completion:
        say_helps(ap)  # the excavation options' sections, read from the law when a help is written
        for parser in sub.choices.values():  # a survey, an inventory or a statement: the shell offers files
            for action in parser._actions:
                if not action.option_strings and action.dest in ("file", "input", "statement", "survey"):
                    action.complete = shtab.FILE  # type: ignore[attr-defined]
    return ap


words.use_parser(
    build_parser, assess.add_assess_flags
)  # the flags the library's keywords are said as, read off this parser


def main(argv: Sequence[str] | None = None) -> int:
    ap = build_parser()
    a = ap.parse_args(argv)
    quiet = QUIET.set(bool(getattr(a, "quiet", False)))
    try:
        with speaking("cli", words.render):  # the statement and the report name the flags, as the text does
            rc = int(a.func(a) or 0)
        sys.stdout.flush()  # a pipe closed early is met here, below, not as a traceback when the interpreter exits
        return rc
    except BrokenPipeError:  # output piped into `head` and closed early: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ValueError, OSError, KeyError) as e:
        from treecalc.reference.species import UnknownSpecies  # (a ValueError) start-up: only when there is an error

        if isinstance(e, UnknownSpecies):
            print(f"error: unknown species {quoted(e.name)}", file=sys.stderr)
            if e.suggestions:
                print("did you mean: " + words.render("; ".join(e.suggestions)), file=sys.stderr)
            return 2

        if isinstance(e, OSError) and e.errno == errno.ENOSPC:  # the disk named, not "[Errno 28]"
            where = f": {e.filename} could not be written" if e.filename else ""
            print(f"error: the disk is full{where}; free some space and run it again", file=sys.stderr)
            return 2
        print(f"error: {words.render(e)}", file=sys.stderr)
        return int(getattr(e, "exit_code", 2))  # a damaged register: 1, as the audit that finds it
    except Exception as e:
        if type(e).__module__.startswith("sqlalchemy"):  # the register's database refused or is unreachable
            orig = getattr(e, "orig", None) or e
            print(f"error: the register's database: {str(orig).strip().splitlines()[0][:300]}", file=sys.stderr)
            return 2
        raise
    finally:
        QUIET.reset(quiet)
