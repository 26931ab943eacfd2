"""The text of ``treecalc assess --json``, written a column at a time (a survey of 50,000 trees in seconds).

``assessment_json_text(a, default)`` is ``json.dumps(assessment_json(a), ensure_ascii=False,
default=default)``, character for character, without making 50,000 dicts and encoding them one
value at a time. The tables of the object (``per_tree``, ``rejected_rows``, ``offence_rows``,
``not_offences``) are written from their columns:

- each column's values become JSON text as the json module writes them: ``float.__repr__``
  (NaN, which :func:`treecalc.report.json.records` makes None, as ``null``), ``int.__repr__``,
  ``true``/``false``, strings by the json module's own encoder, anything else by ``json.dumps``;
- a column of few distinct values (species, action, statuses, flags, penalty amounts) is written
  once per distinct value, and a run of such columns side by side once per distinct combination
  of them, keys included;
- each row is then one ``%`` of a row template.

For 50,000 trees this is about a third of building the dicts and dumping them.
``tests/report/test_report_json.py`` checks the text is identical.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import pandas as pd

from treecalc.report.json import _assessment_object, _column, _plain_values, plain_columns, plain_rows, records

if TYPE_CHECKING:
    from treecalc.assessment import Assessment

Dump = Callable[[Any], str]

_encode = json.encoder.encode_basestring  # what json.dumps(ensure_ascii=False) writes a string with
_NONE = type(None)


class _Chunks:
    """JSON text of a table of the object, in pieces made as they are read (a 50,000-tree table is ~45 MB of text:
    it is written a block of rows at a time, and the document is never joined unless asked for)."""

    def __init__(self, pieces: Iterable[str]) -> None:
        self.pieces = pieces

    def __iter__(self) -> Iterator[str]:
        return iter(self.pieces)


#: Rows of a frame made into text at a time: the columns' texts of one block are held, never of the whole table.
_BLOCK_ROWS = 20_000


class _Col(NamedTuple):
    """A column as JSON text: ``texts`` per row (``codes`` None), or the texts of its distinct values and each
    row's ``codes`` into them."""

    codes: np.ndarray | None
    texts: list[str]

    def few(self, n: int) -> bool:
        """Few distinct values for ``n`` rows: worth writing once per value and joining with its neighbours."""
        return self.codes is not None and len(self.texts) * 4 <= n

    def per_row(self) -> list[str]:
        if self.codes is None:
            return self.texts
        return np.array(self.texts, dtype=object).take(self.codes).tolist()


def _float_texts(values: np.ndarray, nan: str = "null") -> list[str]:
    """Floats as the json module writes them (``float.__repr__``, ``Infinity``); NaN as ``nan``: null where
    it is a missing value of a frame (``records`` makes it None), the json module's ``NaN`` where it is a value."""
    texts = list(map(float.__repr__, values.tolist()))
    bad = ~np.isfinite(values)
    if bad.any():
        for i in np.flatnonzero(bad).tolist():
            x = values[i]
            texts[i] = nan if x != x else ("Infinity" if x > 0 else "-Infinity")
    return texts


def _float_col(values: np.ndarray, nan: str = "null") -> _Col:
    """Floats by their distinct values, told apart by their bits (0.0 and -0.0, whose texts differ)."""
    codes, uniques = pd.factorize(np.ascontiguousarray(values, dtype=np.float64).view(np.int64))
    return _Col(codes, _float_texts(uniques.view(np.float64), nan))


def _value_texts(values: list[Any], dump: Dump) -> list[str]:
    """Plain values as the json module writes them: strings, None, bools, ints and finite floats directly,
    anything else (NaN, lists, dates ...) by ``dump``."""
    out: list[str] = []
    for v in values:
        t = type(v)
        if t is str:
            out.append(_encode(v))
        elif v is None:
            out.append("null")
        elif t is bool:
            out.append("true" if v else "false")
        elif t is int:
            out.append(int.__repr__(v))
        elif t is float and math.isfinite(v):
            out.append(float.__repr__(v))
        else:
            out.append(dump(v))
    return out


def _coded(codes: np.ndarray, texts: list[str]) -> _Col:
    """A coded column; code -1 (pandas' missing value) is ``null``."""
    codes = np.asarray(codes, dtype=np.int64)
    if (codes < 0).any():
        codes = np.where(codes < 0, len(texts), codes)
        texts = [*texts, "null"]
    return _Col(codes, texts)


def _values_col(values: list[Any], dump: Dump) -> _Col:
    """Plain values (:func:`treecalc.report.json._column`): strings or ints by their distinct values."""
    types = set(map(type, values))
    if types <= {str, _NONE}:
        codes, uniques = pd.factorize(np.array(values, dtype=object))
        return _coded(codes, list(map(_encode, uniques.tolist())))
    if types <= {int} and values:
        codes, uniques = pd.factorize(np.array(values, dtype=object))  # Python ints: any size
        return _coded(codes, list(map(int.__repr__, uniques.tolist())))
    if types <= {float} and values:
        return _float_col(np.array(values, dtype=np.float64), nan="NaN")
    return _Col(None, _value_texts(values, dump))


def _series_col(s: pd.Series, dump: Dump) -> _Col:
    """One column of a frame as the JSON text :func:`treecalc.report.json.records` then ``json.dumps`` give."""
    if s.dtype == np.float64:
        return _float_col(s.to_numpy())
    if s.dtype == np.int64:
        codes, uniques = pd.factorize(s.to_numpy())
        return _Col(codes, list(map(int.__repr__, uniques.tolist())))
    if s.dtype == np.bool_:
        return _Col(s.to_numpy().astype(np.int64), ["false", "true"])
    if isinstance(s.dtype, pd.CategoricalDtype):
        categories = _plain_values(s.cat.categories.astype(object).tolist())
        return _coded(s.cat.codes.to_numpy(), _value_texts(categories, dump))
    if s.dtype == object or pd.api.types.is_string_dtype(s.dtype):
        try:
            codes, uniques = pd.factorize(s)  # a missing value (None, NaN, NA) is -1: null, as records() has it
        except TypeError:  # unhashable values (lists)
            pass
        else:
            texts = uniques.tolist() if isinstance(uniques, pd.Index) else list(uniques)
            if set(map(type, texts)) <= {str}:
                return _coded(codes, list(map(_encode, texts)))
    return _values_col(_column(s), dump)


def _joined(names: list[str], cols: list[_Col], n: int) -> tuple[list[str], list[list[str]]]:
    """The columns as texts per row, side-by-side columns of few values joined into one text
    (``value, "next key": value, ...``) written once per distinct combination, as long as the combinations
    stay few. Returns the name that opens each joined column, and the columns."""
    out_names: list[str] = []
    out: list[list[str]] = []
    j = 0
    while j < len(cols):
        combined, run = cols[j].codes, [cols[j]]
        if combined is not None and cols[j].few(n):
            for col in cols[j + 1 :]:
                if col.codes is None or not col.few(n):
                    break
                wider = pd.factorize(combined * len(col.texts) + col.codes)[0]
                if (wider.max() + 1) * 32 > n:  # combinations no longer few: the run ends here
                    break
                combined = wider
                run.append(col)
        out_names.append(names[j])
        if combined is None or len(run) == 1:
            out.append(cols[j].per_row())
        else:
            out.append(_run_texts(names[j + 1 : j + len(run)], run, combined))
        j += len(run)
    return out_names, out


def _run_texts(later_names: list[str], run: list[_Col], combined: np.ndarray) -> list[str]:
    """Per row, the text of a run of coded columns from the first one's value on, written once per combination
    (``combined``: each row's combination, numbered from 0)."""
    _, first = np.unique(combined, return_index=True)  # the first row of each combination, by its number
    parts: list[Any] = []
    for k, col in enumerate(run):
        if k:
            parts.append(itertools.repeat(", " + _encode(later_names[k - 1]) + ": "))
        parts.append(_Col(np.asarray(col.codes)[first], col.texts).per_row())
    texts = list(map("".join, zip(*parts)))
    return np.array(texts, dtype=object).take(combined).tolist()


def _rows_chunks(names: list[str], cols: list[_Col], n: int) -> _Chunks:
    """``[{"name": value, ...}, ...]`` as chunks (one per row): one ``%`` of a row template per row."""
    if not n:
        return _Chunks(["[]"])
    if not names:
        return _Chunks(["[" + ", ".join(["{}"] * n) + "]"])
    return _Chunks(["[", *_rows_texts(names, cols, n, first=True), "]"])


def _rows_texts(names: list[str], cols: list[_Col], n: int, first: bool) -> list[str]:
    """The text of ``n`` rows, each but the very first (``first``) after its ", "."""
    heads, columns = _joined(names, cols, n)
    template = "{" + ", ".join(_encode(k).replace("%", "%%") + ": %s" for k in heads) + "}"
    rows = zip(*columns)
    out = [template % next(rows)] if first else []
    template = ", " + template
    out.extend([template % row for row in rows])
    return out


def _frame_rows(df: pd.DataFrame, names: list[str], dump: Dump) -> Iterator[str]:
    """``[{...}, ...]`` of a frame's rows, a block of :data:`_BLOCK_ROWS` rows at a time (the same text: a row's text
    does not depend on the rows beside it)."""
    yield "["
    for start in range(0, len(df), _BLOCK_ROWS):
        part = df.iloc[start : start + _BLOCK_ROWS]
        cols = [_series_col(part.iloc[:, j], dump) for j in range(part.shape[1])]
        yield from _rows_texts(names, cols, len(part), first=not start)
    yield "]"


def _frame_text(dump: Dump) -> Callable[[pd.DataFrame | None], _Chunks]:
    def text(df: pd.DataFrame | None) -> _Chunks:
        if df is None or not len(df):
            return _Chunks(["[]"])
        names = list(df.columns)
        if not all(type(c) is str for c in names) or len(set(names)) < len(names):
            return _Chunks([dump(records(df))])  # keys json.dumps writes its own way, or a key twice: the dicts
        if not names:
            return _Chunks(["[" + ", ".join(["{}"] * len(df)) + "]"])
        return _Chunks(_frame_rows(df, names, dump))

    return text


def _finding_text(dump: Dump) -> Callable[[Any], _Chunks]:
    def text(rows: Any) -> _Chunks:
        columns = plain_columns(rows)  # treecalc.results.Records: rows held as columns
        if columns is not None and all(type(c) is str for c in columns[0]):
            names, values = columns
            return _rows_chunks(names, [_values_col(v, dump) for v in values], len(rows))
        return _Chunks([dump(plain_rows(rows))])

    return text


def assessment_json_text(a: Assessment, default: Callable[[Any], Any] | None = None) -> str:
    """``json.dumps(assessment_json(a), ensure_ascii=False, default=default)``, the same text, written faster."""
    return "".join(assessment_json_chunks(a, default))


def assessment_json_chunks(a: Assessment, default: Callable[[Any], Any] | None = None) -> Iterator[str]:
    """The text of :func:`assessment_json_text` in pieces, made as they are read: hashed or written piece by piece,
    the text of a big survey (~1 KB a tree) is never held whole, nor encoded whole."""

    def dump(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False, default=default)

    obj = _assessment_object(a, _frame_text(dump), _finding_text(dump))
    yield "{"
    for i, (k, v) in enumerate(obj.items()):
        yield f"{', ' if i else ''}{_encode(k)}: "
        if isinstance(v, _Chunks):
            yield from v
        else:
            yield dump(v)
    yield "}"


def fingerprint_tail(fingerprint: Any, default: Callable[[Any], Any] | None = None) -> str:
    """What follows the text of an assessment's JSON object without its fingerprint (:func:`assessment_json_chunks`)
    once its closing ``}`` is taken off, for the text :func:`assessment_json_text` gives of the assessment carrying
    ``fingerprint``: the fingerprint is the object's last key (:func:`treecalc.report.json.assessment_json`)."""
    if not fingerprint:
        return "}"
    return f", {_encode('fingerprint')}: {json.dumps(fingerprint, ensure_ascii=False, default=default)}}}"


def text_pieces(chunks: Iterable[str], size: int = 1 << 20) -> Iterator[str]:
    """``chunks`` joined into pieces of about ``size`` characters (a row of a table is one chunk): what is
    hashed or written at a time."""
    batch: list[str] = []
    held = 0
    for c in chunks:
        batch.append(c)
        held += len(c)
        if held >= size:
            yield "".join(batch)
            batch, held = [], 0
    if batch:
        yield "".join(batch)
