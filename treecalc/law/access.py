"""The law as the rules read it: each jurisdiction's plain numbers (``data/law/<key>/<chapter>.toml``), the labels
that quote them, the comparison each states, and the names of the one registry of jurisdictions.

Thin wrappers over the one loader (:mod:`treecalc.law.loader`: schema, dated values, validation), kept for the
rules that read the plain numbers; the typed entries are :func:`treecalc.law.at`'s.

The rules modules hold no amounts, percentages or DBH thresholds of their own:
they read them here, so an amendment is an edit of a TOML file. Money is read
as :class:`decimal.Decimal` (TOML strings or integers), never as a binary float.
"""

from __future__ import annotations

import datetime as dt
import functools
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from treecalc.law import TREE_CHAPTER, loader, operator_of, resolved
from treecalc.law import registry as _registry
from treecalc.law.loader import CACHES, _resolved_cached, effective
from treecalc.law.nodes import readings_shared
from treecalc.law.registry import REGISTRY
from treecalc.law.schema import LawNotInForce, as_date, compare
from treecalc.law.words import period_words, site_why, spelled, spelled_years  # noqa: F401 (the rules read them here)
from treecalc.reference import datafolder

#: ``law/`` of the one data folder (:data:`treecalc.reference.datafolder.DATA_DIR`: ``TREECALC_DATA`` when set).
LAW_DIR = datafolder.LAW_DIR
DEFAULT_FEE_SCHEDULE = LAW_DIR / "croton_on_hudson" / "fee_schedule.toml"


def default_fee_schedule() -> Path:
    """The Engineer's copy of the Board's fee schedule in the data folder read now (:data:`DEFAULT_FEE_SCHEDULE`
    when the folder is the one treecalc started with)."""
    return datafolder.DATA_DIR / "law" / "croton_on_hudson" / "fee_schedule.toml"


#: Each registered law's key -> its name (the records: :mod:`treecalc.law.registry`).
JURISDICTIONS = _registry.NamesView()
#: How the jurisdictions are named to a user (either spelling of a key is accepted).
JURISDICTION_CHOICES = _registry.choices()
jurisdiction_key = _registry.jurisdiction_key


def read_toml(path: str | Path) -> dict[str, Any]:
    """A TOML file; one of the data folder's (``readings/site_facts.toml``) is read by
    :func:`treecalc.reference.datafolder.read_data_toml`, which names a missing file or table and the folder."""
    p = Path(path)
    try:
        rel = p.relative_to(datafolder.DATA_DIR)
    except ValueError:
        rel = None
    if rel is not None:
        return datafolder.read_data_toml(rel.as_posix(), datafolder.DATA_DIR)
    with open(p, "rb") as f:
        return tomllib.load(f)


def law(jurisdiction: str, on: dt.date | None = None) -> dict[str, Any]:
    """The law's numbers for a jurisdiction in force on ``on`` (None: the latest held), with treecalc's
    readings merged in (:func:`treecalc.law.resolved`; a fresh copy: callers may not share edits)."""
    return resolved(jurisdiction_key(jurisdiction), on)


def law_file(jurisdiction: str) -> Path:
    """The file of a jurisdiction's tree chapter (``data/law/croton_on_hudson/ch208_trees.toml``; a village held
    outside the data folder: the one in its record's ``data_dir``)."""
    key = jurisdiction_key(jurisdiction)
    held = _registry.by_key(key).data_dir
    return (Path(held) / "law" if held is not None else LAW_DIR) / key / f"{TREE_CHAPTER[key]}.toml"


def _law_cached_alias() -> Any:
    return loader._resolved_cached


#: The cache of the resolved law (one entry per jurisdiction and date read): :func:`treecalc.law.resolved`'s.
_law_cached = _law_cached_alias()


def fill(texts: dict[str, str], law: dict[str, Any], **words: str) -> dict[str, str]:
    """Readings' sentences (``[site_why]``) filled from the law in force: ``{permit[window_months]:g}`` a number of
    ``law`` (:func:`law`), ``{name}`` one of ``words`` (a number in the ordinance's words, "one year")."""
    return {k: v.format_map({**law, **words}) for k, v in texts.items()}


#: The date the labels that quote a law's number are filled on, while an output of an assessment is written
#: (:func:`labels_on`): the assessment's own date, so that a statement assessed on an earlier date is not
#: labelled with a later amendment's number
_LABELS_ON: ContextVar[dt.date | None] = ContextVar("treecalc_labels_on", default=None)


@contextmanager
def labels_on(on: Any) -> Iterator[None]:
    """Fill the labels that quote a law's number (:func:`labels`) from the law in force on ``on`` (a date or its
    ISO text: an assessment's ``options["on"]``) while the block runs; ``None`` leaves them on today's."""
    token = _LABELS_ON.set(as_date(on) if on else None)
    try:
        yield
    finally:
        _LABELS_ON.reset(token)


def labels(table: str, on: dt.date | None = None) -> dict[str, str]:
    """The labels that quote a number of a law, of the readings' table ``table`` of every village
    (``data/readings/<village>.toml``), filled from the law in force on ``on`` (else the date set by
    :func:`labels_on`, else today: the date an assessment is made on when none is given) with its numbers and its
    periods in words ("one year"); a village whose law was not yet in force then is read as its earliest version held
    (its labels label nothing that day's assessment reads). The first law of the registry to label a name labels it."""
    day = on or _LABELS_ON.get() or dt.date.today()
    # the same few tables are asked for ~1,000 times a run of an app page: filled once per day and registry
    where = tuple((name, str(rec.data_dir)) for name, rec in REGISTRY.items())
    return dict(_labels(table, day, where, str(datafolder.DATA_DIR)))


@functools.cache
def _labels(table: str, day: dt.date, registered: tuple[tuple[str, str], ...], _data: str) -> dict[str, str]:
    """:func:`labels` of ``table`` on ``day`` for the laws ``registered`` (name, folder) read from the data folder
    ``_data`` (a town registered later, or another folder, is another key); forgotten with the files read
    (:data:`~treecalc.law.loader.CACHES`)."""
    out: dict[str, str] = {}
    for name, _ in reversed(registered):
        key = jurisdiction_key(REGISTRY[name].key)
        try:
            held = _resolved_cached(key, day)  # read only: no copy
        except LawNotInForce:  # the earliest version held: the nearest to the day, never a later amendment's
            held = _resolved_cached(key, effective(key)["date"])
        out.update(fill(readings_shared(key).get(table) or {}, held, **period_words(held)))  # fill copies
    return out


CACHES.append(_labels)


def column_labels() -> dict[str, str]:
    """The labels of the survey columns that quote a number of a law (``[column_labels]``: "Slope over 20%" is
    §208-19A(3)'s percentage), of the law in force on the labels' date (:func:`labels`). Read at call time (an
    amended data folder relabels them)."""
    return labels("column_labels")


def multiplied(factor: Any) -> dict[str, str]:
    """How a sentence says amounts multiplied by ``factor`` (§208-29B(7)'s "shall be doubled"): ``{"ed":
    "doubled", "es": "doubles", "ing": "doubling", "verb": "double"}`` for 2, "tripled" ... for 3, "multiplied by
    5" ... otherwise, so that an amended factor is never said "doubled"."""
    f = float(factor)
    stem = {2.0: "doubl", 3.0: "tripl", 4.0: "quadrupl"}.get(f)
    if stem:
        return {"ed": f"{stem}ed", "es": f"{stem}es", "ing": f"{stem}ing", "verb": f"{stem}e"}
    n = f"{f:g}"
    return {
        "ed": f"multiplied by {n}",
        "es": f"multiplies by {n}",
        "ing": f"multiplying by {n}",
        "verb": f"multiply by {n}",
    }


def meets(jurisdiction: str, key: str, x: Any, value: Any, chapter: str | None = None) -> Any:
    """``x <operator> value``: a comparison as the law states it ("more than", "or more", "within"), the
    operator the entry ``key`` of the tree chapter holds (``permit.parcel_min_dbh_in`` ``>=``), or of the file
    ``chapter`` names (``"ch223_water"``: ``relevy_overdue_days`` ``>``), ``value`` the number in force on the
    assessment's date. Arrays compare elementwise."""
    return compare(operator_of(jurisdiction_key(jurisdiction), key, chapter), x, value)
