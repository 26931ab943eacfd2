"""Wesley Hills § 95-3A(1)(c)-(e) and the $5,000-per-tree fine."""

from treecalc.rules import law
from treecalc.rules import wesley_hills as W
from treecalc.rules.croton_on_hudson import resolve_site
from rules_helpers import make_trees

LAW = law("wesley_hills")


def ev(rows, **site):
    s, _ = resolve_site(site, W.SITE_DEFAULTS)
    return W.evaluate(make_trees(rows), s, LAW)


def test_c_vacant_lot_10in():
    # 10.0 in on a vacant lot -> (c); 9.9 in not. Small lot with CO so (d), (e) are off.
    r = ev([{"dbh_in": 10.0}, {"dbh_in": 9.9}], has_residence=False, lot_area_acres=0.5, one_family_co_issued=True)
    assert r.triggers == [["§95-3A(1)(c)"], []]
    # one offence x $5,000
    assert r.fine_usd.sum() == 5000


def test_d_large_lot_far_from_residence():
    rows = [{"dbh_in": 12, "distance_to_residence_ft": 250.0}, {"dbh_in": 12, "distance_to_residence_ft": 200.0}]
    r = ev(rows, has_residence=True, lot_area_acres=1.5, one_family_co_issued=True)
    # 250 > 200 -> (d); exactly 200 ft is not "farther than 200 feet"
    assert r.triggers == [["§95-3A(1)(d)"], []]
    r = ev(rows, has_residence=True, lot_area_acres=1.49, one_family_co_issued=True)
    assert r.triggers == [[], []]


def test_e_lot_line_without_co():
    rows = [{"dbh_in": 6.0, "within_20ft_of_lot_line": True}, {"dbh_in": 5.9, "within_20ft_of_lot_line": True},
            {"dbh_in": 8.0, "within_20ft_of_lot_line": False}]
    r = ev(rows, has_residence=True, lot_area_acres=0.5, one_family_co_issued=False)
    assert r.triggers == [["§95-3A(1)(e)"], [], []]
    r = ev(rows, has_residence=True, lot_area_acres=0.5, one_family_co_issued=True)
    assert not r.permit_needed.any() and r.fine_usd.sum() == 0


def test_unknown_facts_are_conservative_and_stated():
    r = ev([{"dbh_in": 12, "within_20ft_of_lot_line": None}])
    # vacant assumed (c), 1.5 acres+ and distance unknown -> far (d), no CO and lot line unknown -> near (e)
    assert r.triggers == [["§95-3A(1)(c)", "§95-3A(1)(d)", "§95-3A(1)(e)"]]
    assert len(r.assumptions) == 2


def test_proposed_removal_needs_permit_but_is_no_offence():
    r = ev([{"dbh_in": 12, "action": "remove"}], has_residence=False)
    assert r.permit_needed.tolist() == [True] and r.fine_usd.sum() == 0
