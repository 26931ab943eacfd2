"""Small adapters from library results to tables and widgets (no law, no arithmetic)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd
import streamlit as st

from app_support import lib


def get(obj: Any, name: str, default: Any = None) -> Any:
    """``obj[name]`` for a mapping, ``obj.name`` otherwise."""
    if obj is None:
        return default
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    return getattr(obj, name, default)


def frame(x: Any) -> pd.DataFrame:
    """A DataFrame from a DataFrame, a list of dicts/objects, or a dict of lists."""
    if x is None:
        return pd.DataFrame()
    if isinstance(x, pd.DataFrame):
        return x
    if isinstance(x, Mapping):
        try:
            return pd.DataFrame(x)
        except ValueError:
            return pd.DataFrame([x])
    rows = [r.to_dict() if hasattr(r, "to_dict") else (dict(r) if isinstance(r, Mapping) else vars(r)) for r in x]
    return pd.DataFrame(rows)


def kv_table(d: Mapping[str, Any] | None, skip: tuple[str, ...] = ()) -> pd.DataFrame:
    """A two-column table (item, value) of a dict's scalar entries."""
    rows = [{"Item": k, "Value": v if isinstance(v, (int, float, str, bool)) or v is None else str(v)}
            for k, v in (d or {}).items() if k not in skip and not isinstance(v, (list, dict, pd.DataFrame))]
    df = pd.DataFrame(rows, columns=["Item", "Value"])
    df["Value"] = df["Value"].astype(str)
    return df


@st.cache_data(show_spinner=False)
def species_choices() -> pd.DataFrame:
    """Catalogue species for pickers: natives first, then others; invasives last and marked.

    The labels only say what the catalogue says (native, NY Part 575 status);
    the law engine decides what it accepts and gives its reason.
    """
    data = lib.piece("data")
    cat = data.catalogue()
    cat = cat[cat["scientific_name"].astype(str).str.strip() != ""]
    order = (cat["invasive"].astype(int) * 2 + (~cat["native"]).astype(int))
    cat = cat.assign(_o=order).reset_index(drop=True).sort_values(["_o", "common_name"])

    def label(r: Any) -> str:
        tag = ("invasive: NY Part 575 " + r.part575 + ", refused") if r.invasive else ("native" if r.native else "not native")
        return f"{r.common_name} ({r.scientific_name}) · {tag}"

    return pd.DataFrame({"code": cat["code"].to_numpy(), "label": [label(r) for r in cat.itertuples()],
                         "native": cat["native"].to_numpy(), "invasive": cat["invasive"].to_numpy()})
