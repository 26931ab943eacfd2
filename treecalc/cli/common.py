"""What the CLI's commands share: JSON output, progress, the benefit flags, ``error:`` lines.

Standard library only at the top, so ``treecalc --help`` stays fast.
"""

from __future__ import annotations

import argparse
import contextvars
import datetime as dt
import json
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, Protocol

from treecalc.cli.words import flags, render
from treecalc.law.cites import cite

#: ``--quiet`` of the command running: no progress line, even on a terminal (errors and notes are still said)
QUIET: contextvars.ContextVar[bool] = contextvars.ContextVar("treecalc_cli_quiet", default=False)

#: the survey argument that reads standard input, and the name its bytes go by in messages and the fingerprint
STDIN = "-"
STDIN_NAME = "standard input"


def _json_default(o: Any) -> Any:
    """Exact amounts (Decimal) as their text, dates in ISO form, numpy scalars as Python's: the fingerprint's
    (:func:`treecalc.report.fingerprint.json_default`), whose result hash is of this very text."""
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.report.fingerprint import json_default

    return json_default(o)


def dump_json(obj: Any) -> None:
    """Print ``obj`` as JSON: indented on a terminal, one line into a pipe or file.

    Indented output goes through the json module's pure-Python encoder (its C
    encoder does not indent): for a 50,000-tree assessment that is seconds
    instead of a fraction of one, so output meant for programs is not indented.
    """
    indent = 2 if sys.stdout.isatty() else None
    print(json.dumps(obj, indent=indent, default=_json_default, ensure_ascii=False))


def stderr_progress() -> Any:
    """A ``progress(fraction, message)`` callback drawing one line on a terminal's stderr.

    None when stderr is not a terminal (CI, pipes), so logs stay clean, and under ``--quiet``.
    """
    if QUIET.get() or not sys.stderr.isatty():
        return None

    def show(fraction: float, message: str) -> None:
        end = "\n" if fraction >= 1 else ""
        print(f"\r{fraction:4.0%}  {message[:70]:<70}", end=end, file=sys.stderr, flush=True)

    return show


def survey_source(path: str, max_bytes: int = 50_000_000) -> str | bytes:
    """The survey argument as the reader takes it: a file's name, or for ``-`` the bytes piped in, at most
    ``max_bytes`` and one more (the reader refuses what is larger, naming the limit). Those bytes are read as a
    file's are: their content says what they are (xlsx, CSV, a GIS layer), there being no name to go by."""
    if path != STDIN:
        return path
    if sys.stdin is None or sys.stdin.isatty():  # waiting on a terminal would look like a hang
        raise ValueError(
            "survey '-' reads standard input, but nothing is piped in: pipe the survey in "
            "(treecalc assess - < survey.xlsx) or give its file name"
        )
    return sys.stdin.buffer.read(max_bytes + 1)


def repeatable(p: argparse.ArgumentParser | argparse._ArgumentGroup, flag: str, metavar: str, help: str) -> None:
    """A flag given any number of times: its values as a list, ``[]`` when it is not given."""
    p.add_argument(flag, action="append", default=[], metavar=metavar, help=help)


def add_options(p: argparse.ArgumentParser, *flags: tuple[str, str, str]) -> None:
    """Flags that take one value each, from ``(flag, metavar, help)`` rows (dest: the flag's name with '_' for '-')."""
    for flag, metavar, why in flags:
        p.add_argument(flag, metavar=metavar, help=why)


def help_section(key: str) -> str:
    """The section a flag's help cites for ``key`` (an entry's or a provision's key), as the default law in force
    today cites it. Help is written for every command before any runs: a data folder that cannot be read is refused
    by the command itself (exit 2), so its help names the chapter instead of failing here."""
    try:
        return cite(None, key, dt.date.today())
    except Exception:  # noqa: BLE001 - any failure to read the data is said by the command's own check
        return "the chapter"


#: the attribute of a parser holding what writes its helps that cite the law (:func:`helps_cite_the_law`)
_SAY_HELPS = "_treecalc_say_helps"


def helps_cite_the_law(p: argparse.ArgumentParser, cited: Callable[[], dict[str, str]]) -> None:
    """The helps of ``p``'s options naming a section as ``{name}`` are written with ``cited()`` (name -> section)
    when a help is asked for, not when the parser is built: the command line is built for every command, and a
    command reads no law file it does not apply. A completion script writes them first (:func:`say_helps`)."""
    written = {a: a.help for a in p._actions if a.help and "{" in a.help}

    def say() -> None:
        held = cited()
        for action, words in written.items():
            action.help = words.format(**held)

    formatted = p.format_help

    def format_help() -> str:
        say()
        return formatted()

    p.format_help = format_help  # type: ignore[method-assign]
    setattr(p, _SAY_HELPS, say)


def say_helps(p: argparse.ArgumentParser) -> None:
    """The helps of ``p`` and its subcommands written as their ``--help`` writes them (:func:`helps_cite_the_law`):
    for shtab, which reads the helps as they stand."""
    getattr(p, _SAY_HELPS, lambda: None)()
    for a in p._actions:
        if isinstance(a, argparse._SubParsersAction):
            for child in a.choices.values():
                say_helps(child)


def add_switches(p: argparse.ArgumentParser, *flags: tuple[str, str], default: bool | None = False) -> None:
    """Yes/no flags from ``(flag, help)`` rows: True when given, else ``default`` (None: "not said")."""
    for flag, why in flags:
        p.add_argument(flag, action="store_true", default=default, help=why)


def add_benefit_params(p: argparse.ArgumentParser) -> None:
    """Flags shared by every command that values trees."""
    p.add_argument(
        "--land-use",
        help="single_family, multi_family, small_commercial, industrial_large_commercial, "
        "commercial_industrial (not said which), institutional, park_vacant_other "
        "(default: unspecified)",
    )
    p.add_argument(
        "--home-price",
        type=float,
        metavar="USD",
        help="median single-family home sale price for the aesthetic benefit "
        "(default $500,000: a placeholder the Village sets)",
    )
    p.add_argument(
        "--large-tree-leaf-area",
        type=float,
        metavar="M2",
        help="leaf area of the large reference tree (default: BDL OTHER at 40 years, 583.8 m2)",
    )
    repeatable(p, "--price", "NAME=USD", "override a price of prices.csv, e.g. electricity=0.21 (repeatable)")
    p.add_argument(
        "--zone",
        metavar="CODE",
        help="i-Tree Streets climate zone, as the data spells it (PiedmtCLT, MidWstMSP, ...) or its name "
        "(South, Midwest, ...); default: the Northeast (NoEastXXX) tables",
    )


def benefit_kwargs(a: argparse.Namespace) -> dict[str, Any]:
    from treecalc.quantities import in_range  # start-up: with the command that runs, not every command

    prices = {}
    for item in a.price:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--price {item!r}: expected NAME=USD")
        try:
            float(value)
        except ValueError:
            raise ValueError(f"--price {item!r}: {value!r} is not a number") from None
        prices[name.strip()] = in_range(f"--price {name.strip()}", value, "price_usd")
    if a.home_price is not None:
        in_range("--home-price", a.home_price, "home_price_usd")
    if a.large_tree_leaf_area is not None:
        in_range("--large-tree-leaf-area", a.large_tree_leaf_area, "leaf_area_m2")
    return {
        "home_price_usd": a.home_price,
        "large_tree_leaf_area_m2": a.large_tree_leaf_area,
        "prices": prices or None,
        "land_use": a.land_use,
        **({"zone": _zone_flag(a.zone)} if getattr(a, "zone", None) else {}),
    }


def _zone_flag(value: str) -> str:
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.reference import data

    try:
        return data.zone_code(value)
    except ValueError as e:
        raise ValueError(f"--zone: {e}") from None


#: What a flag of each argparse type takes, in the words of the one-line error for a value that is not one.
_TAKES = {"int": "a whole number", "float": "a number"}


class Parser(argparse.ArgumentParser):
    """The command line's parser: a flag's value that argparse cannot take is one ``error:`` line naming the flag
    and what it takes (exit 2), as the commands' own checks say theirs, not the usage of every flag and then the
    error; a value starting with ``-`` and a digit (``--excavate -100:4``, ``--cellar -3:25:8``) is the flag's
    value, refused by the flag's own range check, never taken for an unknown option."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # argparse's own: -5 and -.5 only; no flag of treecalc's looks like a number, so none is shadowed
        self._negative_number_matcher = re.compile(r"^-\.?\d[\d.:,eE+-]*$")

    def error(self, message: str) -> NoReturn:
        said = re.fullmatch(r"argument (\S+?)(?:/\S+)?: (?:invalid (\w+) value: (.*)|(expected one argument))", message)
        if said is None:
            super().error(message)  # usage, then the error: a command given without what it needs
        flag, kind, value, missing = said.groups()
        action = self._option_string_actions.get(flag)
        if missing:
            metavar = getattr(action, "metavar", None) or "a value"
            print(f"error: {flag} takes {metavar}, and none was given", file=sys.stderr)
        else:
            print(f"error: {flag} takes {_TAKES.get(kind, f'a {kind} value')}, got {value}", file=sys.stderr)
        self.exit(2)


def error(msg: str) -> int:
    print(f"error: {render(msg)}", file=sys.stderr)
    return 2


#: The parameters a library error may start with (``billed_consumption must not be negative``): the CLI says the
#: flag the user typed, the keyword table's (:func:`treecalc.cli.words.flag`).
_PARAMETERS = (
    "billed_consumption",
    "registration_error_pct",
    "test_fee",
    "rate_usd_per_unit",
    "amount",
    "due_date",
    "as_of",
    "permit_issued",
    "last_work",
    "lot_area_sqft",
    "retaining_wall_height_ft",
)
#: A parameter the library says in other words at the start of an error: (its words, the parameter, how the CLI
#: says them with the parameter's flag, ``{flag}``; ``\1`` the index of one of several values given).
_SAID = (
    (r"flow-rate result (\d+) \(error %\)", "registration_error_pct", r"{flag} \1"),
    (r"the average registration error", "registration_error_pct", "the average of {flag}"),
    (r"payment (\d+)\b", "payments", r"{flag} \1"),
    (r"bill (\d+)\b", "bills", r"{flag} \1"),
)


def _as_flags(msg: str) -> str:
    """``msg`` with the parameter name it starts with replaced by the CLI flag."""
    table = flags()  # a parameter no flag gives stays as the library said it (tests/cli hold both lists to it)
    for pat, key, said in _SAID:
        if key in table:
            new, n = re.subn("^" + pat, said.format(flag=table[key]), msg, count=1)
            if n:
                return new
    head = re.match(r"[a-z][a-z0-9_]*\b", msg)
    if head is not None and head.group() in _PARAMETERS and head.group() in table:
        return table[head.group()] + msg[head.end() :]
    return msg


def guard(fn: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Turn bad input (ValueError, OSError, KeyError) into ``error: ...`` and exit code 2."""

    def run(args: argparse.Namespace) -> int:
        try:
            return fn(args)
        except BrokenPipeError:  # output piped into `head` and closed early: the command's caller ends quietly
            raise
        except KeyError as e:  # str() of a KeyError is the repr of its key: say the key itself
            return error(_as_flags(str(e.args[0]) if e.args else "") or e.__class__.__name__)
        except (ValueError, OSError) as e:
            return error(_as_flags(str(e)) or e.__class__.__name__)

    run.__name__ = fn.__name__
    run.__doc__ = fn.__doc__
    return run


def dump_indented(obj: Any) -> None:
    print(json.dumps(obj, indent=2, ensure_ascii=False))


def split_parts(value: str, flag: str, parts: tuple[int, int], form: str) -> list[str]:
    bits = value.split(":")
    if not parts[0] <= len(bits) <= parts[1] or any(not b.strip() for b in bits):
        raise ValueError(f"{flag} {value!r}: expected {form}")
    return [b.strip() for b in bits]


class HasReadings(Protocol):
    """A companion result: its notes and its readings of unclear text."""

    @property
    def notes(self) -> Sequence[str]: ...

    @property
    def interpretation(self) -> Sequence[str]: ...


def print_readings(r: HasReadings) -> None:
    """The notes and the interpretation of unclear text every companion result carries."""
    for n in r.notes:
        print(f"note: {render(n)}")
    print("interpretation:")
    for n in r.interpretation:
        print(f"  - {render(n)}")


def choose_subcommand(parser: argparse.ArgumentParser, choices: str) -> Callable[[argparse.Namespace], int]:
    """The ``func`` of a command given without its subcommand: its help, then an error (exit 2)."""

    def run(a: argparse.Namespace) -> int:
        parser.print_help(sys.stderr)
        return error(f"choose a subcommand: {choices}")

    return run
