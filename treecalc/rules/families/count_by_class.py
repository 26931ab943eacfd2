"""Replacement trees by DBH class, a fee per tree in lieu: one implementation for every town of the family.

A town's law file holds the table (``[replacement.classes]``: each class's DBH bounds with the comparisons its
words state, the trees to replant for each tree removed and the fee of that tree), the street-tree threshold of
its first class when it has one, the caliper of the replacements and its credits (``[credit]``); its readings say
its exemptions (``[exemptions]``: held ones applied from the survey's flags or a site fact, those not held naming
their section) and what else of the ordinance is not held. A tree the law's text leaves undecided (an exemption
not held, a DBH between two classes) gets no count, and so does one whose count rests on a fact its survey column
leaves open (a Street Tree, Hazardous or Dead cell blank, "Unknown" or "maybe", where the two answers give two
counts); the total is then not given: a count the text does not support is never printed.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import pandas as pd

from treecalc.frames import actions, dbh, flag_given, flag_open, unclear
from treecalc.ingest.site import resolve_site, site_defaults
from treecalc.ingest.values import parse_action
from treecalc.law import cites, readings
from treecalc.law.access import fill
from treecalc.law.loader import entries
from treecalc.law.registry import Jurisdiction, by_key
from treecalc.law.schema import Entry, compare
from treecalc.results import NOT_HELD_PARTS, Findings, Fund, NotHeld, Penalties, Permit, Replacement, line
from treecalc.schema import REMOVALS

if TYPE_CHECKING:  # the assessment's context, as a type only: the assessment calls the rules
    from treecalc.rules.context import Context

SECTIONS_APPLIED: list[str] = []
READING_ITEMS: list[tuple[str, str]] = []


def town_key(ctx: Context) -> str:
    """The key of the town assessed (the rules module serves every town of the family)."""
    return str(ctx.options["jurisdiction"])


def classify(d: float, rows: list[dict[str, Any]], ops: dict[str, str], street: tuple[str, float] | None) -> Any:
    """The index of the class of a tree of DBH ``d``, ``"below"`` under the table's lowest bound, ``"between"`` in
    no class (between two classes' bounds). ``street``: (comparison, DBH) from which a tree flagged a street tree is
    in the first class, None for a tree not flagged or a table without a street-tree bound."""
    for i, row in enumerate(rows):
        low = street if i == 0 and street is not None else (ops["min_dbh_in"], row["min_dbh_in"])
        if not compare(low[0], d, low[1]):
            continue
        if "max_dbh_in" in row and not compare(ops["max_dbh_in"], d, row["max_dbh_in"]):
            continue
        return i
    low = street if street is not None else (ops["min_dbh_in"], rows[0]["min_dbh_in"])
    return "between" if compare(low[0], d, low[1]) else "below"


def _usd(x: Decimal) -> str:
    """An amount in dollars as the readings write it: "$250", "$362.50", "$1,450"."""
    return f"${x:,.0f}" if x == x.to_integral_value() else f"${x:,.2f}"


def _shares_words(rows: list[dict[str, Any]]) -> str:
    """Each class's replacement-tree share of its fee (the fee divided by the trees to replant), in words, from the
    law in force: "$250 in every class" when they are one amount, else each class's, its row's DBH words named."""
    shares = [Decimal(str(r["usd"])) / int(r["trees"]) for r in rows]
    if len(set(shares)) == 1:
        return f"{_usd(shares[0])} in every class"
    common = max(set(shares), key=shares.count)
    if shares.count(common) > 1:  # one share in most classes: the others named, their division shown
        return f"{_usd(common)} a tree in every class but " + "; ".join(
            f"{_class_words(r, i)}, where {_usd(Decimal(str(r['usd'])))} / {int(r['trees'])} = {_usd(x)}"
            for i, (x, r) in enumerate(zip(shares, rows))
            if x != common
        )
    return "; ".join(f"{_usd(x)} in {_class_words(r, i)}" for i, (x, r) in enumerate(zip(shares, rows)))


def _class_words(row: dict[str, Any], i: int) -> str:
    """A class named by its DBH in the table's words (the row's first cell, "greater than 24 and up to 36"), its
    trailing parenthesis ("(each)") left out."""
    first = re.split(r" \| | \.\.\. ", str(row.get("text", "")))[0]
    first = re.sub(r"\s*\([^)]*\)$", "", first).strip()
    return first[:1].lower() + first[1:] if first else f"class {i + 1}"


def _shares(counts: list[tuple[int, Decimal]], less: int) -> tuple[list[Decimal], Decimal]:
    """Each replacement tree's share of its removed tree's fee, dearest first, ``less`` of them taken away (credited
    or planted, against the dearest first: the town's readings say so); the rest and their sum."""
    units = sorted((fee / n for n, fee in counts for _ in range(n)), reverse=True)
    rest = units[less:]
    return rest, sum(rest, Decimal(0))


@dataclass
class Tally:
    """The table applied to the removed trees: each tree's count (None: undecided), the trees counted with their
    class's trees and fee, the trees removed in each class, why each undecided tree is, and why each tree whose
    exemption flag is left open may be exempt (undecided unless the table gives it no tree either way)."""

    by_tree: dict[str, int | None] = field(default_factory=dict)
    counted: list[tuple[int, Decimal]] = field(default_factory=list)
    per_class: list[int] = field(default_factory=list)
    undecided: dict[str, str] = field(default_factory=dict)
    exempt_all: str = ""
    may_be_exempt: dict[str, str] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(n for n, _ in self.counted)


def undetermined(tally: Tally) -> str:
    """The site total a tree or row left undecided, in words: "not determined", naming them (each one's reason is
    among the warnings). Not "not held": the law may be held whole, and a survey fact not given left it open."""
    order = {t: i for i, t in enumerate(tally.by_tree)}  # the trees as the survey lists them, rejected rows last
    undecided = sorted(tally.undecided, key=lambda u: order.get(u, len(order)))
    names = [u if u.startswith("row ") else f"tree {u}" for u in undecided]
    more = f" and {len(names) - 5} more" if len(names) > 5 else ""
    return f"not determined: no count for {', '.join(names[:5])}{more} (why: the warnings)"


def _open_cell(trees: pd.DataFrame, col: str, i: int) -> str:
    """How tree ``i``'s ``col`` cell leaves the fact open, in words: its text when neither yes nor no."""
    said = str(unclear(trees, col)[i])
    return f"the survey says {said!r}" if said else "its cell is blank or says it is not known"


def _exemptions(ctx: Context, read: dict[str, Any], site: dict[str, Any], town: str, removed: np.ndarray) -> Tally:
    """The exemptions of the town's readings applied: a held one read from a site fact exempts every tree, one read
    from a flag the trees flagged; a flagged tree under an exemption not held is undecided, naming its section. A
    tree whose flag cell is left open (blank, "Unknown", "maybe") may be exempt: :func:`_count` decides it only where
    the table gives it no tree either way."""
    tally = Tally()
    trees = ctx.trees
    tags = [str(t) for t in trees["tag"]]
    for ex in (read.get("exemptions") or {}).values():
        if "site_fact" in ex and ex.get("held") and site.get(ex["site_fact"]):
            tally.exempt_all = f"{ex['section']}: {ex['text']}"
        elif "flag" in ex:
            f = ex["flag"]
            held = f"{ex['section']}: {ex.get('text', '')}"
            said = held if ex.get("held") else f"not held for {town}: see {ex['section']} ({ex['what']})"
            for i in np.flatnonzero(removed & flag_given(trees, f)).tolist():
                if ex.get("held"):  # exempt: no replacement for the tree
                    tally.by_tree.setdefault(tags[i], 0)
                else:
                    tally.undecided.setdefault(tags[i], said)
            for i in np.flatnonzero(removed & flag_open(trees, f)).tolist():
                tally.may_be_exempt.setdefault(
                    tags[i], f"{said}, and whether tree {tags[i]} is {f} is not given ({_open_cell(trees, f, i)})"
                )
    return tally


def _count(ctx: Context, key: str, tally: Tally, removed: np.ndarray, section: str) -> None:
    """Each removed tree's class and its replacement trees, into ``tally``. A tree whose street-tree cell is left
    open is classed both ways, and one that may be exempt is decided only when the table gives it no tree: a count
    that rests on a fact not given is not given."""
    rows = ctx.law["replacement"]["classes"]
    found = entries(key, on=ctx.opts.on)
    ops = found["replacement.classes"].operators  # type: ignore[union-attr]
    street_entry = found.get("replacement.street_tree_min_dbh_in")
    street_low = (street_entry.operator or ">=", street_entry.value) if isinstance(street_entry, Entry) else None
    d, street = dbh(ctx.trees), flag_given(ctx.trees, "street_tree")
    street_open = flag_open(ctx.trees, "street_tree")
    tags = [str(t) for t in ctx.trees["tag"]]
    tally.per_class = [0] * len(rows)
    for i in np.flatnonzero(removed).tolist():
        tag = tags[i]
        if tally.exempt_all or tag in tally.by_tree:
            tally.by_tree[tag] = 0
            continue
        if tag in tally.undecided:
            tally.by_tree[tag] = None
            continue
        ways = [True, False] if street_open[i] and street_low is not None else [bool(street[i])]
        found_c = {s: classify(float(d[i]), rows, ops, street_low if s else None) for s in ways}
        c = found_c[ways[0]]
        if len(set(found_c.values())) > 1:
            tally.by_tree[tag] = None
            tally.undecided[tag] = (
                f"tree {tag}: whether it is a street tree is not given ({_open_cell(ctx.trees, 'street_tree', i)}), "
                f"and its count rests on it: {_said(found_c[True], rows)} as a street tree, "
                f"{_said(found_c[False], rows)} otherwise ({section})"
            )
        elif c == "between":
            tally.by_tree[tag] = None
            tally.undecided[tag] = (
                f"tree {tag}: its DBH, {d[i]:g} in, is in no class of {section} (between two classes)"
            )
        elif c == "below":
            tally.by_tree[tag] = 0
        elif tag in tally.may_be_exempt:  # exempt or not, the count differs: not given
            tally.by_tree[tag] = None
            tally.undecided[tag] = tally.may_be_exempt[tag]
        else:
            n = int(rows[c]["trees"])
            tally.by_tree[tag] = n
            tally.per_class[c] += 1
            tally.counted.append((n, Decimal(str(rows[c]["usd"]))))


def _said(c: Any, rows: list[dict[str, Any]]) -> str:
    """A class found (:func:`classify`) as the count it gives, in words."""
    if c == "below":
        return "no replacement tree"
    if c == "between":
        return "no class (between two classes)"
    n = int(rows[c]["trees"])
    return f"{n} replacement tree{'s' if n != 1 else ''}"


def _rejected(ctx: Context, tally: Tally) -> None:
    """A rejected row (no DBH, an unknown species) not marked retained has no class, so no count: the site's total
    is then not given, as for a tree between two classes (a sum without it would be a floor printed as the total).
    A totals row is no tree and leaves the total as it is."""
    rej = getattr(ctx.survey, "rejected", None)
    if not isinstance(rej, pd.DataFrame) or rej.empty:
        return
    for r in rej.itertuples(index=False):
        if r.kind == "totals row":  # the survey's own sum of its trees, not a tree: nothing to count for it
            continue
        raw = r.raw if isinstance(r.raw, dict) else {}
        if any(parse_action(v) == "retain" for v in raw.values() if isinstance(v, str)):
            continue
        tally.undecided.setdefault(
            f"row {r.source_row}", f"row {r.source_row} was rejected ({r.kind}): no replacement count for it"
        )


def _credit(law: dict[str, Any], site: dict[str, Any], total: int, section: str, warnings: list[str]) -> int:
    """The replacement trees credited for preserved stands (a town whose law file has ``[credit]``), at most
    ``total``."""
    if "credit" not in law:
        return 0
    given = int(site.get("preserved_stand_trees") or 0)
    least = int(law["credit"]["stand_min_trees"])
    if 0 < given < least:
        warnings.append(f"{given} trees preserved cannot make a stand of {least} or more ({section}): no credit")
        return 0
    return min(given, total)


def assess(ctx: Context) -> Findings:
    # ``{shares}`` in a reading: each class's share of its fee, from the law in force
    key, record, read, town, site, sec = town_of(ctx, shares=_shares_words(ctx.law["replacement"]["classes"]))
    warnings: list[str] = []
    held_not = _held_not(read, town, key)
    not_held = [str(n) for n in held_not]
    removed = np.isin(actions(ctx.trees), REMOVALS)
    tally = _exemptions(ctx, read, site, town, removed)
    _count(ctx, key, tally, removed, sec["replacement"])
    _rejected(ctx, tally)
    credit = _credit(ctx.law, site, tally.total, sec.get("credit", ""), warnings)
    required = None if tally.undecided else tally.total - credit
    for tag, why in tally.undecided.items():
        if tag.startswith("row "):  # a rejected row: no tag to name
            warnings.append(f"{why}, so none for the site")
        else:
            warnings.append(f"{why}: no replacement count is given for tree {tag}, so none for the site")

    plantable = ctx.opts.plantable
    exact: Decimal | None = None
    planted = in_lieu = None
    if required is not None and plantable is not None:
        planted = min(int(plantable), required)
        in_lieu = required - planted
        _, exact = _shares(tally.counted, credit + planted)
    fund_usd = float(exact) if exact is not None else None
    # the family finds no offence and gives no amount for one: its towns' penalties are not held, whether or not
    # their readings say so (a town's readings that name none are said in the chapter's words)
    penalties_not_held = _part(held_not, "penalties") or NotHeld(town, record.chapter, "the penalties", "penalties")
    permit = _permit(ctx, key, town, sec["permit"], removed, _part(held_not, "permit"))
    said = permit_lines(permit, sec, record, town)
    lines = (
        said
        + _lines(ctx, sec, town, tally, required, credit, planted, in_lieu, fund_usd)
        + [line("", "Not held", n) for n in not_held]
    )
    replacement = Replacement(
        required=bool(required) if required is not None else True,
        percent=None,
        section=sec["replacement"],
        value_basis=ctx.options["value_basis"],
        value_basis_label=ctx.options["value_basis_label"],
        removed_value_usd=None,
        required_value_usd=None,
        trees_counted=len(tally.counted),
        trees_needed=required,
        trees_planted=planted,
        trees_in_lieu=in_lieu,
        notes=[f"exempt from replacement: {tally.exempt_all}"] if tally.exempt_all else [],
        warnings=warnings,
        trees_by_tag=tally.by_tree,
        not_held=not_held,
    )
    fund = Fund(
        basis="count_by_class" if exact is not None else None,
        fund_in_lieu_usd=fund_usd,
        section=sec["fund"],
        trees_in_lieu=in_lieu,
        fund_in_lieu_exact=exact,
        label=record.fund_name,
        notes=[]
        if plantable is not None
        else ["give ‹plantable› (the replacement trees planted on site) for the amount in lieu"],
        not_held=_part(held_not, "fund"),
    )
    penalties = no_penalties(ctx, penalties_not_held)
    ctx.warnings.extend(warnings)
    return Findings(permit, replacement, fund, penalties, ctx.survey_lines + lines, site)


def _held_not(read: dict[str, Any], town: str, key: str) -> list[NotHeld]:
    """The town's ``[[not_held]]``, each a :class:`~treecalc.results.NotHeld` naming its part; ValueError for a part
    the outputs do not know (it would stand beside no figure)."""
    out = []
    for n in read.get("not_held", []):
        part = str(n.get("part", ""))
        if part and part not in NOT_HELD_PARTS:
            raise ValueError(
                f"readings/{key}.toml [[not_held]] {n.get('what')!r}: part {part!r} is not one of "
                + ", ".join(NOT_HELD_PARTS)
            )
        out.append(NotHeld(town, str(n["section"]), str(n["what"]), part))
    return out


def _part(held_not: list[NotHeld], part: str) -> NotHeld | None:
    """The town's not-held entry of ``part``, None when its readings name none."""
    return next((n for n in held_not if n.part == part), None)


def _permit(ctx: Context, key: str, town: str, section: str, removed: np.ndarray, held_not: NotHeld | None) -> Permit:
    """The permit a removal needs when the town's law file holds its threshold (``[permit.min_dbh_in]``); else not
    held: neither yes nor no, and each tree's need of it unknown (NA)."""
    e = entries(key, on=ctx.opts.on).get("permit.min_dbh_in")
    if not isinstance(e, Entry):
        ctx.trees["permit_needed"] = pd.array([pd.NA] * len(ctx.trees), dtype="boolean")
        said = held_not or NotHeld(town, section, "the permit", "permit")
        return Permit(None, [], [], 0, f"not held for {town}: see {section}", notes=[str(said)], not_held=said)
    needs = removed & compare(e.operator or ">=", dbh(ctx.trees), e.value)
    ctx.trees["permit_needed"] = needs
    tags = [str(t) for t in ctx.trees["tag"][needs]]
    triggers = [{"section": e.section, "text": e.text, "tags": tags}] if tags else []
    return Permit(bool(needs.any()), triggers, [], int(needs.sum()), section)


def _lines(
    ctx: Context,
    sec: Any,
    town: str,
    tally: Tally,
    required: int | None,
    credit: int,
    planted: int | None,
    in_lieu: int | None,
    fund_usd: float | None,
) -> list[dict[str, Any]]:
    """The statement's lines: the trees removed in each class, the replacement trees required (or not held), the
    credit, the trees planted and the amount in lieu."""
    rows = ctx.law["replacement"]["classes"]
    out = [
        line(row["section"], "Trees removed in the class", tally.per_class[c], "trees", row["text"])
        for c, row in enumerate(rows)
        if tally.per_class[c]
    ]
    cap = ctx.law["replacement"].get("caliper_min_in")
    said = required if required is not None else undetermined(tally)
    note = f"caliper at least {cap:g} in" if cap else ""
    if required is None and tally.counted:  # what the text does decide: the trees counted, a floor for the site
        note = f"{tally.total} for the trees the table decides, before credits; {note}".rstrip("; ")
    out.append(
        line(sec["replacement"], "Replacement trees required", said, "trees" if required is not None else "", note)
    )
    if credit:
        out.append(line(sec.get("credit", ""), "Credit for preserved stands", credit, "trees"))
    if planted is not None:
        out.append(line(sec.get("planting", sec["replacement"]), "Replacement trees planted on site", planted, "trees"))
        out.append(line(sec["fund"], "Paid in lieu", fund_usd, "USD", f"{in_lieu} trees not planted"))
    return out


def no_penalties(ctx: Context, said: NotHeld) -> Penalties:
    """The penalties of a town whose data holds none (``said``: "not held for <town>: see §…"): no amount and no
    offence found, for a fact not given never makes one."""
    ctx.trees["offence"] = False
    return Penalties(
        fine_max_usd=None,
        fine_conditional_usd=None,
        continuing_days=ctx.opts.continuing_days,
        offences=0,
        offences_definite=0,
        offences_conditional=0,
        per_tree=[],
        notes=[str(said)],
        not_held=said,
    )


class Town(NamedTuple):
    """The town a family's rules assess (the module serves every town of its family)."""

    key: str
    record: Jurisdiction
    read: dict[str, Any]
    name: str
    site: dict[str, Any]
    sec: Any


def town_of(ctx: Context, **words: str) -> Town:
    """The town assessed: its record and readings, its site facts resolved (what is assumed of them said), the
    sections heading its parts as its law in force on the date numbers them, and its readings of its text where
    the words leave a choice stated among the assessment's readings with their section (their numbers filled from
    the law in force, and ``words``)."""
    key = town_key(ctx)
    record = by_key(key)
    read = readings(key)
    site, assumed = resolve_site(ctx.site_in, site_defaults(key, read.get("site_why") or {}))
    ctx.assumptions.extend(assumed)
    sec = record.parts(cites.sections(key, dt.date.fromisoformat(str(ctx.options["on"]))))
    reading = fill(read.get("readings") or {}, ctx.law, **words)
    ctx.readings.extend((_reading_section(k, v, sec), f"{record.chapter}: {v}") for k, v in reading.items())
    return Town(key, record, read, read["record"].get("town", record.name), site, sec)


#: a section a reading names in its words ("§12-6: …", "§ 222-25A", "§ 95.23(I)")
_CITED = re.compile(r"§\s?\d+[\d.-]*[A-Z]?(?:\(\w+\))*")
#: the part of a town's chapter a reading of its fee or payment in lieu is about, where its name is no part's
_READING_PARTS = {"in_lieu": "fund"}


def _reading_section(name: str, text: str, sec: Any) -> str:
    """The section a town's reading is about: the one its words name, else the part of the chapter its name is
    (``credit``: Manalapan's B) or stands for (``in_lieu``: the fund's), else the replacement's."""
    cited = _CITED.search(text)
    if cited:
        return cited.group(0)
    part = name if name in sec else _READING_PARTS.get(name, "replacement")
    return str(sec[part] if part in sec else sec["replacement"])


def permit_lines(permit: Permit, sec: Any, record: Jurisdiction, town: str) -> list[dict[str, Any]]:
    """The statement's lines of the permit: its triggers, exceptions and whether it is required, or "not held"."""
    item = record.permit_item
    if permit.required is None:
        return [line(sec["permit"], item, f"not held for {town}: see {sec['permit']}")]
    return permit.statement_lines(sec["permit"], ("Permit trigger", "Exception", item), permit.approving_authority)
