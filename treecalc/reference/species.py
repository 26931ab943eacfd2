"""Resolve the species names people write to i-Tree codes.

A name may be an i-Tree code (``ACRU``), a scientific name with or without a
cultivar, authority, variety or hybrid sign (``Acer rubrum 'October Glory'``,
``Quercus rubra L.``, ``Platanus × acerifolia``), a common name in any case
(``red maple``), a catalogue alias, or a genus (``Quercus sp.``). Anything
else is matched by fuzzy string similarity (rapidfuzz ``QRatio``, the normalised
Levenshtein similarity); only a
confident match is accepted, and every fuzzy acceptance carries a warning.

Resolution is done once per distinct string (:func:`resolve_many`).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from treecalc.messages import quoted
from treecalc.reference import data

#: Fuzzy matches at or above this score (0-100) are accepted with a warning.
FUZZY_ACCEPT = 85.0
#: ...provided the best match beats the best *other* species by this margin.
FUZZY_MARGIN = 3.0

_RANKS = {"var", "subsp", "ssp", "f", "forma", "cv"}
_GENUS_WORDS = {"sp", "spp", "species", "sps"}


class UnknownSpecies(ValueError):
    """A name that cannot be resolved confidently; carries three suggestions."""

    def __init__(self, name: str, suggestions: list[str]):
        self.name = name
        self.suggestions = suggestions
        hint = "; ".join(suggestions) if suggestions else "none"
        super().__init__(f"unknown species {quoted(name)}; closest: {hint}")


@dataclass(frozen=True)
class Resolution:
    name: str
    code: str | None
    method: str  # code | scientific | cultivar | common | alias | genus | fuzzy | zone | unresolved
    score: float
    suggestions: list[str] = field(default_factory=list)
    warning: str = ""

    @property
    def ok(self) -> bool:
        return self.code is not None


def _ascii(s: str) -> str:
    if s.isascii():  # nothing to fold (the usual case; a survey of 20,000 names calls this 60,000 times)
        return s
    s = unicodedata.normalize("NFKD", s)
    return "".join(ch for ch in s if not unicodedata.combining(ch))


def normalize_common(name: str) -> str:
    """Lower-case, ASCII, punctuation and hyphens to single spaces."""
    s = _ascii(str(name)).lower().replace("×", " ")
    s = re.sub(r"[^a-z0-9]+", " ", s)
    return s.strip()


def scientific_forms(name: str) -> list[str]:
    """Normalised keys of a scientific name, most specific first.

    ``"Acer platanoides 'Crimson King' L."`` gives
    ``["acer platanoides crimson king", "acer platanoides"]``;
    ``"Gleditsia triacanthos var. inermis"`` gives
    ``["gleditsia triacanthos var inermis", "gleditsia triacanthos"]``;
    ``"Quercus spp."`` gives ``["quercus sp"]``.
    """
    raw = _ascii(str(name)).replace("×", " x ").strip()
    if raw.isupper():  # "ACER RUBRUM L." from a field export: read as a name, not authorities
        raw = raw.capitalize()
    cultivar = None
    m = re.search(r"['\"‘’“”]([^'\"‘’“”]+)['\"‘’“”]?", raw)
    if m:
        cultivar = normalize_common(m.group(1))
        raw = raw[: m.start()] + " " + raw[m.end() :]
    m = re.search(r"\bcv\.?\s+([A-Za-z][\w\- ]*)", raw)
    if m and cultivar is None:
        cultivar = normalize_common(m.group(1))
        raw = raw[: m.start()]
    tokens = re.findall(r"[A-Za-z][A-Za-z\-]*\.?|&|\(|\)", raw)
    words: list[str] = []
    rank_tail: list[str] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        bare = t.rstrip(".").lower()
        if t in ("(", ")", "&"):
            i += 1
            continue
        if not words:
            words.append(bare)
        elif bare == "x" and len(words) == 1:
            pass  # hybrid sign between genus and epithet
        elif len(words) == 1:
            if bare in _GENUS_WORDS:
                return [f"{words[0]} sp"]
            if t[0].isupper():  # an authority straight after the genus
                break
            words.append(bare)
        elif bare in _RANKS and i + 1 < len(tokens):
            rank_tail = [
                "var" if bare in {"var"} else ("subsp" if bare in {"subsp", "ssp"} else bare),
                tokens[i + 1].rstrip(".").lower(),
            ]
            i += 2
            continue
        else:
            # anything else after the binomial (authorities, 'L.', notes) ends it
            if t[0].isupper() or t.endswith("."):
                i += 1
                continue
            # a lower-case third word without a rank: treat as cultivar/variety text
            if cultivar is None:
                cultivar = bare
        i += 1
    if not words:
        return []
    if len(words) == 1:
        return [f"{words[0]} sp"]
    binomial = " ".join(words[:2])
    forms = []
    if cultivar:
        forms.append(f"{binomial} {cultivar}")
    if rank_tail:
        forms.append(f"{binomial} {' '.join(rank_tail)}")
    forms.append(binomial)
    return forms


@dataclass(frozen=True)
class _Index:
    exact: dict[str, tuple[str, str]]  # key -> (code, method)
    codes: dict[str, str]  # lower code -> code
    genus: dict[str, str]  # genus -> genus-row code
    genus_members: dict[str, list[str]]
    choices: list[str]  # fuzzy keys
    choice_codes: list[str]
    labels: dict[str, str]


@functools.cache
def _index() -> _Index:
    cat = data.catalogue()
    exact: dict[str, tuple[str, str]] = {}
    genus: dict[str, str] = {}
    members: dict[str, list[str]] = {}

    def put(key: str, code: str, method: str) -> None:
        if key and key not in exact:
            exact[key] = (code, method)

    # Species rows first, cultivar rows after them, genus rows last, so that
    # "Acer rubrum" names ACRU and not a cultivar row such as ACRUOC: a
    # cultivar is valued as its species (same value row and rating).
    def rank(r) -> tuple[int, int, str]:
        has_cultivar = bool(re.search(r"['\"‘’]", r.scientific_name))
        return (r.is_genus == "yes", has_cultivar, r.code)

    # the Northeast's species only: a species with a code only in another zone is read in that zone alone
    ordered = sorted((r for r in cat.itertuples() if r.northeast), key=rank)

    def is_group(r) -> bool:  # i-Tree type groups such as "BDL OTHER"
        return r.code.endswith(" OTHER")

    for r in ordered:
        if is_group(r):
            continue
        forms = scientific_forms(r.scientific_name)
        if r.is_genus == "yes":
            genus[forms[0].split()[0]] = r.code
        elif not re.search(r"['\"‘’]", r.scientific_name):
            members.setdefault(forms[-1].split()[0], []).append(r.code)
    for r in ordered:
        if is_group(r):
            put(normalize_common(r.scientific_name), r.code, "common")
            continue
        forms = scientific_forms(r.scientific_name)
        for f in forms[1:] if re.search(r"['\"‘’]", r.scientific_name) else forms:
            put(f, r.code, "scientific")
        put(normalize_common(r.common_name), r.code, "common")
        for a in filter(None, (x.strip() for x in r.aliases.split(";"))):
            for f in scientific_forms(a) if a[:1].isupper() and " " in a else []:
                put(f, r.code, "alias")
            put(normalize_common(a), r.code, "alias")
    choices, choice_codes = [], []
    for key, (code, _) in exact.items():
        choices.append(key)
        choice_codes.append(code)
    labels = {r.code: f"{r.code} {r.scientific_name} ({r.common_name})" for r in cat.itertuples()}
    codes = {c.lower(): c for c in cat.index[cat["northeast"].to_numpy(bool)]}
    return _Index(exact, codes, genus, members, choices, choice_codes, labels)


#: Suggestions computed in one batch by :func:`resolve_many` ({normalised key: [(code, score)]}).
_BATCH: dict[str, list[tuple[str, float]]] = {}


def load_index() -> None:
    """Build the species index now (it is cached): the command line does so before its child process reads the
    survey, so that the child, a fork, inherits the index the assessment reads too instead of building it again."""
    _index()


def _suggest_batch(idx: _Index, keys: list[str], n: int = 3) -> dict[str, list[tuple[str, float]]]:
    """:func:`_suggest` of many keys at once (one score matrix per 2,000 keys: five times faster than
    a search per key, which kept a survey of 20,000 distinct unknown names reading for many seconds)."""
    from rapidfuzz import fuzz, process  # only when a name is not found exactly (start-up of every command)

    out: dict[str, list[tuple[str, float]]] = {}
    for start in range(0, len(keys), 2000):
        part = keys[start : start + 2000]
        m = process.cdist(part, idx.choices, scorer=fuzz.QRatio, workers=-1, dtype=np.float64)
        k = min(40, m.shape[1])
        if not k:
            out.update({key: [] for key in part})
            continue
        cand = np.argpartition(-m, k - 1, axis=1)[:, :k]
        sc = np.take_along_axis(m, cand, 1)
        order = np.lexsort((cand, -sc), axis=-1)  # best score first, then catalogue order, as process.extract
        cand, sc = np.take_along_axis(cand, order, 1).tolist(), np.take_along_axis(sc, order, 1).tolist()
        for key, idxs, scores in zip(part, cand, sc):
            best: list[tuple[str, float]] = []
            seen: set[str] = set()
            for i, score in zip(idxs, scores):
                if score <= 0:
                    break
                code = idx.choice_codes[i]
                if code not in seen:
                    seen.add(code)
                    best.append((code, score))
                if len(best) >= n:
                    break
            out[key] = best
    return out


def _suggest(idx: _Index, key: str, n: int = 3) -> list[tuple[str, float]]:
    if n == 3 and key in _BATCH:
        return _BATCH[key]
    from rapidfuzz import fuzz, process  # only when a name is not found exactly (start-up of every command)

    out: list[tuple[str, float]] = []
    seen: set[str] = set()
    for _, score, i in process.extract(key, idx.choices, scorer=fuzz.QRatio, limit=40):
        code = idx.choice_codes[i]
        if code not in seen:
            seen.add(code)
            out.append((code, float(score)))
        if len(out) >= n:
            break
    return out


def resolve_one(name: object) -> Resolution:
    """Resolve one name; never raises (see :func:`resolve` for the raising form)."""
    idx = _index()
    text = "" if name is None else str(name).strip()
    if not text or text.lower() == "nan":
        return Resolution(text, None, "unresolved", 0.0, [], "no species given")
    if text.lower() in idx.codes:
        return Resolution(text, idx.codes[text.lower()], "code", 100.0)
    forms = scientific_forms(text)
    first = forms[0].split()[0] if forms else ""
    if first not in idx.genus and first not in idx.genus_members:
        forms = []  # not a scientific name (e.g. "Red Mapel"): try common names
    for k, f in enumerate(forms):
        if f in idx.exact:
            code, method = idx.exact[f]
            if f.endswith(" sp"):
                return Resolution(text, code, "genus", 100.0, [], f"genus only: {text!r} valued as {idx.labels[code]}")
            return Resolution(text, code, "scientific" if k == len(forms) - 1 or k == 0 else "cultivar", 100.0)
    key = normalize_common(text)
    if key in idx.exact:
        code, method = idx.exact[key]
        return Resolution(text, code, method, 100.0)
    # a genus without its own row: one species only, or no decision
    if forms and forms[0].endswith(" sp"):
        return _genus_without_row(idx, text, forms[0].split()[0])
    common_genus = _common_genus(idx, text)
    if common_genus is not None:
        return common_genus
    best = _suggest(idx, key)
    sugg = [f"{idx.labels[c]} {s:.0f}%" for c, s in best]
    if best and best[0][1] >= FUZZY_ACCEPT and (len(best) < 2 or best[0][1] - best[1][1] >= FUZZY_MARGIN):
        code, score = best[0]
        cat = data.catalogue()
        return Resolution(
            text,
            code,
            "fuzzy",
            score,
            sugg,
            f"fuzzy match: {text!r} → {cat.at[code, 'scientific_name']} ({code}), {score:.0f}%",
        )
    return Resolution(text, None, "unresolved", best[0][1] if best else 0.0, sugg, "species not recognised")


def _genus_without_row(idx: _Index, text: str, g: str) -> Resolution:
    """A genus the catalogue has no genus row for ("Morus sp."): its only species, or the i-Tree type
    group its species all share ("BDM OTHER"); otherwise unresolved with its species as suggestions."""
    mem = idx.genus_members.get(g, [])
    if len(mem) == 1:
        return Resolution(
            text,
            mem[0],
            "genus",
            100.0,
            [],
            f"genus only: {text!r} valued as its only catalogue species {idx.labels[mem[0]]}",
        )
    types = set(data.catalogue().loc[mem, "tree_type"]) if mem else set()
    group = f"{next(iter(types))} OTHER" if len(types) == 1 else ""
    if group in idx.labels:
        return Resolution(
            text,
            group,
            "genus",
            100.0,
            [],
            f"genus only: {text!r} has no genus row; its catalogue species ("
            f"{', '.join(mem)}) are all {next(iter(types))}, valued as {idx.labels[group]}",
        )
    sugg = [idx.labels[c] for c in mem[:3]]
    return Resolution(text, None, "unresolved", 0.0, sugg, f"genus {g.capitalize()} has no genus row; name the species")


_GENUS_TAIL = re.compile(r"^(?P<head>.+?)[\s,]+(?:sp|spp|sps|species)\.?$", re.I)


def _common_genus(idx: _Index, text: str) -> Resolution | None:
    """A common name with a genus mark, "Oak sp.", "Maple spp.": the genus of what the common name names."""
    m = _GENUS_TAIL.match(text.strip())
    if not m:
        return None
    hit = idx.exact.get(normalize_common(m.group("head")))
    if hit is None:
        return None
    sci = data.catalogue().at[hit[0], "scientific_name"]
    forms = scientific_forms(sci)
    g = forms[-1].split()[0] if forms else ""
    if not g or hit[0].endswith(" OTHER"):
        return None
    if g in idx.genus:
        code = idx.genus[g]
        return Resolution(text, code, "genus", 100.0, [], f"genus only: {text!r} valued as {idx.labels[code]}")
    return _genus_without_row(idx, text, g)


def _squash(key: str) -> str:
    """A common name's key without spaces or a leading "common": "crape myrtle" and "Common crapemyrtle" meet."""
    key = key.removeprefix("common ")
    return key.replace(" ", "")


@functools.cache
def _zone_index(zone: str) -> dict[str, str]:
    """Names -> code of every species of ``zone``'s list (code, scientific forms, a genus row as "<genus> sp",
    common name with and without its spaces): the names the zone's own trees are read by first. Its plain species
    rows before its cultivars, so that "Picea pungens" names the list's PIPU, and a binomial only cultivars
    carry names the first of them; the type groups ("CEL OTHER") by their code only."""
    own = pd.read_csv(data.data_file(f"species/zones/{zone}/species.csv", data.SPECIES_DIR.parent), dtype=str)
    rows = [
        (code, scientific_forms(sci), common)
        for code, sci, common in zip(own["code"], own["scientific_name"].fillna(""), own["common_name"].fillna(""))
    ]
    out: dict[str, str] = {}
    for code, forms, common in sorted(rows, key=lambda r: len(r[1]) > 1):  # stable: the list's order kept
        if code.endswith(" OTHER"):
            out.setdefault(code.lower(), code)
            continue
        keys = [code.lower(), *forms]
        if common:
            keys += [normalize_common(common), _squash(normalize_common(common))]
        for k in keys:
            out.setdefault(k, code)
    return out


def _zone_keys(text: str) -> tuple[list[str], str]:
    """The keys a text is looked up by in a zone's list (most specific first), and its genus key."""
    key = normalize_common(text)
    forms = scientific_forms(text)
    genus = f"{forms[-1].split()[0]} sp" if forms else ""
    return [text.lower(), *forms, key, _squash(key)], genus


@functools.cache
def _zone_choices(zone: str) -> tuple[list[str], list[str]]:
    """The keys of :func:`_zone_index` (``zone``'s own species) and their codes, for a fuzzy match."""
    idx = _zone_index(zone)
    return list(idx), list(idx.values())


def _zone_fuzzy(text: str, zone: str, northeast: Resolution) -> Resolution | None:
    """A misspelt name ("Lagerstroemia indca") matched against the catalogue of the zone the tree is valued in:
    the Northeast catalogue's species (valued there too) and ``zone``'s own list together, the best accepted as
    :func:`resolve_one` accepts a fuzzy match (score and margin). None unless the best is one of the zone's own
    species (the Northeast's best is ``northeast``'s already)."""
    keys, codes = _zone_choices(zone)
    if not keys:
        return None
    key = normalize_common(text)
    from rapidfuzz import fuzz, process  # only when a name is not found exactly (start-up of every command)

    own: list[tuple[str, float]] = []
    for _, score, i in process.extract(key, keys, scorer=fuzz.QRatio, limit=40):
        if codes[i] not in {c for c, _ in own}:
            own.append((codes[i], float(score)))
        if len(own) >= 3:
            break
    best = sorted([*own, *_suggest(_index(), key)], key=lambda cs: -cs[1])
    distinct = [cs for k, cs in enumerate(best) if cs[0] not in {c for c, _ in best[:k]}]
    if not distinct or distinct[0][0] not in dict(own):
        return None
    code, score = distinct[0]
    if score < FUZZY_ACCEPT or (len(distinct) > 1 and score - distinct[1][1] < FUZZY_MARGIN):
        return None
    if northeast.method == "fuzzy" and northeast.score >= score:
        return None
    cat = data.catalogue()
    labels = _index().labels
    return Resolution(
        text,
        code,
        "fuzzy",
        score,
        [f"{labels[c]} {sc:.0f}%" for c, sc in distinct[:3]],
        f"fuzzy match: {text!r} → {cat.at[code, 'scientific_name']} ({code}) of the {zone} species list, {score:.0f}%",
    )


def _in_zone(text: str, zone: str, keys: tuple[list[str], str] | None = None) -> Resolution | None:
    """``text`` as a species only ``zone``'s list has a code for (exact names, or its genus's row), or None."""
    hit = _in_zone_exact(text, zone, keys)
    return hit if hit is not None else _in_zone_genus(text, zone, keys)


def _in_zone_exact(text: str, zone: str, keys: tuple[list[str], str] | None = None) -> Resolution | None:
    """``text`` as a species of ``zone``'s own list, by its exact names, or None."""
    idx = _zone_index(zone)
    exact, _ = keys or _zone_keys(text)
    code = next((idx[k] for k in exact if k in idx), None)
    if code is None:
        return None
    cat = data.catalogue()
    label = f"{code} {cat.at[code, 'scientific_name']} ({cat.at[code, 'common_name']})"
    if code.lower() in _index().codes:
        ne = resolve_one(text)
        if ne.code == code:  # the Northeast reads it so too: nothing to say
            return ne
        return Resolution(
            text, code, "zone", 100.0, [], f"{text!r} read as {label}, as the {zone} species list names it"
        )
    return Resolution(
        text,
        code,
        "zone",
        100.0,
        [],
        f"{text!r} read as {label} of the {zone} species list (the Northeast catalogue has no code of its own for it)",
    )


def _in_zone_genus(text: str, zone: str, keys: tuple[list[str], str] | None = None) -> Resolution | None:
    """``text``'s genus as the genus row of ``zone``'s own list, or None."""
    idx = _zone_index(zone)
    _, genus = keys or _zone_keys(text)
    cat = data.catalogue()
    if genus and genus in idx:
        code = idx[genus]
        return Resolution(
            text,
            code,
            "genus",
            100.0,
            [],
            f"genus only: {text!r} is not in the {zone} species list; valued as its genus's row there, {code} "
            f"{cat.at[code, 'scientific_name']} ({cat.at[code, 'common_name']})",
        )
    return None


@functools.cache
def _listed_in() -> dict[str, tuple[str, ...]]:
    """Every key of every zone's :func:`_zone_index` -> the zones (other than the Northeast) it names a species in."""
    out: dict[str, list[str]] = {}
    for z in data.zones().index:
        if z != data.DEFAULT_ZONE:
            for k in _zone_index(str(z)):
                out.setdefault(k, []).append(str(z))
    return {k: tuple(v) for k, v in out.items()}


@functools.cache
def _listed_words() -> frozenset[str]:
    """The first word of every key of :func:`_listed_in` (a genus, or a common name's first word)."""
    return frozenset(k.split()[0] for k in _listed_in() if k.split())


def zones_listing(text: object) -> list[str]:
    """The zones other than the Northeast whose species list has ``text`` (for a refusal that says where)."""
    t = "" if text is None else str(text).strip()
    if not t:
        return []
    listed = _listed_in()
    words = t.lower().split()
    if words and words[0] in _listed_words():
        exact, genus = _zone_keys(t)
    else:  # no zone's key starts so: its scientific forms (the costly part, for thousands of unknown names) need not be made
        key = normalize_common(t)
        exact, genus = [t.lower(), key, _squash(key)], ""
    found = {z for k in (*exact, genus) if k for z in listed.get(k, ())}
    return [str(z) for z in data.zones().index if z in found]


def resolve_in_zone(name: object, zone: str | tuple[str, ...] | None) -> Resolution:
    """:func:`resolve_one`, and in a zone other than the Northeast, a name it leaves unresolved or only
    fuzzily matched that the zone's own list names (crape myrtle in PiedmtCLT). ``zone`` may be the zones of a
    survey whose trees lie in several (the zone most lie in first): a name is then read in the first whose list
    has it (exact names in any before a misspelling in any, before a genus row)."""
    r = resolve_one(name)
    zones = tuple(z for z in ((zone,) if isinstance(zone, str) else (zone or ())) if z != data.DEFAULT_ZONE)
    if not zones or not r.name:
        return r
    keys = _zone_keys(r.name)
    # the zone's own names first: the Northeast's catalogue names another code for some of them (its cultivar
    # PIPUGL for "Picea pungens", which the Lower Midwest lists as PIPU) or none (Myrica cerifera, its Morella)
    for z in zones:
        hit = _in_zone_exact(r.name, z, keys)
        if hit is not None:
            return hit
    if r.method not in ("unresolved", "fuzzy"):
        return r
    # a misspelling matched against the zone's catalogue (a species beats its genus's row), then the genus row
    for find in (
        lambda z: _zone_fuzzy(r.name, z, r),
        lambda z: _in_zone_genus(r.name, z, keys),
    ):
        for z in zones:
            hit = find(z)
            if hit is not None:
                return hit
    return r


def resolve(name: object) -> str:
    """The i-Tree code for ``name``; raises :class:`UnknownSpecies` with suggestions."""
    r = resolve_one(name)
    if r.code is None:
        raise UnknownSpecies(str(name), r.suggestions)
    return r.code


def resolve_many(names: Iterable[object], zone: str | tuple[str, ...] | None = None) -> pd.DataFrame:
    """Resolve each distinct name once (``zone``: see :func:`resolve_in_zone`).

    Returns a DataFrame indexed by the distinct input strings with columns
    ``code`` (None when unresolved), ``method``, ``score``, ``suggestions``
    (list of str), ``warning``.
    """
    distinct = pd.unique(pd.Series(list(names), dtype=object).fillna("").astype(str))
    if len(distinct) > 200:  # many names: their fuzzy suggestions in one batch
        _BATCH.clear()
        _BATCH.update(_suggest_batch(_index(), list(dict.fromkeys(normalize_common(str(n).strip()) for n in distinct))))
    try:
        rows = [resolve_in_zone(n, zone) for n in distinct]
    finally:
        _BATCH.clear()
    return pd.DataFrame(
        {
            "code": [r.code for r in rows],
            "method": [r.method for r in rows],
            "score": [r.score for r in rows],
            "suggestions": [r.suggestions for r in rows],
            "warning": [r.warning for r in rows],
        },
        index=pd.Index(distinct, name="name"),
    )
