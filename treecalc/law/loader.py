"""The law files of each village, read once, and the version in force on a date.

``data/law/<village>/<chapter>.toml`` (schema: :mod:`treecalc.law.schema`) and treecalc's own readings
``data/readings/<village>.toml``, both in the one data folder (``TREECALC_DATA`` when set).

- :func:`resolved` gives the rules the plain numbers they read (``resolved("croton_on_hudson")["permit"]
  ["more_than_trees_12mo"] == 3``), a bracket's cells flattened (``tier1_usd``), the readings not among them;
- :func:`entries` / :func:`entry` give the :class:`~treecalc.law.schema.Entry` objects (unit, section, text,
  operator) the sentences that cite a number are filled from;
- :func:`effective` and :func:`in_force_note` say from when a chapter is held, and
  :class:`LawNotInForce` refuses a date before it.
"""

from __future__ import annotations

import copy
import datetime as dt
import functools
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from treecalc.law import registry as jurisdictions
from treecalc.law.schema import (
    META_KEYS,
    Bracket,
    Entry,
    LawNotInForce,
    LawSchemaError,
    dated_value,
    entry_keys,
    is_bracket,
    is_entry,
    validate,
    value_on,
)
from treecalc.reference import datafolder

__all__ = [
    "CHAPTER_FILES",
    "TREE_CHAPTER",
    "LawNotInForce",
    "chapter",
    "clear_caches",
    "effective",
    "entries",
    "entry",
    "in_force_note",
    "law_files",
    "operator_of",
    "provision",
    "resolved",
]


class _Chapters(Mapping[str, Any]):
    """Each registered village -> its record's chapters (:attr:`treecalc.law.registry.Jurisdiction.law_files`),
    or with ``first`` the tree chapter alone, as the registry holds them now."""

    def __init__(self, first: bool = False) -> None:
        self._first = first

    def __getitem__(self, village: str) -> Any:
        names = jurisdictions.by_key(village).law_files
        return names[0] if self._first else names

    def __iter__(self) -> Iterator[str]:
        return iter(jurisdictions.REGISTRY)

    def __len__(self) -> int:
        return len(jurisdictions.REGISTRY)


#: The chapters each village's folder holds (``data/law/<village>/<name>.toml``), the tree chapter first.
CHAPTER_FILES: Mapping[str, tuple[str, ...]] = _Chapters()
#: The chapter whose numbers the tree rules read (:func:`resolved`).
TREE_CHAPTER: Mapping[str, str] = _Chapters(first=True)


def law_path(village: str, name: str) -> str:
    """The file's path in the data folder: ``"law/croton_on_hudson/ch208_trees.toml"``."""
    return f"law/{village}/{name}.toml"


def law_files(village: str) -> list[str]:
    """The paths in the data folder of the law a village's assessment reads (tree chapter, readings, site facts)."""
    return [law_path(village, TREE_CHAPTER[village]), f"readings/{village}.toml", "readings/site_facts.toml"]


def _held(relpath: str) -> Path | None:
    """The folder of a village held outside the data folder (its record's ``data_dir``) a path of it is read
    from: ``law/<village>/...`` and ``readings/<village>.toml``; None for the data folder's."""
    parts = relpath.split("/")
    village = parts[1] if parts[0] == "law" and len(parts) > 2 else parts[-1].removesuffix(".toml")
    record = jurisdictions.REGISTRY.get(village)
    return record.data_dir if record is not None else None


@functools.cache
def _raw(relpath: str) -> dict[str, Any]:
    """A file of the law (or readings) as parsed; a law file validated whole when it is read (every entry's type,
    sign and range: :func:`~treecalc.law.schema.validate`), and refused naming the entry the shipped copy has and
    it lacks, so that no rule meets a wrong or missing number later."""
    held = _held(relpath)
    path = Path(held if held is not None else datafolder.DATA_DIR) / relpath
    if held is not None:
        with open(path, "rb") as f:
            raw = tomllib.load(f)
    else:
        raw = datafolder.read_data_toml(relpath, datafolder.DATA_DIR)
    if relpath.startswith("law/") and not relpath.endswith("/fee_schedule.toml"):  # the Board's schedule: its own
        validate(raw, str(path))
        _check_complete(raw, relpath, path)
    return raw


def _cited(raw: dict[str, Any]) -> dict[str, str]:
    """A parsed law file's entries and brackets, and its provisions' records (``sections.<key>``): each -> section."""
    out = entry_keys(raw)
    out.update({f"sections.{k}": str(r.get("section", "")) for k, r in raw.get("sections", {}).items()})
    return out


def _check_complete(raw: dict[str, Any], relpath: str, path: Path) -> None:
    """Refuse a village's copy of a law file that lacks an entry of the copy shipped with treecalc (the rules read
    each one): named with its section, not a bare ``KeyError: 'percent'`` when a rule reaches for it."""
    shipped = datafolder.BUNDLED_DATA_DIR / relpath
    if not shipped.is_file() or path.resolve() == shipped.resolve():
        return
    with open(shipped, "rb") as f:
        shipped_raw = tomllib.load(f)
    want, have = _cited(shipped_raw), _cited(raw)
    missing = [k for k in want if k not in have]
    if missing:
        said = ", ".join(f"[{k}] ({want[k]})" for k in missing)
        raise LawSchemaError(
            f"{path}: lacks the entr{'y' if len(missing) == 1 else 'ies'} {said} that treecalc applies; "
            f"copy {'it' if len(missing) == 1 else 'them'} from {shipped}"
        )
    # a bracket's row deleted: the rules read its cells by name (tier6_usd), so it is named here, with its section,
    # not met as a bare KeyError when a penalty is computed
    want_cells, have_cells = _cells(shipped_raw), _cells(raw)
    lost = {cell: where for cell, where in want_cells.items() if cell not in have_cells}
    if lost:
        rows = sorted(set(lost.values()))
        said = "; ".join(
            f"the row {sec} of [{b}] ({', '.join(c for c, w in lost.items() if w == (b, sec))})" for b, sec in rows
        )
        raise LawSchemaError(
            f"{path}: lacks {said}, which treecalc applies; copy {'it' if len(rows) == 1 else 'them'} from {shipped}"
        )


def _cells(t: dict[str, Any], prefix: str = "") -> dict[str, tuple[str, str]]:
    """Each cell of the brackets of a parsed law file by the name the rules read it by (``tier6_usd``) -> the
    bracket's dotted key and its row's section."""
    out: dict[str, tuple[str, str]] = {}
    for k, v in t.items():
        if not isinstance(v, dict) or (not prefix and k in META_KEYS) or is_entry(v):
            continue
        if is_bracket(v):
            for row in v["rows"] if v.get("flatten") else ():
                for c in v["columns"]:
                    if c in row:
                        try:
                            out[v["flatten"].format(column=c, **row)] = (f"{prefix}{k}", str(row.get("section", "")))
                        except (KeyError, IndexError, ValueError):
                            continue
        else:
            out.update(_cells(v, f"{prefix}{k}."))
    return out


def chapter(village: str, name: str | None = None) -> dict[str, Any]:
    """The parsed file of a chapter (validated), the tree chapter's when ``name`` is not given. A copy."""
    return copy.deepcopy(_raw(law_path(village, name or TREE_CHAPTER[village])))


def effective(village: str, name: str | None = None) -> dict[str, Any]:
    """The chapter's ``[effective]`` table: ``date`` (None: not dated), ``placeholder``, ``law``."""
    eff = dict(_raw(law_path(village, name or TREE_CHAPTER[village])).get("effective") or {})
    eff.setdefault("date", None)
    eff.setdefault("placeholder", False)
    eff.setdefault("law", "")
    return eff


def _check_date(village: str, name: str | None, on: dt.date | None) -> None:
    eff = effective(village, name)
    read = eff.get("read")
    if on is not None and eff["date"] is None and read is not None and on < read:
        # no adoption date held: the amounts are known as of the day the text was read, and an earlier version
        # may have set others, so an earlier date gets no answer rather than today's amounts
        raw = _raw(law_path(village, name or TREE_CHAPTER[village]))
        raise LawNotInForce(
            f"the law in force on {on.isoformat()} is not held: {raw.get('name', village)}, "
            f"{raw.get('chapter', name)} is held as read on {read.isoformat()}, and its adoption date is not in the "
            "text read (an earlier version may have set other amounts); give an ‹on› date on or after "
            f"{read.isoformat()}"
        )
    if on is not None and eff["date"] is not None and on < eff["date"]:
        raw = _raw(law_path(village, name or TREE_CHAPTER[village]))
        held = f"{raw.get('name', village)}, {raw.get('chapter', name)}"
        raise LawNotInForce(
            f"the law in force on {on.isoformat()} is not held: the earliest version held is {held}, "
            f"effective {eff['date'].isoformat()}"
            + (" (a PLACEHOLDER date: the filing date is not in the text)" if eff["placeholder"] else "")
            + "; give a later ‹on› date or the law then in force"
        )


def in_force_note(village: str, on: dt.date | None) -> str:
    """The assumption an output states about the date the law is read on (the same words whether the date
    was given or is today's, so that a statement derived again from its fingerprint reads the same)."""
    eff = effective(village)
    raw = _raw(law_path(village, TREE_CHAPTER[village]))
    when = (on or dt.date.today()).isoformat()
    said = (
        f"the law in force on {when} is applied (the date of the application or violation: "
        "on / ‹on›, today when not given)"
    )
    if eff["date"] is None:
        return f"{said}; {raw.get('chapter', '')} carries no effective date and is read as in force then"
    held = f"{raw.get('chapter', '')}, effective {eff['date'].isoformat()}"
    if eff["placeholder"]:
        held += " (a PLACEHOLDER date: the filing date with the Secretary of State is not in the text)"
    return f"{said}: {held}"


def _resolve(t: dict[str, Any], on: dt.date | None, where: str) -> Any:
    if is_entry(t):
        return value_on(t, on, where)[0]
    if is_bracket(t):
        return list(_rows_on(t, on, where))
    out: dict[str, Any] = {}
    for k, v in t.items():
        if isinstance(v, dict) and is_bracket(v):
            out[k] = list(_rows_on(v, on, f"{where}.{k}"))
            out.update(_bracket(v, f"{where}.{k}", on).flat())
        elif isinstance(v, dict):
            out[k] = _resolve(v, on, f"{where}.{k}")
        else:
            out[k] = v
    return out


def _rows_on(t: dict[str, Any], on: dt.date | None, where: str) -> tuple[dict[str, Any], ...]:
    """A bracket's rows as in force on ``on``: a cell amended on a date (a table keyed by effective date, the
    §208-29B(3) maximum raised by the Board) reads the value of that date, so the old one holds before it."""
    rows = []
    for i, r in enumerate(t["rows"], 1):
        row = dict(r)
        for c in t["columns"]:
            if isinstance(row.get(c), dict):
                row[c] = dated_value(row[c], on, f"{where} row {i} {c}")[0]
        rows.append(row)
    return tuple(rows)


def _bracket(t: dict[str, Any], key: str, on: dt.date | None = None) -> Bracket:
    return Bracket(
        key,
        t["section"],
        dict(t["columns"]),
        _rows_on(t, on, key),
        t.get("flatten"),
        operators=t.get("operators") or {},
    )


@functools.cache
def _resolved_cached(village: str, on: dt.date | None) -> dict[str, Any]:
    name = TREE_CHAPTER[village]
    _check_date(village, name, on)
    raw = _raw(law_path(village, name))
    out: dict[str, Any] = {"name": raw.get("name", ""), "chapter": raw.get("chapter", "")}
    for k, v in raw.items():
        if k in ("name", "chapter", "effective", "sections"):  # the numbers only
            continue
        out[k] = _resolve(v, on, k)
    return out


def resolved(village: str, on: dt.date | None = None) -> dict[str, Any]:
    """The plain numbers of the village's tree chapter in force on ``on`` (None: the latest held): the shape the
    rules read (treecalc's own readings are apart: :func:`treecalc.law.readings`). A fresh copy. :class:`LawNotInForce` for a date before the
    chapter's effective date."""
    return copy.deepcopy(_resolved_cached(village, on))


def _walk(t: dict[str, Any], prefix: str, on: dt.date | None, out: dict[str, Entry | Bracket]) -> None:
    for k, v in t.items():
        if not isinstance(v, dict) or k == "effective":
            continue
        key = f"{prefix}{k}"
        if is_entry(v):
            value, dated = value_on(v, on, key)
            out[key] = Entry(key, value, v["unit"], v["section"], v["text"], v.get("operator"), dated)
        elif is_bracket(v):
            out[key] = _bracket(v, key, on)
        else:
            _walk(v, f"{key}.", on, out)


def entries(village: str, name: str | None = None, on: dt.date | None = None) -> dict[str, Entry | Bracket]:
    """Every entry and bracket of a chapter by its dotted key (``"permit.more_than_trees_12mo"``)."""
    out: dict[str, Entry | Bracket] = {}
    _walk(_raw(law_path(village, name or TREE_CHAPTER[village])), "", on, out)
    return out


def entry(village: str, key: str, name: str | None = None, on: dt.date | None = None) -> Entry:
    """One entry of a chapter by its dotted key; KeyError naming the file when there is none."""
    e = entries(village, name, on).get(key)
    if not isinstance(e, Entry):
        raise KeyError(f"{law_path(village, name or TREE_CHAPTER[village])} has no entry {key}")
    return e


@functools.cache
def provision(village: str, key: str, name: str | None = None) -> str:
    """The section of a provision of a chapter that states no number (an exception, a definition: its record
    ``[sections.<key>]``), as a rule applying it cites it; LawSchemaError naming the file when it has none."""
    path = law_path(village, name or TREE_CHAPTER[village])
    record = _raw(path).get("sections", {}).get(key)
    if record is None:
        raise LawSchemaError(f"{path}: has no [sections.{key}] (the section and words of the provision applied)")
    return str(record["section"])


@functools.cache
def operator_of(village: str, key: str, name: str | None = None) -> str:
    """The comparison an entry states (``">="``), or a bracket's column (``"penalty.civil_tiers.max_dbh_in"``);
    LawSchemaError naming the entry when it states none."""
    found = entries(village, name)
    head, _, column = key.rpartition(".")
    e, b = found.get(key), found.get(head)
    op = e.operator if isinstance(e, Entry) else b.operators.get(column) if isinstance(b, Bracket) else None
    if op is None:
        raise LawSchemaError(f"{law_path(village, name or TREE_CHAPTER[village])}: {key} states no operator")
    return op


#: The caches built on the files read (the typed nodes, a companion's numbers): cleared with them.
CACHES: list[Any] = []


def clear_caches() -> None:
    """Forget the files read (a test that edits the data folder in place)."""
    _raw.cache_clear()
    _resolved_cached.cache_clear()
    operator_of.cache_clear()
    provision.cache_clear()
    for cache in CACHES:
        cache.cache_clear()
