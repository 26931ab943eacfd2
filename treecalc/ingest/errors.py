"""Errors of survey ingest, and the refusal of a survey of which no tree could be read."""

from __future__ import annotations

from typing import Any


class SurveyError(ValueError):
    """A file-level refusal: too big, a zip bomb, not the format its name says,
    unreadable, or no header row. The message says what to do."""


class ReaderStopped(SurveyError):
    """The reader was stopped by its time or memory limit: not a fault of the file's content alone, so the same
    file may read on another try (a less loaded machine) or with a higher limit."""


class NoTreeReadError(SurveyError):
    """A survey of which no tree could be read (every row rejected, or none below the header): an assessment of
    it would answer "no permit required" about trees it never read, so it is refused."""


class AmbiguousActionError(SurveyError):
    """Two columns could each be the trees' action (what is to be done) and say different things on some row:
    which one is the action is the user's to say (``column_map``). ``headers`` are the two columns' headers."""

    def __init__(self, message: str, headers: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.headers = tuple(headers)

    def __reduce__(self):  # pickled whole across the isolated reader's pipe: the headers with the message
        return (type(self), (str(self), self.headers))


def require_trees(survey: Any) -> None:
    """Refuse (:class:`NoTreeReadError`) a survey of which no tree could be read: every row rejected, or no row
    below the header. Its assessment would say "no permit required" of trees it never read. The reader itself
    returns such a survey (its rejected rows say what to fix); every assessment of it refuses it."""
    trees = getattr(survey, "trees", None)
    if trees is None or len(trees):
        return
    name = (getattr(survey, "source", None) or {}).get("file") or "the survey"
    rejected = getattr(survey, "rejected", None)
    n = 0 if rejected is None else len(rejected)
    if rejected is None or not n:
        detail = "no rows below the header"
    else:
        first = str(rejected["reason"].iloc[0]) if "reason" in rejected else ""
        detail = f"{n} {'row' if n == 1 else 'rows'} rejected" + (f", first: {first[:500]}" if first else "")
    raise NoTreeReadError(f"no tree could be read from {name}: {detail}")


class IngestInvariantError(AssertionError):
    """An internal bug: a row was neither accepted nor rejected."""
