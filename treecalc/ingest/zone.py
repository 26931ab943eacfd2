"""Which i-Tree Streets climate zone a point lies in, from the zones' published boundaries.

The boundaries are OpenTreeMap's (otm-core ``assets/fixtures/itree_regions_expanded.json``, the i-Tree
regions it serves, in EPSG:3857), carried into ``data/species/zones/regions.csv`` by
``tools/build_zones.py``. A point is found with a :class:`shapely.STRtree` over the 16 multipolygons, many
points in one bulk query. A point within :data:`NEAR_KM` of another zone's boundary is reported with that
zone, so its benefits there can be stated beside (the boundaries are a generalisation of climate, not a
line on the ground).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pandas as pd

from treecalc.reference import data, geo

# a point's zone is found in treecalc.reference.geo: the survey reader asks it of x/y that look swapped, below the science
from treecalc.reference.geo import NEAR_KM, ZoneAt, to_web_mercator, zone_at, zones_at

if TYPE_CHECKING:
    from treecalc.ingest import Survey


def describe(hit: ZoneAt, lat: float, lon: float) -> str:
    """The zone found for a point, in words."""
    if hit.zone is None:
        return f"{lat:g}, {lon:g} lies in no i-Tree Streets climate zone"
    return f"{lat:g}, {lon:g} lies in the {data.zones().at[hit.zone, 'name']} zone ({hit.zone})"


__all__ = ["NEAR_KM", "ZoneAt", "describe", "to_web_mercator", "zone_at", "zones_at"]


@dataclass(frozen=True)
class SurveyZone:
    """The climate zone a survey's trees are valued in, how it was chosen (``source``), and what to say."""

    zone: str
    source: str  # "given", "site fact climate_zone", "tree coordinates" or "default"
    notes: tuple[str, ...] = ()
    placed: bool = False  # the trees' coordinates were read (the notes then say where they lie: a warning)
    #: The zone of each tree (a Series on the trees' index) when the trees lie in more than one zone: each is
    #: valued in its own, a tree without coordinates or in no zone in :attr:`zone` (the zone most lie in).
    per_tree: Any = None
    #: The zones the trees are valued in, with their counts (most first, a tie by code), when they are more than one.
    counts: tuple[tuple[str, int], ...] = ()
    #: The other zones as many trees lie in as in :attr:`zone` (a tie, broken by :func:`by_count`'s rule).
    tied: tuple[str, ...] = ()
    #: How many of the trees counted in :attr:`zone` were only defaulted to it (no zone named or found for them).
    defaulted: int = 0
    #: What a given zone overrode, or what overrode it (said as warnings; also in :attr:`notes`).
    overrides: tuple[str, ...] = ()

    @property
    def is_default(self) -> bool:
        return self.source == "default"


#: How a tie for the most trees is broken, in words (the order of the survey's rows must not choose the zone).
TIE_RULE = "of zones with as many trees the first by code in alphabetical order is taken"


def by_count(counts: Any) -> Any:
    """``counts`` (trees by zone code) most first, zones with as many trees in alphabetical order of their code:
    the same order whatever the order of the survey's rows (``value_counts`` breaks a tie by first appearance)."""
    return counts.sort_index(kind="stable").sort_values(ascending=False, kind="stable")


def _tied(counts: Any) -> tuple[str, ...]:
    """The zones (after the first) with as many trees as the first of ``counts`` (:func:`by_count`'s order)."""
    return tuple(str(z) for z, n in list(counts.items())[1:] if int(n) == int(counts.iloc[0]))


def chosen_words(sz: SurveyZone, lie_in: str = "the zone most of the surveyed trees lie in") -> str:
    """Why :attr:`SurveyZone.zone` was chosen of a survey's zones, in words: the zone most trees lie in, and when
    that is a tie, with which zones and how it was broken; trees only defaulted to it are not said to lie in it."""
    n = dict(sz.counts).get(sz.zone)
    if sz.defaulted:
        lie_in = lie_in.replace(" lie in", " are valued in")
        own = (n or sz.defaulted) - sz.defaulted
        why = f"{sz.defaulted} {'tree' if sz.defaulted == 1 else 'trees'} with no climate zone given or found, valued there by default"
        lie_in += f" ({_trees(own)} in it, {why})" if own else f" ({why})"
    if not sz.tied:
        return lie_in
    zones = data.zones()
    others = " and ".join(f"the {zones.at[z, 'name']} zone ({z})" for z in sz.tied)
    # the other zone's count: the chosen zone's may include trees in no zone, valued there after the choice
    tie_n = dict(sz.counts).get(sz.tied[0])
    each = f", {tie_n} {'tree' if tie_n == 1 else 'trees'} each" if tie_n else ""
    return f"tied with {others} as {lie_in}{each}: {TIE_RULE}"


def _trees(n: int) -> str:
    return f"{n} tree lies" if n == 1 else f"{n} trees lie"


def _near_note(trees: object, chosen: Any, other: str, value_in: ValueIn | None) -> str:
    """The trees near another zone, and their total annual benefits here and there (default parameters)."""
    n = len(trees)  # type: ignore[arg-type]
    head = f"{_trees(n)} within {NEAR_KM:g} km of the {data.zones().at[other, 'name']} zone ({other}) boundary"
    return _own_zone_note(trees, chosen, other, head, value_in)


#: The trees' total annual benefits in a zone (None: each tree in the zone of its ``zone`` column), as the
#: models value them (:func:`treecalc.models.benefits.annual_total`): given by the caller, since the survey's
#: zone is found here, below the models that value the trees.
ValueIn = Callable[[Any, "str | None"], float]


def _own_zone_note(trees: object, chosen: Any, other: str, head: str, value_in: ValueIn | None) -> str:
    """``head`` with the trees' total annual benefits valued in ``other`` and in ``chosen`` (default parameters):
    a zone code, or a Series of each tree's own zone (the zones of a survey valued tree by tree). Without
    ``value_in`` (the zone found only to read the survey in it) the head alone."""
    cols = [c for c in ("species_code", "dbh_in", "land_use") if c in trees]  # type: ignore[operator]
    if value_in is None or "species_code" not in cols or "dbh_in" not in cols:
        return head
    frame = trees[cols]  # type: ignore[index]
    try:
        if isinstance(chosen, str):
            here = value_in(frame, chosen)
        else:  # each tree in its own zone, in the one lookup
            here = value_in(frame.assign(zone=chosen.reindex(frame.index).to_numpy(object)), None)
        there = value_in(frame, other)
    except ValueError:  # a tree the benefits cannot value is reported where the trees are valued
        return head
    return f"{head}: valued there their annual benefits would total ${there:,.2f} (here ${here:,.2f}, default prices)"


def survey_zone(
    trees: object, site: dict | None = None, zone: str | None = None, value_in: ValueIn | None = None
) -> SurveyZone:
    """The zone of a survey: ``zone`` when given (every tree's), else the site fact ``climate_zone``, else the
    zone most of the trees with coordinates (latitude/longitude, or x/y with the site fact ``crs``) lie in, else
    the Northeast (the default, said so). Trees that lie in several zones are each valued in their own
    (:attr:`SurveyZone.per_tree`), as are the trees whose zone the survey's ``climate_zone`` column names. Trees
    in another zone, outside every zone, or within :data:`NEAR_KM` of another zone are counted in the notes."""
    if zone:
        code = data.zone_code(zone)
        overrides = _given_over(trees, site, code)
        return SurveyZone(code, "given", overrides, overrides=overrides)
    column = _zone_column(trees)
    if column is None:
        return _found_zone(trees, site, value_in)
    return _with_zone_column(trees, site, column, value_in)


#: The survey's column of each tree's climate zone (:func:`treecalc.ingest.read_survey`'s ``climate_zone``).
ZONE_COLUMN = "climate_zone"


def _zone_column(trees: object) -> Any:
    """The zone code of each tree the survey's ``climate_zone`` column names ("" where blank), or None when it
    has no such column or names none; a zone no code or name of (a table given to the library) is an error
    naming the column."""
    if not isinstance(trees, pd.DataFrame) or ZONE_COLUMN not in trees or not len(trees):
        return None
    text = trees[ZONE_COLUMN].astype(object).where(trees[ZONE_COLUMN].notna(), "").astype(str).str.strip()
    if not (text != "").any():
        return None
    try:
        codes = {t: data.zone_code(t) for t in pd.unique(text[text != ""])}
    except ValueError as e:
        raise ValueError(f"column {ZONE_COLUMN!r}: {e}") from None
    return text.map(lambda t: codes.get(t, ""))


def _with_zone_column(trees: Any, site: dict | None, column: Any, value_in: ValueIn | None) -> SurveyZone:
    """:func:`survey_zone` of a survey whose ``climate_zone`` column names the zone of some trees or all: those
    are valued in it, the others in the zone found for them alone (site fact, coordinates, else the
    Northeast, said so)."""
    named = (column != "").to_numpy(bool)
    zones = data.zones()
    per_tree = pd.Series(column.to_numpy(object), index=trees.index, dtype=object)
    notes = [f"{int(named.sum())} of the {len(trees)} trees' climate zones are read from the column {ZONE_COLUMN}"]
    placed, defaulted = False, 0
    if not named.all():
        rest = trees.loc[~named]
        found = _found_zone(rest, site, value_in)
        others = found.per_tree if found.per_tree is not None else pd.Series(found.zone, index=rest.index)
        per_tree.loc[rest.index] = others.to_numpy(object)
        notes += [f"the other {len(rest)}: {n}" for n in found.notes]
        placed = found.placed or found.source == "tree coordinates"
        defaulted = len(rest) if found.is_default else 0
    overrides = _column_over_fact(per_tree[named], site, len(trees) - int(named.sum()))
    notes += overrides
    counts = by_count(per_tree.value_counts())
    chosen = str(counts.index[0])
    if len(counts) == 1:
        return SurveyZone(
            chosen, f"survey column {ZONE_COLUMN}", tuple(notes), placed=placed, overrides=tuple(overrides)
        )
    listed = tuple((str(z), int(n)) for z, n in counts.items())
    notes.insert(
        0,
        f"the trees lie in {len(listed)} climate zones and each is valued in its own zone's tables and prices: "
        + ", ".join(f"{n} in the {zones.at[z, 'name']} zone ({z})" for z, n in listed),
    )
    return SurveyZone(
        chosen,
        f"survey column {ZONE_COLUMN}",
        tuple(notes),
        placed=placed,
        per_tree=per_tree,
        counts=listed,
        tied=_tied(counts),
        defaulted=defaulted if chosen == data.DEFAULT_ZONE else 0,
        overrides=tuple(overrides),
    )


def _counted(counts: Any) -> str:
    """Trees counted by zone, in words: "2 trees in the South zone (PiedmtCLT), 1 tree in the ..."."""
    zones = data.zones()
    return ", ".join(
        f"{n} {'tree' if n == 1 else 'trees'} in the {zones.at[z, 'name']} zone ({z})" for z, n in counts.items()
    )


def _given_over(trees: object, site: dict | None, code: str) -> tuple[str, ...]:
    """What ‹zone› ``code`` overrides, in words: the zones the survey's ``climate_zone`` column names for its
    trees and the site fact ``climate_zone``, where they name another zone (every tree is valued in ``code``)."""
    zones = data.zones()
    chosen = (
        f"the zone chosen (‹zone› {code}) values every tree in the {zones.at[code, 'name']} zone ({code}), overriding"
    )
    out = []
    column = _zone_column(trees)
    if column is not None:
        other = by_count(column[(column != "") & (column != code)].value_counts())
        if len(other):
            out.append(f"{chosen} the zones the column {ZONE_COLUMN} names: {_counted(other)}")
    fact = _fact_code(site)
    if fact is not None and fact != code:
        out.append(f"{chosen} the site fact climate_zone={fact} ({zones.at[fact, 'name']})")
    return tuple(out)


def _fact_code(site: dict | None) -> str | None:
    """The zone code the site fact ``climate_zone`` names, or None; a fact naming no zone is an error naming it."""
    fact = (site or {}).get("climate_zone")
    if fact in (None, ""):
        return None
    try:
        return data.zone_code(fact)
    except ValueError as e:
        raise ValueError(f"site fact climate_zone: {e}") from None


def _column_over_fact(named: Any, site: dict | None, rest: int) -> list[str]:
    """The site fact ``climate_zone`` beside a survey's ``climate_zone`` column, in words: the column's zone
    overrides the fact for each tree it names in another zone; the fact values the trees it leaves blank."""
    fact = _fact_code(site)
    if fact is None:
        return []
    zones = data.zones()
    other = by_count(named[named != fact].value_counts())
    out = []
    if len(other):
        out.append(
            f"the column {ZONE_COLUMN} overrides the site fact climate_zone={fact} ({zones.at[fact, 'name']}) for "
            f"the trees it names in another zone: {_counted(other)}"
        )
    if rest:
        out.append(
            f"the site fact climate_zone={fact} values the {rest} {'tree' if rest == 1 else 'trees'} the column "
            f"{ZONE_COLUMN} leaves blank in the {zones.at[fact, 'name']} zone ({fact})"
        )
    return out


def _found_zone(trees: object, site: dict | None, value_in: ValueIn | None) -> SurveyZone:
    """:func:`survey_zone` of trees no zone is given for: the site fact, else their coordinates, else the
    Northeast."""
    fact = _fact_code(site)
    if fact is not None:
        return SurveyZone(fact, "site fact climate_zone")
    default = SurveyZone(
        data.DEFAULT_ZONE,
        "default",
        (
            "no climate zone given (‹zone› or the site fact climate_zone) and no tree coordinates: the Northeast "
            "(NoEastXXX) tables value the trees, the default",
        ),
    )
    if not isinstance(trees, pd.DataFrame) or not len(trees):
        return default
    ll = geo.tree_lonlat(trees, site)
    if ll is None:
        return default
    ok = ll.dropna()
    if not len(ok):
        # coordinates given but none placeable: say so (and in which crs), not that there are none
        crs = (site or {}).get("crs") if "latitude" not in trees or "longitude" not in trees else None
        how = f"x/y in crs={crs}" if crs else "latitude/longitude"
        return SurveyZone(
            data.DEFAULT_ZONE,
            "default",
            (
                f"the coordinates of the {len(ll)} {'tree' if len(ll) == 1 else 'trees'} ({how}) are all blank "
                "or out of range (check the columns and the crs): the Northeast (NoEastXXX) tables value the "
                "trees, the default; choose one with ‹zone›",
            ),
            placed=True,
        )
    hits = zones_at(ok["latitude_deg"].to_numpy(), ok["longitude_deg"].to_numpy())
    found = pd.Series([h.zone for h in hits], dtype=object)
    counts = by_count(found.dropna().value_counts())
    if not len(counts):
        return SurveyZone(
            data.DEFAULT_ZONE,
            "default",
            (
                f"none of the {len(ok)} trees with coordinates lies in an i-Tree Streets climate zone: the Northeast "
                "(NoEastXXX) tables value the trees, the default; choose one with ‹zone›",
            ),
            placed=True,
        )
    chosen = str(counts.index[0])
    if len(counts) > 1:
        return _per_tree_zones(trees, ok, hits, found, counts, len(ll) - len(ok), value_in)
    name = data.zones().at[chosen, "name"]
    notes = [
        f"{int(counts.iloc[0])} of the {len(ok)} trees with coordinates lie in the {name} zone ({chosen}): "
        "its tables value the trees"
    ]
    if found.isna().any():
        notes.append(f"{_trees(int(found.isna().sum()))} in no zone, valued in {chosen}")
    near = _near_rows(hits)
    for other, rows in sorted(near.items()):
        if other == chosen:  # trees in no zone near the survey's: already valued here
            continue
        notes.append(_near_note(trees.loc[ok.index[rows]], chosen, other, value_in))
    if len(ll) > len(ok):
        missing = len(ll) - len(ok)
        notes.append(f"{missing} tree has no coordinates" if missing == 1 else f"{missing} trees have no coordinates")
    return SurveyZone(chosen, "tree coordinates", tuple(notes))


def _near_rows(hits: list[ZoneAt]) -> dict[str, list[int]]:
    """The positions in ``hits`` of the trees within :data:`NEAR_KM` of each other zone, by that zone."""
    near: dict[str, list[int]] = {}
    for k, h in enumerate(hits):
        for other in h.near:
            near.setdefault(other, []).append(k)
    return near


def _per_tree_zones(
    trees: Any, ok: Any, hits: list[ZoneAt], found: Any, counts: Any, missing: int, value_in: ValueIn | None
) -> SurveyZone:
    """:func:`survey_zone` of trees lying in more than one zone: each tree valued in the zone it lies in (a tree
    in no zone, or without coordinates, in the zone most lie in), the zones counted, and the trees within
    :data:`NEAR_KM` of another zone's boundary warned of with their total there and in their own zones."""
    chosen = str(counts.index[0])
    zones = data.zones()
    per_tree = pd.Series(chosen, index=trees.index, dtype=object)
    per_tree.loc[ok.index] = found.fillna(chosen).to_numpy(object)
    listed = [(str(z), int(n)) for z, n in counts.items()]
    valued = by_count(per_tree.value_counts())
    notes = [
        f"the trees lie in {len(listed)} climate zones and each is valued in its own zone's tables and prices: "
        + ", ".join(f"{n} in the {zones.at[z, 'name']} zone ({z})" for z, n in listed)
    ]
    # the words of the choice, on the counts of the trees placed in a zone (those it was chosen from)
    why = chosen_words(SurveyZone(chosen, "", counts=tuple(listed), tied=_tied(counts)), "the zone most trees lie in")
    if found.isna().any():
        notes.append(f"{_trees(int(found.isna().sum()))} in no zone, valued in {chosen} ({why})")
    if missing:
        has = "tree has" if missing == 1 else "trees have"
        notes.append(f"{missing} {has} no coordinates, valued in {chosen} ({why})")
    near = _near_rows(hits)
    for other, rows in sorted(near.items()):
        notes.append(_near_note(trees.loc[ok.index[rows]], per_tree, other, value_in))
    counted = tuple((str(z), int(n)) for z, n in valued.items())
    return SurveyZone(chosen, "tree coordinates", tuple(notes), per_tree=per_tree, counts=counted, tied=_tied(counts))


def _placing(survey: Any) -> Any:
    """Where a survey's rows lie, to choose the zones it is read in: the trees' coordinates (and climate zone
    column), and the rejected rows' as written (their cells under the same headers), so that a tree rejected for
    a species only its own zone lists places the survey too (a crape myrtle in Philadelphia, the rest in the
    Northeast). Only the zone is found from it; the trees are valued from their own read."""
    trees = survey.trees
    fields = [f for f in ("latitude", "longitude", "x", "y", ZONE_COLUMN) if f in trees]
    rejected = getattr(survey, "rejected", None)
    source = getattr(survey, "source", None) or {}
    header = {f: h for h, f in (source.get("column_map") or {}).items() if f in fields}
    if not fields or rejected is None or not len(rejected) or "raw" not in rejected or len(header) < len(fields):
        return trees[fields] if fields else trees

    def cell(raw: Any, f: str) -> Any:
        v = (raw or {}).get(header[f]) if isinstance(raw, dict) else None
        if f == ZONE_COLUMN:
            try:
                return data.zone_code(v) if v not in (None, "") else ""
            except ValueError:
                return ""
        try:
            t = str(v).strip()
            return float(t.replace(",", ".") if source.get("decimal_comma") else t)
        except (TypeError, ValueError):
            return float("nan")

    more = pd.DataFrame({f: [cell(r, f) for r in rejected["raw"]] for f in fields})
    return pd.concat([trees[fields], more], ignore_index=True)


def _read_zones(found: SurveyZone) -> str | tuple[str, ...]:
    """The zone a survey is read in (its species lists): the zone found, or the zones of trees in several."""
    return tuple(z for z, _ in found.counts) if found.counts else found.zone


def read_survey_in_zone(source: Any, zone: str | None = None, **kw: Any) -> Survey:
    """:func:`treecalc.ingest.read_survey` in the survey's climate zone, so that a species only that zone's list
    has a code for (crape myrtle in PiedmtCLT) is read and valued there: ``zone`` when given; else, when the
    read rejected such a species, the zone :func:`survey_zone` finds from the site facts (``climate_zone``) or
    the trees' coordinates, and the survey read again in it (only then: the rows the first read accepted place
    the survey). A species the read did not recognise at all (a misspelling) is matched again in that zone, against
    its own catalogue. In the Northeast such rows stay rejected, each saying which zones list it."""
    from treecalc.ingest import read_survey  # late-bound: read_survey looked up when called
    from treecalc.ingest.survey import ZONE_HINT  # start-up: only when needed, not by every assess

    survey = read_survey(source, zone=zone, **kw)
    if zone:
        return survey
    rejected = getattr(survey, "rejected", None)
    if rejected is None or not len(rejected) or "reason" not in rejected:
        return survey
    listed = rejected["reason"].astype(str).str.contains(ZONE_HINT, regex=False)
    # a name no list has as written (a misspelling, "Crape myrtl") may be matched in the zone's own catalogue
    unknown = rejected["kind"].astype(str).eq("unresolved species") if "kind" in rejected else listed
    if not (listed | unknown).any():
        return survey
    try:
        found = survey_zone(_placing(survey), survey.site, None)
    except ValueError:  # an unplaceable survey (x/y without crs) is said where the trees are valued
        return survey
    # Read again in the zone found; the rows that read adds can move the majority to another zone (pistaches
    # near Napa rejected at first, maples near Fairfield placing the survey), so read until the zone that
    # values the trees is the zone whose list read them (a zone seen twice ends it: the last read stands). Trees
    # in several zones are read in all of them, the zone most lie in first.
    seen: set[object] = set()
    while (read_in := _read_zones(found)) != data.DEFAULT_ZONE and read_in not in seen:
        seen.add(read_in)
        if hasattr(source, "seek"):
            source.seek(0)
        survey = read_survey(source, zone=read_in, **kw)
        try:
            found = survey_zone(_placing(survey), survey.site, None)
        except ValueError:
            break
    return survey
