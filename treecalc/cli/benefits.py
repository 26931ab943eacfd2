"""``treecalc benefits``: the annual benefits of one tree (i-Tree Streets, in its climate zone).

No domain logic here: arguments → :func:`treecalc.models.benefits.benefits` → text or JSON.
"""

from __future__ import annotations

import argparse
from typing import Any

from treecalc.cli.common import add_benefit_params, benefit_kwargs, dump_json
from treecalc.cli.words import render


def register(subparsers: Any) -> None:
    """Add ``benefits`` to ``subparsers``."""
    b = subparsers.add_parser(
        "benefits", help="annual benefits of one tree (i-Tree Streets; Northeast unless --zone or --lat/--lon)"
    )
    b.add_argument("--species", required=True, help="code, scientific or common name")
    b.add_argument("--dbh", required=True, type=float, help="DBH, inches")
    b.add_argument(
        "--condition",
        default="good",
        help="for the replacement value: excellent, very good, good, fair, poor, critical, dead (default good)",
    )
    b.add_argument("--years", type=int, default=20, help="horizon of the cumulative benefits (default 20)")
    b.add_argument(
        "--mortality",
        type=float,
        default=None,
        help="annual mortality rate, 0-1 (default 0.043: Roman & Scatena 2011, street trees 3.5-5.1%%/yr)",
    )
    b.add_argument("--lat", type=float, help="latitude, WGS84 degrees: the climate zone is found from it")
    b.add_argument("--lon", type=float, help="longitude, WGS84 degrees (with --lat)")
    b.add_argument("--json", action="store_true")
    add_benefit_params(b)
    b.set_defaults(func=_cmd_benefits)


def _cmd_benefits(a: argparse.Namespace) -> int:
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.models.benefits import benefits, shown_tree_dollars
    from treecalc.quantities import in_range  # start-up: with the command that runs, not every command

    in_range("--dbh", a.dbh, "dbh_in")
    in_range("--years", a.years, "years")
    if a.mortality is not None:
        in_range("--mortality", a.mortality, "fraction")
    kw = benefit_kwargs(a)
    land_use = kw.pop("land_use")
    r = benefits(
        a.species,
        a.dbh,
        land_use=land_use,
        condition=a.condition,
        horizon_years=a.years,
        mortality_rate=a.mortality,
        latitude=a.lat,
        longitude=a.lon,
        **kw,
    )
    # the dollars as shown everywhere: the parts add up to the total, the lines to their part, to the cent
    r = shown_tree_dollars(r)
    if a.json:
        dump_json(r)
        return 0
    d, by, flags = r["dollars"], r["dollars_by_line"], r.get("disclosure_flags", [])

    def line(label: str, amount: float | None, fmt: str, unit: str, usd: float | None) -> str:
        a = "" if amount is None else format(amount, fmt)
        return f"{label:<26}{a:>14}  {unit:<12}{'' if usd is None else format(usd, ',.2f'):>10}"

    lines = [
        f"{r['common_name']} ({r['scientific_name']}, {r['species_code']}), DBH {r['dbh_in']:g} in, "
        f"land use {r['land_use']}; benefits from i-Tree row {r['itree_code']}",
        *(
            [
                "DBH beyond the model's range: the tables end at 45 in and hold their last value"
                + ("; over 100 in is implausible, check the measurement" if "implausible_dbh" in flags else "")
            ]
            if "beyond_last_class" in flags
            else []
        ),
        f"Climate zone: {r['zone_name']} ({r['zone']})"
        + (" (the default; choose another with --zone or --lat/--lon)" if r["zone_default"] else ""),
        "",
        f"{'Benefit':<26}{'Amount':>14}  {'Unit':<12}{'USD/yr':>10}",
        line("Stormwater", r["stormwater_gal"], ",.1f", "gal/yr", d["stormwater"]),
        line("Energy: electricity", r["electricity_kwh"], ",.2f", "kWh/yr", by["electricity"]),
        line("Energy: natural gas", r["natural_gas_therms"], ",.2f", "therms/yr", by["natural_gas"]),
        line("  Energy, total", None, "", "", d["energy"]),
        line("Air quality (net)", r["air_quality_lb"], ",.3f", "lb/yr", d["air_quality"]),
        line("CO2 sequestered", r["co2_sequestered_lb"], ",.1f", "lb/yr", by["co2_sequestered"]),
        line("CO2 avoided", r["co2_avoided_lb"], ",.1f", "lb/yr", by["co2_avoided"]),
        line("  CO2, total", None, "", "", d["co2"]),
        line("Property / aesthetic", r["leaf_area_increase_m2"], ",.2f", "m2/yr leaf", d["property"]),
        line("Total annual benefits", None, "", "", d["total_annual"]),
        line("CO2 stored to date", r["co2_stored_lb"], ",.1f", "lb", None) + "  (a stock, not valued per year)",
        "",
        f"Benefits over {r['cumulative_years']} years with growth: ${r['cumulative_usd']:,.2f}"
        f" (annual mortality {r['cumulative_mortality_rate']:.1%})",
        f"Replacement value ({r['replacement_value_method']}, condition {r['replacement_value_condition']}): "
        f"${r['replacement_value_usd']:,.2f}",
        _ctla_parameters(r["replacement_value_parameters"]),
        "",
        # a value given on the command line is the user's, not the placeholder
        f"Property value: home price ${r['parameters']['home_price_usd']:,.0f} "
        f"({'as given' if a.home_price is not None else 'placeholder the Village sets'}), "
        f"large-tree leaf area {r['parameters']['large_tree_leaf_area_m2']:.1f} m2"
        f"{' (as given)' if a.large_tree_leaf_area is not None else ''}.",
        f"Source: {r['source']}.",
    ]
    if r.get("disclosures"):
        lines += ["", "Limits of the model for this tree:"] + [f"  - {x}" for x in r["disclosures"]]
    lines += [f"warning: {w}" for w in r["warnings"]]

    print(render("\n".join(lines)))
    return 0


def _ctla_parameters(p: dict) -> str:
    """The trunk formula's parameters of the tree, as the model took them (its species row, the condition)."""
    palm = p["palm_trunk_cost_usd_per_ft"] > 0
    price = (
        f"palm price ${p['palm_trunk_cost_usd_per_ft']:,.2f}/ft"
        if palm
        else (f"basic price ${p['basic_price_usd_per_sqin']:,.2f}/sq in")
    )
    return (
        f"  parameters: species rating S {p['species_rating_pct']:g}%, {price}, replacement cost "
        f"C_r ${p['replacement_cost_usd']:,.2f}, replacement trunk area TA_r {p['replacement_trunk_area_sqin']:.3f} sq in, "
        f"condition K {p['condition_rating']:.0%}, location L {p['location_rating']:.0%}"
    )
