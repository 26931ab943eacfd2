"""Errors of survey ingest."""

from __future__ import annotations


class SurveyError(ValueError):
    """A file-level refusal: too big, a zip bomb, not the format its name says,
    unreadable, or no header row. The message says what to do."""


class IngestInvariantError(AssertionError):
    """An internal bug: a row was neither accepted nor rejected."""
