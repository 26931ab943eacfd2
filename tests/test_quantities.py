"""The unit conversions: each factor right by its definition, and defined once (treecalc.quantities)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from treecalc import quantities as q

ROOT = Path(__file__).resolve().parent.parent

#: Module-level definitions of a conversion factor outside treecalc/quantities.py there are now
#: ("path: NAME"); do not add to this list, import the factor.
PENDING: set[str] = set()


def test_the_factors_by_their_definitions():
    # 1 yd = 0.9144 m: 0.9144² = 0.83612736, x 0.9144 = 0.764554857984 m³ in a cubic yard
    assert q.M3_PER_CU_YD == pytest.approx(0.764554857984, rel=1e-15)
    # 1 ft = 0.3048 m: 1 / 0.09290304 = 10.7639104167... sq ft in a m², 1 / 0.3048 = 3.2808398950... ft in a m
    assert q.SQFT_PER_M2 == pytest.approx(10.763910416709722, rel=1e-15)
    assert q.FT_PER_M == pytest.approx(3.280839895013123, rel=1e-15)
    # a trunk of 100 cm is 100 / 2.54 = 39.3700787... in; of 1 ft, 12 in; of 25.4 mm, 1 in
    assert q.IN_PER_UNIT["m"] == pytest.approx(39.37007874015748, rel=1e-15)
    assert 100 * q.IN_PER_UNIT["cm"] == pytest.approx(39.37007874015748, rel=1e-15)
    assert q.IN_PER_UNIT["ft"] == 12.0 and q.IN_PER_UNIT["in"] == 1.0
    assert 25.4 * q.IN_PER_UNIT["mm"] == pytest.approx(1.0, rel=1e-15)
    assert q.CU_FT_PER_CU_YD == 3 * 3 * 3
    # i-Tree's six figures: 1 gal = 3.785411784 L exactly, so 264.172052 gal in a m³; 1 lb = 0.45359237 kg exactly,
    # so 2.2046226 lb in a kg. The rounded factors are within 2 parts in a million of the exact ones (0.2 and 1.2).
    assert q.GAL_PER_M3 == 264.172 and abs(q.GAL_PER_M3 * 0.003785411784 - 1) < 2e-6
    assert q.LB_PER_KG == 2.20462 and abs(q.LB_PER_KG * 0.45359237 - 1) < 2e-6
    assert q.KBTU_PER_THERM == 100.0  # 1 therm = 100,000 Btu


def test_the_models_and_the_reader_use_the_same_factors():
    from treecalc.ingest import values
    from treecalc.models import growth, itree_streets

    assert itree_streets.CM_PER_IN is q.CM_PER_IN and growth.CM_PER_IN is q.CM_PER_IN
    assert itree_streets.GAL_PER_M3 is q.GAL_PER_M3 and itree_streets.LB_PER_KG is q.LB_PER_KG
    assert values.UNIT_TO_IN is q.IN_PER_UNIT


def defined_factors(root: Path = ROOT) -> set[str]:
    """``path: NAME`` of every module-level assignment, outside quantities.py, to a name quantities defines."""
    # the names quantities.py assigns itself (CENT, which it imports from treecalc.money, is money's)
    tree = (
        ast.parse((root / "treecalc" / "quantities.py").read_text(encoding="utf-8"))
        if (root / "treecalc" / "quantities.py").exists()
        else None
    )
    names = {
        t.id
        for node in (tree.body if tree else [])
        for t in (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        if isinstance(t, ast.Name) and t.id.isupper()
    }
    out = set()
    for path in sorted((root / "treecalc").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel == "treecalc/quantities.py":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AnnAssign)
                else []
            )
            out.update(f"{rel}: {t.id}" for t in targets if isinstance(t, ast.Name) and t.id in names)
    return out


def test_each_factor_is_defined_once():
    found = defined_factors()
    assert sorted(found - PENDING) == [], "import the factor from treecalc.quantities"
    assert sorted(PENDING - found) == [], "gone now: remove it from PENDING"


def test_the_check_sees_a_factor_written_again(tmp_path):
    (tmp_path / "treecalc").mkdir(parents=True)
    (tmp_path / "treecalc" / "quantities.py").write_text("CM_PER_IN = 2.54\n")
    (tmp_path / "treecalc" / "model.py").write_text("from treecalc.quantities import LB_PER_KG\nCM_PER_IN = 2.54\n")
    assert defined_factors(tmp_path) == {"treecalc/model.py: CM_PER_IN"}
