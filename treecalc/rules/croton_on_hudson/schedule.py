"""The Tree Preservation Fund: payments in lieu of replanting (§ 208-22D, § 208-22F, § 208-24).

§ 208-24C leaves the fee or basis of payments in lieu to the Board of Trustees (master fee
schedule). treecalc reads that basis from a TOML file the Engineer edits
(``data/law/croton_on_hudson/fee_schedule.toml`` by default):

- ``basis = "per_tree"``: ``fee_per_tree_usd`` for each required replacement tree not planted;
- ``basis = "value"``: the value of the trees which cannot be planted, as a capital sum, times
  ``multiplier``. The schedule names its capital basis, ``value_basis = "appraised"`` (CTLA, the
  default) or ``"cumulative:N"``, independent of the assessment's value basis: an annual $/yr
  figure is never charged as a one-off payment (§ 208-22D "a payment ... in the sum or sums
  equivalent to the value of the trees which cannot be planted").

Amounts are exact (:class:`~decimal.Decimal`), rounded to cents half-up.
"""

from __future__ import annotations

import datetime as dt
import difflib
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from treecalc.files import InputRefused, read_limited
from treecalc.law import LawNotInForce
from treecalc.law.access import default_fee_schedule, read_toml
from treecalc.law.schema import as_date
from treecalc.models.growth import mortality_rate
from treecalc.money import cents, money
from treecalc.quantities import in_range
from treecalc.reference.datafolder import in_folder
from treecalc.rules.croton_on_hudson.cite import cited, provision, whole

#: A fee schedule is a few lines of TOML.
MAX_SCHEDULE_BYTES = 1_000_000


def _board() -> str:
    """The section that leaves the fee or basis of payments in lieu to the Board of Trustees."""
    return provision("fee_schedule")


def placeholder_label() -> str:
    """The label of a fee the Board has not set."""
    return f"PLACEHOLDER, to be set by Board resolution ({_board()})"


def _fund_sections() -> tuple[str, str, str]:
    """The payment in lieu, the payment after a violation and the Fund, as the fund's notes cite them."""
    return provision("in_lieu"), cited("replacement.violation_percent"), provision("fund")


def fund_notes() -> list[str]:
    """What the Tree Preservation Fund receives, as the fund's notes say it."""
    d, f, _ = _fund_sections()
    return [
        "Payments in lieu go to the Tree Preservation Fund for trees that cannot be planted on site "
        f"({d}) and for replacement after a violation ({f}); {provision('fund_purpose')}.",
        f"Forfeited bonds and securities are also deposited in the Tree Preservation Fund ({provision('bond_forfeited')}).",
        f"Monetary penalties collected under {whole(cited('criminal.per_tree_usd'))} are deposited in the Tree Fund "
        f"({provision('penalties_to_fund')}).",
    ]


def _toml_head() -> list[str]:
    """The first lines of a fee schedule file written: what it is and who sets it."""
    return [
        f"# Tree Preservation Fund: payments in lieu of replanting ({', '.join(_fund_sections())}).",
        f"# {_board()}: the Board of Trustees sets the fee or basis of payments in lieu.",
    ]


@dataclass(frozen=True)
class FeeSchedule:
    basis: str
    fee_per_tree_usd: Decimal
    multiplier: Decimal
    placeholder: bool
    label: str
    source: str
    value_basis: str = "appraised"
    #: the annual tree mortality the village projects with (None: the literature's default, growth.py)
    mortality_rate: float | None = None
    #: the Guide for Plant Appraisal edition of appraised values (9: CTLA 2000 as i-Tree Streets; 10: CTLA/ISA
    #: 2019, rev. 2020) and the 10th edition's parameters (treecalc.models.appraisal10)
    appraisal_edition: int = 9
    appraisal: dict[str, Any] | None = None
    #: the date of the Board resolution that set the schedule (None: not recorded)
    resolution_date: dt.date | None = None

    def to_dict(self) -> dict[str, Any]:
        extra: dict[str, Any] = {} if self.mortality_rate is None else {"mortality_rate": self.mortality_rate}
        extra["appraisal_edition"] = self.appraisal_edition
        if self.appraisal:
            extra["appraisal"] = dict(self.appraisal)
        if self.resolution_date is not None:
            extra["resolution_date"] = self.resolution_date.isoformat()
        return {
            "basis": self.basis,
            "fee_per_tree_usd": float(self.fee_per_tree_usd),
            "multiplier": float(self.multiplier),
            "placeholder": self.placeholder,
            "label": self.label,
            "source": self.source,
            "value_basis": self.value_basis,
            **extra,
        }


def load_fee_schedule(
    spec: str | Path | dict[str, Any] | None = None, *, fee_per_tree_usd: Any = None, on: dt.date | None = None
) -> FeeSchedule:
    """A fee schedule from a TOML path, a dict, or the default file; ``fee_per_tree_usd`` overrides.

    An override (or a schedule that does not say ``placeholder = true``) is taken as set by
    the Board; the default file's fee is a placeholder. A file may hold several schedules
    (``[[schedule]]``, each with its ``resolution_date``): the one in force on ``on`` is read
    (:func:`schedule_in_force`; None: the latest).
    """
    if spec is None:
        default = default_fee_schedule()
        raw, source = read_toml(default), str(default)
    elif isinstance(spec, dict):
        raw, source = dict(spec), "given as a dict"
    else:
        raw, source = _read_schedule(spec), str(spec)
    raw, resolution = schedule_in_force(raw, source, on)
    basis = str(raw.get("basis", "per_tree")).strip().lower()
    if basis not in ("per_tree", "value"):
        raise ValueError(f"fee schedule {source}: basis must be 'per_tree' or 'value', got {basis!r}")
    fee = _in_range(raw.get("fee_per_tree_usd", 0), f"fee schedule {source}: fee_per_tree_usd", "usd")
    mult = _in_range(raw.get("multiplier", 1), f"fee schedule {source}: multiplier", "multiplier")
    placeholder = raw.get("placeholder", False)
    if not isinstance(placeholder, bool):  # bool("no") is True: a quoted word would flip the schedule's standing
        raise ValueError(f"fee schedule {source}: placeholder must be true or false (unquoted), got {placeholder!r}")
    label = str(raw.get("label", placeholder_label() if placeholder else "fee schedule"))
    if fee_per_tree_usd is not None:
        fee = _in_range(fee_per_tree_usd, "‹fee_per_tree_usd›", "usd")
        basis, placeholder, label = "per_tree", False, "fee per tree given by the user"
        source = f"{source}; fee per tree overridden"
    value_basis = _capital_basis(raw.get("value_basis", "appraised"), source)
    if basis == "per_tree" and fee == 0:
        raise ValueError(
            f"fee schedule {source}: fee_per_tree_usd must be more than $0 for basis per_tree (a fee of $0 "
            f"is no payment in lieu; give the fee the Board set, {_board()})"
        )
    if basis == "value" and mult == 0:
        raise ValueError(
            f"fee schedule {source}: multiplier must be more than 0 for basis value (a multiple of 0 is no "
            f"payment in lieu; give the multiple the Board set, {_board()})"
        )
    mortality = None
    if raw.get("mortality_rate") is not None:
        try:
            mortality = mortality_rate(raw["mortality_rate"])
        except ValueError as e:
            raise ValueError(f"fee schedule {source}: {e}") from None
    edition, appraisal = _appraisal(raw, source)
    if spec is None:  # recorded by its place in the data folder: a statement reads the same on another install
        source = source.replace(str(default), in_folder(default), 1)
    return FeeSchedule(
        basis, fee, mult, placeholder, label, source, value_basis, mortality, edition, appraisal, resolution
    )


def _resolution(raw: Mapping[str, Any], source: str) -> dt.date | None:
    try:
        return as_date(raw.get("resolution_date"), f"fee schedule {source}: resolution_date")
    except ValueError as e:
        raise ValueError(str(e)) from None


#: The keys a schedule may hold. Any other is refused: a misspelt ``multiplyer`` read as absent would charge the
#: default multiple without a word.
SCHEDULE_KEYS = (
    "basis",
    "fee_per_tree_usd",
    "multiplier",
    "value_basis",
    "placeholder",
    "label",
    "resolution_date",
    "mortality_rate",
    "appraisal_edition",
    "appraisal_unit_cost_usd_per_sqin",
    "appraisal_unit_cost_placeholder",
    "appraisal_functional_pct",
    "appraisal_external_pct",
)


def _check_keys(raw: Mapping[str, Any], where: str, allowed: tuple[str, ...] = SCHEDULE_KEYS) -> None:
    unknown = [str(k) for k in raw if k not in allowed]
    if not unknown:
        return
    said = []
    for k in unknown:
        near = difflib.get_close_matches(k, allowed, n=1, cutoff=0.7)
        said.append(f"{k!r}" + (f" (did you mean {near[0]!r}?)" if near else ""))
    raise ValueError(
        f"{where}: unknown key{'s' if len(unknown) > 1 else ''} {', '.join(said)}; a schedule's keys are "
        f"{', '.join(allowed)}"
    )


def schedule_in_force(raw: Mapping[str, Any], source: str, on: dt.date | None) -> tuple[dict[str, Any], dt.date | None]:
    """The schedule of ``raw`` in force on ``on`` and its Board resolution date (§208-24C).

    ``raw`` is one schedule (its keys at the top, ``resolution_date`` optional) or several, ``[[schedule]]``:
    the one whose resolution is the latest on or before ``on`` (a schedule without a resolution date, the
    placeholder, is in force from the first). A date before every schedule held is refused naming the earliest
    (:class:`treecalc.law.LawNotInForce`): the fee then in force is not the one the Board set later.
    """
    many = raw.get("schedule")
    if many is None:
        _check_keys(raw, f"fee schedule {source}")
        one = {k: v for k, v in raw.items() if k != "resolution_date"}
        held = [(_resolution(raw, source), one)]
    else:
        if not isinstance(many, list) or not many or not all(isinstance(s, dict) for s in many):
            raise ValueError(f"fee schedule {source}: [[schedule]] must be one or more tables")
        _check_keys(raw, f"fee schedule {source}", ("schedule",))
        for i, s in enumerate(many, 1):
            _check_keys(s, f"fee schedule {source} [[schedule]] {i} (resolution_date {s.get('resolution_date', '-')})")
        held = [(_resolution(s, source), {k: v for k, v in s.items() if k != "resolution_date"}) for s in many]
    undated = [s for d, s in held if d is None]
    if len(undated) > 1:
        raise ValueError(f"fee schedule {source}: more than one schedule without a resolution_date")
    dated = sorted(((d, s) for d, s in held if d is not None), key=lambda x: x[0])
    days = [d for d, _ in dated]
    twice = sorted({d.isoformat() for d in days if days.count(d) > 1})
    if twice:  # which of two resolutions of one day is in force is not for treecalc to guess
        raise ValueError(
            f"fee schedule {source}: more than one schedule set by Board resolution of {', '.join(twice)}; "
            f"keep the one the Board adopted ({_board()})"
        )
    in_force = [(d, s) for d, s in dated if on is None or d <= on]
    if in_force:
        return dict(in_force[-1][1]), in_force[-1][0]
    if undated:
        return dict(undated[0]), None
    raise LawNotInForce(
        f"fee schedule {source}: no schedule in force on {on.isoformat() if on else on}: the earliest held was "
        f"set by Board resolution of {dated[0][0].isoformat()} ({_board()}); give the schedule then in force "
        "(‹fee_schedule›) or a later ‹on› date"
    )


def record_schedule(path: str | Path, schedule: Mapping[str, Any], resolution_date: Any) -> str:
    """Add ``schedule`` (its keys as :func:`fee_schedule_toml` writes them), set by Board resolution of
    ``resolution_date``, to the schedules of the file at ``path``; the earlier ones are kept. Returns the new
    text (what is written reads back, every schedule). A second schedule of the same date is refused."""
    when = as_date(resolution_date, f"resolution_date (the Board resolution's date, {_board()})")
    if when is None:
        raise ValueError(f"a fee schedule is recorded with the date of its Board resolution ({_board()})")
    p = Path(path)
    old = _read_schedule(p) if p.exists() else None
    held: list[dict[str, Any]] = []
    if old is not None:
        held = [dict(s) for s in old["schedule"]] if "schedule" in old else [dict(old)]
    if any(str(s.get("resolution_date", "")) == when.isoformat() for s in held):
        raise ValueError(f"fee schedule {path}: a schedule set on {when.isoformat()} is already recorded")
    new = {**{k: v for k, v in schedule.items() if k != "resolution_date"}, "resolution_date": when.isoformat()}
    load_fee_schedule(dict(new))  # the new schedule must read on its own
    held.append(new)
    held.sort(key=lambda s: str(s.get("resolution_date", "")))
    head = _toml_head()
    lines = [
        *head[:-1],
        f"{head[-1][:-1]}. Each [[schedule]] is one",
        "# Board resolution (resolution_date); an assessment reads the one in force on its date (--on).",
    ]
    for s in held:
        lines.append("")
        lines.append("[[schedule]]")
        for k, v in s.items():
            if isinstance(v, bool):
                lines.append(f"{k} = {'true' if v else 'false'}")
            elif isinstance(v, (int, float)) and k == "appraisal_edition":
                lines.append(f"{k} = {v}")
            else:
                lines.append(f"{k} = {json.dumps(str(v), ensure_ascii=False)}")
    text = "\n".join(lines) + "\n"
    parsed = tomllib.loads(text)
    for s in parsed["schedule"]:
        load_fee_schedule({k: v for k, v in s.items()})  # every schedule written reads back
    schedule_in_force(parsed, str(path), None)  # and together (no two resolutions of one day)
    p.write_text(text, encoding="utf-8")
    return text


def _terms(s: FeeSchedule) -> tuple[str, Decimal, Decimal, str]:
    """What a schedule charges: two schedules of the same terms charge the same whatever their labels."""
    return (s.basis, s.fee_per_tree_usd, s.multiplier, s.value_basis)


def _charge_words(s: FeeSchedule) -> str:
    if s.basis == "per_tree":
        return f"${s.fee_per_tree_usd:,.2f} a tree not planted"
    return f"the value of the trees not planted ({s.value_basis}) x {s.multiplier}"


def not_in_force(
    given: Any, fee_per_tree_usd: Any, in_force: Mapping[str, Any] | None, on: dt.date | None = None
) -> list[str]:
    """The money options an assessment was given (a fee schedule ``given``, a ``fee_per_tree_usd``) that charge
    otherwise than the Village's schedule in force (``in_force``: the register's, in line; None: the data
    folder's on ``on``), each said in a sentence; [] when none is given or they charge the same. Such an
    assessment is a what-if: its labels ("set by Board resolution") are the giver's, not the Board's."""
    if given in (None, "") and fee_per_tree_usd in (None, ""):
        return []
    try:
        mine = load_fee_schedule(given or None, fee_per_tree_usd=fee_per_tree_usd, on=on)
    except ValueError as e:
        return [f"the fee schedule given does not read ({e}), so it is not the Village's fee schedule in force"]
    village = load_fee_schedule(dict(in_force) if in_force else None, on=None if in_force else on)
    if _terms(mine) == _terms(village):
        return []
    if fee_per_tree_usd not in (None, ""):
        what = f"the fee per tree given (‹fee_per_tree_usd›), {_charge_words(mine)},"
    else:
        what = f"the fee schedule given (‹fee_schedule›), {_charge_words(mine)},"
    return [
        f"{what} is not the Village's fee schedule in force ({_charge_words(village)}, {village.label}): "
        "these figures are a what-if, not the amount owed"
    ]


def _appraisal(raw: dict[str, Any], source: str) -> tuple[int, dict[str, Any] | None]:
    """``appraisal_edition`` (9 or 10) and, for the 10th, its parameters: the unit cost (USD per sq in of the
    nursery tree's trunk; None: the placeholder per species) and the functional and external limitations (%)."""
    ed = str(raw.get("appraisal_edition", 9)).strip()
    if ed not in ("9", "10"):
        raise ValueError(
            f"fee schedule {source}: appraisal_edition must be 9 or 10, got {raw.get('appraisal_edition')!r}"
        )
    if ed == "9":
        return 9, None
    params: dict[str, Any] = {"unit_cost_usd_per_sqin": None, "placeholder": True}
    if raw.get("appraisal_unit_cost_usd_per_sqin") not in (None, ""):
        uc = float(
            money(raw["appraisal_unit_cost_usd_per_sqin"], f"fee schedule {source}: appraisal_unit_cost_usd_per_sqin")
        )
        if uc <= 0:
            raise ValueError(f"fee schedule {source}: appraisal_unit_cost_usd_per_sqin must be more than $0")
        params.update(unit_cost_usd_per_sqin=uc, placeholder=bool(raw.get("appraisal_unit_cost_placeholder", False)))
    for key in ("functional_pct", "external_pct"):
        v = raw.get(f"appraisal_{key}", 100)
        try:
            x = float(v)
        except (TypeError, ValueError):
            x = float("nan")
        if not 0 <= x <= 100:
            raise ValueError(f"fee schedule {source}: appraisal_{key} must be a percentage from 0 to 100, got {v!r}")
        params[key] = x
    return 10, params


def _in_range(value: Any, name: str, kind: str) -> Decimal:
    """An amount of the schedule, exact, within :data:`treecalc.quantities.RANGES` ``[kind]`` (the same range and
    words as the command line's flag): a fee of 1e30 is refused naming it, never multiplied."""
    if kind == "usd":
        d = money(value, name)
    else:  # a multiplier is a number, not an amount of money: said so when it is not one
        try:
            d = Decimal(str(value).strip())
        except ArithmeticError:
            raise ValueError(f"{name}: expected a number, got {value!r}") from None
        if not d.is_finite():
            raise ValueError(f"{name}: expected a number, got {value!r}")
    in_range(name, str(d), kind)
    return d


def _capital_basis(value: Any, source: str) -> str:
    """``appraised`` or ``cumulative:N``: a capital sum, never the annual $/yr basis."""
    b = str(value).strip().lower()
    if b in ("appraised", "appraisal", "ctla"):
        return "appraised"
    head, sep, n = b.partition(":")
    if head == "cumulative" and sep and n.strip().isdigit() and int(n) >= 1:
        years = in_range(f"fee schedule {source}: value_basis cumulative:N (years)", n.strip(), "cumulative_years")
        return f"cumulative:{int(years)}"
    raise ValueError(
        f"fee schedule {source}: value_basis must be 'appraised' or 'cumulative:N' (a capital sum; "
        f"an annual $/yr value is never charged as a one-off payment), got {value!r}"
    )


def _read_schedule(path: str | Path) -> dict[str, Any]:
    """The TOML of a fee schedule file, parsed in the bounded child of :mod:`treecalc.ingest.isolated`; every error
    names the file (ValueError)."""
    from treecalc.ingest import isolated  # start-up: only when needed, not by every assess

    return isolated.run(_parse_schedule, path, what=f"fee schedule {Path(path).name}")


def _parse_schedule(path: str | Path) -> dict[str, Any]:
    if not Path(path).exists():
        raise ValueError(f"fee schedule {path} not found")
    try:  # through the bounded reader: /dev/zero or a 10 GB file is refused before it is read
        return tomllib.loads(read_limited(path, "fee schedule", MAX_SCHEDULE_BYTES).decode("utf-8"))
    except InputRefused as e:
        raise ValueError(str(e)) from None
    except FileNotFoundError:
        raise ValueError(f"fee schedule {path} not found") from None
    except IsADirectoryError:
        raise ValueError(f"fee schedule {path} is a folder, not a TOML file") from None
    except tomllib.TOMLDecodeError as e:
        msg = str(e)
        m = re.search(r"^(.*?)\s*\(at line (\d+), column (\d+)\)\s*$", msg)
        if m:
            raise ValueError(
                f"fee schedule {path}: invalid TOML at line {m.group(2)}: {m.group(1)} (column {m.group(3)})"
            ) from None
        raise ValueError(f"fee schedule {path}: invalid TOML: {msg}") from None
    except UnicodeDecodeError:
        raise ValueError(f"fee schedule {path}: invalid TOML: not UTF-8 text") from None
    except OSError as e:
        raise ValueError(f"fee schedule {path}: cannot be read ({e.strerror or e})") from None


def fee_schedule_toml(schedule: Mapping[str, Any]) -> str:
    """The fee schedule as the TOML file :func:`load_fee_schedule` and ``--fee-schedule`` read.

    Money and multipliers are written as strings so they stay exact decimals.
    """
    lines = [
        *_toml_head(),
        '# basis = "per_tree": fee_per_tree_usd for each required replacement tree not planted.',
        '# basis = "value":    the value of the trees not planted, on the capital basis value_basis',
        "#                    (appraised, the default, or cumulative:N), x multiplier.",
    ]
    for k, v in schedule.items():
        if isinstance(v, bool):
            lines.append(f"{k} = {'true' if v else 'false'}")
        else:  # json.dumps escapes exactly as a TOML basic string needs
            lines.append(f"{k} = {json.dumps(str(v), ensure_ascii=False)}")
    text = "\n".join(lines) + "\n"
    load_fee_schedule(tomllib.loads(text))  # what is written must read back
    return text


def in_lieu(
    schedule: FeeSchedule,
    *,
    trees_in_lieu: int,
    unmet_value_usd: float,
    unmet_capital_usd: Decimal | float | None = None,
    capital_how: str = "",
) -> dict[str, Any]:
    """The payment in lieu for what the planting plan leaves unplanted (the ``fund`` dict).

    On the value basis the payment is ``unmet_capital_usd`` (the unplanted trees' value on the
    schedule's capital basis, worked out by the caller) x multiplier; without it, the unmet value
    is taken as already a capital sum.
    """
    capital = None
    if schedule.basis == "per_tree":
        # fee x each required replacement tree not planted
        amount = cents(schedule.fee_per_tree_usd * int(trees_in_lieu))
        how = f"{int(trees_in_lieu)} tree(s) x ${schedule.fee_per_tree_usd:,.2f}"
    else:
        # the unplanted trees' capital value (rounded to cents first, as reported) x multiplier
        capital = cents(unmet_value_usd if unmet_capital_usd is None else unmet_capital_usd)
        amount = cents(capital * schedule.multiplier)
        how = f"${capital:,} value of the trees not planted ({schedule.value_basis}) x {schedule.multiplier}" + (
            f"; {capital_how}" if capital_how else ""
        )
    notes = fund_notes()
    if schedule.placeholder:
        notes.insert(0, f"The fee is a {schedule.label}: not an amount the Board has set.")
    return {
        "basis": schedule.basis,
        "fee_per_tree_usd": float(schedule.fee_per_tree_usd),
        "multiplier": float(schedule.multiplier),
        "placeholder": schedule.placeholder,
        "label": schedule.label,
        "source": schedule.source,
        "trees_in_lieu": int(trees_in_lieu),
        "unmet_value_usd": float(cents(unmet_value_usd)),
        "capital_value_basis": schedule.value_basis if schedule.basis == "value" else None,
        "unmet_capital_usd": None if capital is None else float(capital),
        "fund_in_lieu_usd": float(amount),
        "fund_in_lieu_exact": amount,
        "calculation": how,
        "section": "; ".join(_fund_sections()),
        "notes": notes,
    }
