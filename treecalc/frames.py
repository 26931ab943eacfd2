"""Array helpers the rules of every jurisdiction share: boolean flags, DBH and actions read from the
tree table, "; "-joined labels and vectorised text choices (one string per distinct value, never a
Python loop over a million trees). Neutral: no jurisdiction's law is here.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd


def flag(trees: pd.DataFrame, *cols: str) -> np.ndarray:
    """Any of the boolean columns true (NA and missing columns read False)."""
    res = np.zeros(len(trees), dtype=bool)
    for c in cols:
        if c in trees:
            res |= trees[c].astype("boolean").fillna(False).to_numpy(bool)
    return res


def unclear(trees: pd.DataFrame, col: str) -> np.ndarray:
    """Per tree, the text of its ``col`` cell when that cell is neither yes nor no ("maybe"), "" elsewhere: the
    ``flags_unclear`` column the survey reader adds only when some cell is unclear."""
    n = len(trees)
    if "flags_unclear" not in trees:
        return np.full(n, "", dtype=object)
    return map_unique(trees["flags_unclear"].to_numpy(object), lambda cells: dict(cells or ()).get(col, ""))


def flag_given(trees: pd.DataFrame, *cols: str) -> np.ndarray:
    """:func:`flag` on the cells given only: a cell that is neither yes nor no ("maybe") reads False."""
    res = np.zeros(len(trees), dtype=bool)
    for c in cols:
        if c in trees:
            res |= flag(trees, c) & (unclear(trees, c) == "")
    return res


def flag_open(trees: pd.DataFrame, col: str) -> np.ndarray:
    """Per tree, the flag ``col`` left open by a column the survey has: its cell blank or saying the fact is not
    known (NA), or neither yes nor no ("maybe", :func:`unclear`). A survey without the column leaves none open: its
    law's reading of a flag not surveyed is stated apart."""
    if col not in trees:
        return np.zeros(len(trees), dtype=bool)
    return trees[col].isna().to_numpy(bool) | (unclear(trees, col) != "")


def unclear_words(trees: pd.DataFrame, mask: np.ndarray, col: str, reading: str = "yes") -> np.ndarray:
    """Per tree of ``mask`` whose ``col`` cell is unclear, the fact a conditional finding rests on, in words:
    "street_tree is yes (the survey says 'maybe')"; "" elsewhere."""
    text = unclear(trees, col)
    on = mask & (text != "")
    return np.where(
        on, map_unique(text, lambda t: f"{col} is {reading} (the survey says {str(t)!r})" if t else ""), ""
    ).astype(object)


def dbh(trees: pd.DataFrame) -> np.ndarray:
    return pd.to_numeric(trees["dbh_in"], errors="coerce").fillna(0.0).to_numpy(float)


def dbh_range(trees: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Per tree, the lower and the higher of its DBH figures: a multi-stem tree's √Σd² and that figure at the
    stems' precision (``dbh_at_precision_in``, the survey reader's, only when some tree has stems); one figure
    for every other tree. A bound met by the higher only is met for the permit preview, and an offence or a
    penalty tier resting on it is conditional (docs/readings.md and the law pages, "Multi-stem trees")."""
    d = dbh(trees)
    if "dbh_at_precision_in" not in trees:
        return d, d
    p = pd.to_numeric(trees["dbh_at_precision_in"], errors="coerce").to_numpy(float)
    p = np.where(np.isnan(p), d, p)
    return np.minimum(d, p), np.maximum(d, p)


def dbh_doubt(trees: pd.DataFrame, met_lo: np.ndarray, met_hi: np.ndarray, bound: str) -> np.ndarray:
    """Per tree whose DBH meets ``bound`` (words: "8 in or more") at one of its two figures only (:func:`dbh_range`),
    the fact a conditional finding rests on, in words; "" elsewhere."""
    on = np.asarray(met_hi, dtype=bool) & ~np.asarray(met_lo, dtype=bool)
    out = np.full(len(trees), "", dtype=object)
    if not on.any():
        return out
    d = dbh(trees)
    p = pd.to_numeric(trees["dbh_at_precision_in"], errors="coerce").to_numpy(float)
    for k in np.flatnonzero(on).tolist():
        at = f"{p[k]:.4f}".rstrip("0")
        out[k] = (
            f"DBH {bound} (the stems combine to {d[k]:.4f} in, {at + '0' if at.endswith('.') else at} in at the "
            "stems' precision: only one of the two meets it)"
        )
    return out


def actions(trees: pd.DataFrame) -> np.ndarray:
    """The action of each tree, stripped and lower case (each distinct spelling normalised once)."""
    return norm_text(trees["action"])


def actions_read(trees: pd.DataFrame, result: Any = None) -> np.ndarray:
    """:func:`actions`, as the permit (or offence) result of this assessment already normalised them: one
    assessment reads the action column once, not once per rule (a million texts hashed eleven times)."""
    kept = getattr(result, "actions", None)
    src = getattr(result, "actions_of", None)  # the frame they were read from: a rule may be given another
    same = kept is not None and src is not None and src() is trees and len(kept) == len(trees)
    return kept if same and kept is not None else actions(trees)


def norm_text(s: pd.Series) -> np.ndarray:
    codes, uniq = pd.factorize(s, use_na_sentinel=True)
    norm = np.array([str(u).strip().lower() for u in uniq] + [""], dtype=object)
    return norm[codes]


def labels(pairs: list[tuple[str, np.ndarray]], n: int) -> np.ndarray:
    """Per tree, the "; "-joined labels whose masks hold (vectorised: one string per distinct combination)."""
    if not pairs:
        return np.full(n, "", dtype=object)
    code = np.zeros(n, dtype=np.int64)
    for k, (_, mask) in enumerate(pairs):
        code |= mask.astype(np.int64) << k
    uniq, inv = np.unique(code, return_inverse=True)
    texts = np.array(
        ["; ".join(t for k, (t, _) in enumerate(pairs) if (int(u) >> k) & 1) for u in uniq] + [""], dtype=object
    )
    return texts[inv.reshape(-1)] if n else np.full(0, "", dtype=object)


def isin(values: np.ndarray, choices: Any) -> np.ndarray:
    """``np.isin`` for an array of texts, by hashing (numpy compares the whole array once per choice)."""
    return pd.Series(values, dtype=object, copy=False).isin(list(choices)).to_numpy(bool)


def pick(conditions: list[np.ndarray], texts: list[Any], default: Any = "") -> np.ndarray:
    """``np.select(conditions, texts, default)`` as an object array, the texts chosen by their position: numpy
    would write every text into a fixed-width string array (50,000 trees x the longest text) first."""
    index = np.select(conditions, list(range(len(texts))), len(texts))
    return np.array([*texts, default], dtype=object)[index]


def map_unique(values: np.ndarray, fn: Any) -> np.ndarray:
    """``fn`` applied once per distinct value, spread back over the array."""
    codes, uniq = pd.factorize(pd.Series(values, dtype=object), use_na_sentinel=False)
    return np.array([fn(u) for u in uniq] + [""], dtype=object)[codes]


def join(acc: np.ndarray, mask: np.ndarray, text: str) -> np.ndarray:
    """Append ``text`` ("; "-separated) to the strings of ``acc`` where ``mask`` holds (vectorised)."""
    if not mask.any():
        return acc
    return np.where(mask, np.where(acc == "", text, acc + ("; " + text)), acc)


def empty(n: int) -> np.ndarray:
    return np.full(n, "", dtype=object)


def set_text(trees: pd.DataFrame, name: str, values: np.ndarray) -> None:
    """A text column kept as Python objects (no per-value conversion to an Arrow string column)."""
    trees[name] = pd.Series(np.asarray(values, dtype=object), index=trees.index, dtype=object)


def some_tags(tags: np.ndarray, limit: int = 12) -> str:
    """ "trees 1, 2, 3" (the first ``limit``, then "and N more")."""
    head = ", ".join(str(t) for t in tags[:limit])
    return f"trees {head}" + (f" and {len(tags) - limit} more" if len(tags) > limit else "")
