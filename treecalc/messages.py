"""Messages name an input by its keyword, never by a command-line flag or an app control.

A note, an assumption or an error that tells the user what to give names the input as a marker:
``‹replacement_cost_usd›`` (an option of :func:`treecalc.assess`, a parameter of the water and excavation
functions), ``‹has_residence=true›`` (a site fact, with the value to give it; any keyword can carry a value
this way, ``‹prices=hydro_interception=USD›``). The JSON carries the markers as they are, for a program to
parse (:data:`MARK`); each reader renders them in its own words: the command line as its flags
(:mod:`treecalc.cli.words`), the app as its controls (:mod:`treecalc.app.words`), the library itself, for a
caller who set no words, as the keyword (``replacement_cost_usd``, ``has_residence=true``).

The statement and the PDF report render their lines with the words in force (:func:`speaking`): the
command line speaks for the whole run, the app for the page it draws. Standard library only.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Callable, Iterator

__all__ = [
    "MARK",
    "WORDS_GROUP",
    "keywords",
    "mark",
    "plain",
    "quoted",
    "render",
    "shown",
    "speaking",
    "voice",
    "words_of",
]

#: A keyword marker: ``‹name›`` or ``‹name=value›`` (the value runs to the closing mark, ``=`` included).
MARK = re.compile(r"‹([a-z][a-z0-9_]*)(?:=([^›]*))?›")

#: (keyword, value or None) -> the words a reader shows for it
Words = Callable[[str, "str | None"], str]


def mark(name: str, value: object = None) -> str:
    """The marker of keyword ``name`` (with the value to give it, when there is one)."""
    return f"‹{name}›" if value is None else f"‹{name}={value}›"


def keywords(text: str) -> list[str]:
    """The keywords ``text`` names, in order (each once)."""
    return list(dict.fromkeys(m.group(1) for m in MARK.finditer(str(text))))


def plain(name: str, value: str | None) -> str:
    """The library's own words for a keyword: the keyword itself, as :func:`treecalc.assess` takes it."""
    return name if value is None else f"{name}={value}"


def render(text: str, words: Words = plain) -> str:
    """``text`` with each marker in ``words`` (a text without markers is returned as it is)."""
    s = str(text)
    return MARK.sub(lambda m: words(m.group(1), m.group(2)), s) if "‹" in s else s


_VOICE: contextvars.ContextVar[tuple[str, Callable[[str], str]] | None] = contextvars.ContextVar(
    "treecalc_voice", default=None
)


@contextlib.contextmanager
def speaking(name: str, words: Callable[[str], str]) -> Iterator[None]:
    """Within the block, :func:`shown` renders a text with ``words`` (a whole-text renderer), the reader ``name``
    ("cli", "app") recorded where a written report says whose words it has."""
    token = _VOICE.set((name, words))
    try:
        yield
    finally:
        _VOICE.reset(token)


def voice() -> str | None:
    """The name of the reader whose words are in force (None: the library's own)."""
    v = _VOICE.get()
    return v[0] if v else None


def shown(text: str) -> str:
    """``text`` as the reader in force shows it (the keyword itself when none is)."""
    s = str(text)
    if "‹" not in s:
        return s
    v = _VOICE.get()
    return v[1](s) if v else render(s)


def quoted(text: object, limit: int = 80) -> str:
    """An input's text as an error quotes it: its ``repr`` whole when short, else its first ``limit`` characters,
    an ellipsis and its length (a 5 MB species name echoed whole buries the sentence, and the terminal). The one
    place every message quoting a user's cell, argument or line cuts it (:func:`treecalc.ingest.values.short`)."""
    t = str(text)
    if len(t) <= limit:
        return repr(t)
    return repr(t[:limit]) + f"... ({len(t):,} characters)"


#: The entry-point group each presenter names its renderer in (pyproject.toml ``[project.entry-points]``): a
#: statement written by the app or the command line is written again in that presenter's words when it is
#: verified, without the library importing the presenter above it.
WORDS_GROUP = "treecalc.words"


def words_of(presenter: str) -> Callable[[str], str] | None:
    """The renderer the presenter ``presenter`` (``"app"``, ``"cli"``) declares in :data:`WORDS_GROUP`; None when it
    is not installed (the app's extra left out)."""
    from importlib.metadata import entry_points  # start-up: read only when a statement is verified

    for ep in entry_points(group=WORDS_GROUP, name=presenter):
        try:
            return ep.load()
        except ImportError:
            return None
    return None


# --- how a sentence cites sections (read from the law file: treecalc.law.cites) --------------------------------

#: a section, its subsection's letter, its paragraphs: "§NNN-NNA(1)" -> ("§NNN-NN", "A", "(1)")
_PARTS = re.compile(r"^(§+ ?\d+-\d+)([A-Z]?)((?:\(\w+\))*)$")


def _parts(section: str) -> tuple[str, str, str]:
    """A section's parts; a citation that is no numbered section ("the law", "Chapter 95 penalties, A") is its own
    whole, with no letter or paragraph to add."""
    m = _PARTS.match(section.strip())
    if not m:
        return section, "", ""
    return m[1], m[2], m[3]


def head(section: str) -> str:
    """The whole section a subsection is of: "§208-22A" -> "§208-22", "§208-29B(7)" -> "§208-29"."""
    return _parts(section)[0]


def subsection(section: str) -> str:
    """The subsection a paragraph is of: "§208-29B(7)" -> "§208-29B", "§208-6A(1)" -> "§208-6A"."""
    whole, letter, _ = _parts(section)
    return whole + letter


def letter(section: str) -> str:
    """A subsection's letter and paragraph as a sentence adds it to another of the same section ("F", "B(7)")."""
    _, sub, para = _parts(section)
    return sub + para


def joined(first: str, *more: str) -> str:
    """Subsections of one section cited together: ("§208-22A", "§208-22F") -> "§208-22A/F"; of another section,
    the whole of it ("§208-22D/§208-24")."""
    out = first
    for s in more:
        out += "/" + (letter(s) if letter(s) and head(s) == head(first) else s)
    return out
