"""A share of a tree pruned ("Pruned 25%", "crown reduced 40%") read against the law's excessive-pruning share.

The survey reader records the share a cell states (``pruned_percent``, ``pruned_over`` for "over 25%") and reads
the tree as retained; which share is excessive pruning is the law's (Chapter 208: §208-17 "EXCESSIVE PRUNING -
Removing 1/4 (25%) or greater of the functioning leaf, stem or root area of a tree", the entry
``conditions.excessive_pruning_min_percent``), so it is read here, once the law is known, before any rule reads the
action. Jurisdiction-neutral: a law without such an entry reads the tree as pruned (retained).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from treecalc.law import entry
from treecalc.law.access import meets

KEY = "conditions.excessive_pruning_min_percent"
#: The share of a street or public tree whose pruning needs the Department's written approval (Chapter 208:
#: Chapter 208 "prune ... any street or public tree ... without written approval by the Department": any share)
STREET_KEY = "conditions.street_tree_pruning_min_percent"


def read_shares(trees: pd.DataFrame, jurisdiction: str, law: dict[str, Any]) -> list[str]:
    """Set ``trees["action"]`` of the trees whose cell states a pruned share: the law's share or more is
    ``excessively_pruned``; "over N %" with N below it is ``damaged`` (whether the share was reached is not given:
    injury for the Village Engineer, no amount); below it stays ``retain`` (pruning, no excessive pruning: a street tree's
    pruning may still need an approval, :func:`pruned_short_of_excessive`). Each tree's
    reading is added to its warnings; returns the assumptions to state (a law with no share)."""
    if "pruned_percent" not in trees:
        return []
    pct = pd.to_numeric(trees["pruned_percent"], errors="coerce").to_numpy(float)
    given = ~np.isnan(pct)
    if not given.any():
        return []
    over = trees["pruned_over"].astype("boolean").fillna(False).to_numpy(bool) if "pruned_over" in trees else ~given
    share = (law.get("conditions") or {}).get("excessive_pruning_min_percent")
    if share is None:
        return [
            f"{int(given.sum())} tree(s) pruned by a stated share: the law applied sets no excessive-pruning share, "
            "so they are read as pruned (retained)"
        ]

    section = entry(jurisdiction, KEY).section
    at = np.where(given, pct, -1.0)
    met = given & np.asarray(meets(jurisdiction, KEY, at, share), dtype=bool)
    met |= given & over & (at >= float(share))  # more than N, N at the share or above: beyond it
    unsure = given & over & ~met
    below = given & ~met & ~unsure
    action = trees["action"].to_numpy(object).copy()
    action[met], action[unsure], action[below] = "excessively_pruned", "damaged", "retain"
    trees["action"] = pd.Series(action, index=trees.index, dtype=object)

    def said(k: int) -> str:
        return f"pruned {'over ' if over[k] else ''}{pct[k]:g}%"

    words = {
        "met": f"{{s}}: {share:g}% or more of the tree is excessive pruning ({section}): read as excessively pruned",
        "unsure": f"{{s}}: whether it reached the {share:g}% of excessive pruning ({section}) is not given: read as "
        "damaged (injury, for the Village Engineer; no amount)",
        "below": f"{{s}}: below the {share:g}% of excessive pruning ({section}): pruning, no excessive pruning; read as retained",
    }
    warn = trees["warnings"].astype(object).where(trees["warnings"].notna(), "").to_numpy(object).copy()
    for name, mask in (("met", met), ("unsure", unsure), ("below", below)):
        for k in np.flatnonzero(mask).tolist():
            w = words[name].format(s=said(k))
            warn[k] = f"{warn[k]}; {w}" if warn[k] else w
    trees["warnings"] = pd.Series(warn, index=trees.index, dtype=object)
    return []


def pruned_short_of_excessive(trees: pd.DataFrame, jurisdiction: str, law: dict[str, Any]) -> np.ndarray:
    """Per tree, pruned by a stated share that :func:`read_shares` left retained (below the excessive-pruning share)
    and that the law's street-tree pruning share (:data:`STREET_KEY`) reaches, or pruned by a share not given
    ("Prune") under a law that asks approval for any share: a pruning done, which on a street or
    public tree without the approval the law asks for is an offence of its own. All False for a law without that
    entry, or a survey stating no share."""
    n = len(trees)
    share = (law.get("conditions") or {}).get(STREET_KEY.split(".", 1)[1])
    if share is None or "pruned_percent" not in trees:
        return np.zeros(n, dtype=bool)
    pct = pd.to_numeric(trees["pruned_percent"], errors="coerce").to_numpy(float)
    given = ~np.isnan(pct)
    retained = trees["action"].astype(object).to_numpy(object) == "retain"
    met = np.asarray(meets(jurisdiction, STREET_KEY, np.where(given, pct, -1.0), share), dtype=bool)
    # "Prune" (no share given): some share was pruned, so a law asking approval for any pruning (more than 0 %)
    # is reached; a law with a larger share is not known to be, and the tree stays retained
    unsaid = np.zeros(n, dtype=bool)
    if "pruned_share_unknown" in trees:
        unsaid = trees["pruned_share_unknown"].astype("boolean").fillna(False).to_numpy(bool) & ~given
    anything = bool(np.asarray(meets(jurisdiction, STREET_KEY, np.array([np.nextafter(0.0, 1.0)]), share))[0])
    return ((given & met) | (unsaid & anything)) & retained


def street_pruning_section(jurisdiction: str) -> str:
    """The section :data:`STREET_KEY` cites in the law ``jurisdiction`` (§208-5C for Chapter 208)."""
    return entry(jurisdiction, STREET_KEY).section
