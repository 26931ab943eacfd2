"""Errors of survey ingest."""

from __future__ import annotations


class SurveyError(ValueError):
    """A file-level refusal: too big, a zip bomb, not the format its name says,
    unreadable, or no header row. The message says what to do."""


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


class IngestInvariantError(AssertionError):
    """An internal bug: a row was neither accepted nor rejected."""
