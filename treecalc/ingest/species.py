"""Stage 6 of the read: which species each row names.

* Several species columns ("Botanical name", "Common name"): the scientific one is used, the
  others confirm it; a row warns only when they name different taxa (a cultivar confirms its
  species, a genus confirms its species).
* Split name columns of GIS and field-app exports (GENUS, SPECIES, CULTIVAR, COMMON_NAME) are
  joined into one scientific name: "Acer" + "platanoides" + "Crimson King" →
  "Acer platanoides 'Crimson King'"; a blank or "sp." epithet gives the genus.
* A cell with a common and a scientific name ("Red oak / Quercus rubra", "Maple, Norway") is
  resolved as a whole and by its parts; the best resolution wins.
* A species map (``{"Oak sp.": "Quercus"}``) corrects every row with the same text at once.

Each distinct text is resolved once (:func:`treecalc.reference.species.resolve_many`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping as MappingT

import numpy as np
import pandas as pd

from treecalc.ingest import columns as C
from treecalc.ingest import values as V
from treecalc.ingest.errors import SurveyError
from treecalc.ingest.rows import Table
from treecalc.reference import data
from treecalc.reference.species import resolve_many, scientific_forms

# A scientific name beats a common name when a cell gives both and they differ.
_METHOD_RANK = {
    "code": 0,
    "scientific": 0,
    "cultivar": 0,
    "common": 1,
    "alias": 1,
    "genus": 2,
    "fuzzy": 3,
    "zone": 0,
    "unresolved": 4,
}
_RES_COLUMNS = ["code", "method", "score", "suggestions", "warning"]
_EPITHET_HEADERS = {"species", "sp", "spp", "specie", "species name", "epithet", "specific epithet", "species epithet"}
_NUMBER_TEXT = re.compile(r"^[-+]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:e[-+]?\d+)?$", re.I)


def is_number_text(t: str) -> bool:
    return bool(t) and bool(_NUMBER_TEXT.match(t.strip()))


def priority(col: C.Column) -> int:
    """0 for a scientific-name column, 1 for a plain species column, 2 for a common-name column."""
    h = C.norm_header(col.header)
    if re.search(r"botanical|scientific|latin|genus|taxon", h):
        return 0
    if re.search(r"common", h) and not re.search(r"botanical|scientific", h):
        return 2
    return 1


def candidates(text: str) -> list[str]:
    """The whole text, then its parts: "Red oak / Quercus rubra", "Red oak (Quercus rubra)",
    "Maple, Norway" (also read as "Norway Maple")."""
    out = [text]
    m = re.match(r"^(.*?)\s*[\(\[]([^\)\]]+)[\)\]]\s*(.*)$", text)
    if m and not re.search(r"['\"‘’]", m.group(2)):
        out += [m.group(2).strip(), (m.group(1) + " " + m.group(3)).strip()]
    m = re.fullmatch(r"([A-Za-z][A-Za-z\- ]*),\s*([A-Za-z][A-Za-z\- ]*)", text)
    if m:  # an inverted common name, as inventories sort them
        out.append(f"{m.group(2)} {m.group(1)}")
    for sep in ("\n", " / ", "/", " - ", " – ", " — ", ";", ","):
        if sep in text:
            out += [p.strip() for p in text.split(sep) if p.strip()]
            break
    return [o for o in dict.fromkeys(out) if o]


def _empty() -> pd.DataFrame:
    return pd.DataFrame(columns=_RES_COLUMNS)


def resolve(texts: pd.Series | list[str], zone: str | tuple[str, ...] | None = None) -> pd.DataFrame:
    """Resolution per distinct text (best of the whole text and its parts), indexed by text; in a ``zone``
    other than the Northeast, a species only that zone's list has a code for too."""
    distinct = [s for s in pd.unique(pd.Series(texts, dtype=object)) if s]
    cands = {s: candidates(s) for s in distinct}
    every = list(dict.fromkeys(c for cs in cands.values() for c in cs))
    res = resolve_many(every, zone) if every else _empty()
    # one conversion: a pandas row lookup per candidate was the slow part
    recs = {k: dict(zip(res.columns, v)) for k, v in zip(res.index, zip(*(res[c].tolist() for c in res.columns)))}
    rows = {}
    for s, cs in cands.items():
        # cs always holds s itself; the best method, then score, then the first candidate
        k_best = min(
            range(len(cs)), key=lambda k: (_METHOD_RANK.get(recs[cs[k]]["method"], 4), -float(recs[cs[k]]["score"]), k)
        )
        r = recs[cs[k_best]]
        if r["code"] is None or (isinstance(r["code"], float) and math.isnan(r["code"])):
            r = recs[s]  # suggestions for the text as written
        rows[s] = {
            "code": r["code"] if isinstance(r["code"], str) else None,
            "method": r["method"],
            "score": float(r["score"]),
            "suggestions": list(r["suggestions"]),
            "warning": r["warning"],
        }
    return pd.DataFrame.from_dict(rows, orient="index", columns=_RES_COLUMNS) if rows else _empty()


def _join_split(genus: pd.Series, epithet: pd.Series, cultivar: pd.Series) -> pd.Series:
    """GENUS + SPECIES (+ CULTIVAR) → one scientific name per row ('' where the genus is blank)."""
    out = []
    for g, s, cv in zip(genus, epithet, cultivar):
        if not g:
            out.append(s if s and cv == "" else (f"{s} '{cv}'" if s else ""))
            continue
        if not s or s.lower().rstrip(".") in {"sp", "spp", "species", "unknown"}:
            name = f"{g} sp."
        elif s.split()[0].lower() == g.split()[0].lower():
            name = s  # the species column already holds the binomial
        else:
            name = f"{g} {s}"
        if cv and not name.endswith(" sp."):
            name += f" '{cv.strip(chr(39) + chr(34))}'"
        out.append(name)
    return pd.Series(out, dtype=object)


def name_columns(table: Table, mapping: C.Mapping) -> list[tuple[str, pd.Series]]:
    """The species texts to read, most authoritative first: (label, text per row). Split name
    columns (genus, epithet, cultivar) come first as one joined name."""
    sp_cols = sorted(mapping.of("species"), key=priority)
    genus_col, cv_col = mapping.first("genus"), mapping.first("cultivar")
    out: list[tuple[str, pd.Series]] = []
    if genus_col is not None or cv_col is not None:
        epithet = next((c for c in sp_cols if C.norm_header(c.header) in _EPITHET_HEADERS), None)
        if genus_col is not None or epithet is not None:
            parts = [c.header for c in (genus_col, epithet, cv_col) if c is not None]
            joined = _join_split(table.text(genus_col), table.text(epithet), table.text(cv_col))
            out.append((" + ".join(parts), joined))
            sp_cols = [c for c in sp_cols if c is not epithet]
    return out + [(c.header, table.text(c)) for c in sp_cols]


def chosen(sources: list[tuple[str, pd.Series]], n: int) -> tuple[pd.Series, pd.Series]:
    """(species text, the column it came from) per row: the first source that gives one."""
    column = pd.Series([sources[0][0] if sources else ""] * n, dtype=object)
    if len(sources) == 1:  # one column: its texts ('' where blank, as below) and its label on every row
        return sources[0][1].copy(), column
    species = pd.Series([""] * n, dtype=object)
    for label, t in reversed(sources):
        has = t != ""
        species = species.where(~has, t)
        column = column.where(~has, label)
    return species, column


def parse_species_map(pairs: MappingT[str, str] | None) -> dict[str, str]:
    """A species map as given (``{"Oak sp.": "Quercus"}``) keyed by its casefolded text."""
    out: dict[str, str] = {}
    for k, v in (pairs or {}).items():
        key, val = str(k).strip(), str(v).strip()
        if not key or not val:
            raise SurveyError(f"species map {k!r}={v!r}: give the text as written and the species to read it as")
        out[key.casefold()] = val
    return out


def apply_species_map(species: pd.Series, fixes: dict[str, str]) -> tuple[pd.Series, list[str]]:
    """Every row whose text is a key of ``fixes`` (casefolded) reads as its value; a warning per row."""
    if not fixes:
        return species, [""] * len(species)
    mapped = species.map(lambda s: fixes.get(s.casefold()) if s else None)
    hit = mapped.notna().to_numpy()
    warn = [
        f"species {V.short(s)} read as {V.short(m)} (species map)" if h else "" for s, m, h in zip(species, mapped, hit)
    ]
    return species.where(~hit, mapped), warn


def _taxon(code: str) -> tuple[str, str]:
    """(genus, binomial) of a catalogue code, lower case ('' binomial for a genus row)."""
    forms = scientific_forms(data.catalogue().at[code, "scientific_name"])
    last = forms[-1] if forms else ""
    g = last.split()[0] if last else ""
    return g, "" if last.endswith(" sp") else last


def same_taxon(a: str, b: str) -> bool:
    """Two codes that do not contradict each other: the same species (a cultivar and its species),
    or a genus and one of its species."""
    if a == b:
        return True
    cat = data.catalogue()
    if a not in cat.index or b not in cat.index:
        return False
    (ga, ba), (gb, bb) = _taxon(a), _taxon(b)
    if ba and bb:
        return ba == bb
    return bool(ga) and ga == gb


def disagreements(
    sources: list[tuple[str, pd.Series]], species: pd.Series, column: pd.Series, code: pd.Series, res: pd.DataFrame
) -> list[str]:
    """A warning per row whose species columns name different taxa (the chosen one is used)."""
    n = len(species)
    warn = [""] * n
    if len(sources) < 2:
        return warn
    known = set(res.index)
    extra = [x for _, t in sources for x in pd.unique(t) if x and x not in known and not is_number_text(x)]
    res_all = pd.concat([res, resolve(extra)]) if extra else res
    codes = code.to_numpy()
    cols = column.to_numpy()
    for label, t in sources:
        other = t.map(res_all["code"]).to_numpy() if len(res_all) else np.array([None] * n, dtype=object)
        cache: dict[tuple[str, str], bool] = {}
        for k in range(n):
            o, a = other[k], codes[k]
            if not (isinstance(o, str) and isinstance(a, str)) or o == a or cols[k] == label or warn[k]:
                continue
            same = cache.get((o, a))
            if same is None:
                same = cache[(o, a)] = same_taxon(o, a)
            if not same:
                warn[k] = (
                    f"species columns disagree: {cols[k]!r} gives {V.short(species[k])} ({a}) but {label!r} "
                    f"gives {V.short(t[k])} ({o}); {a} used"
                )
    return warn
