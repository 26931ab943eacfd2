"""treecalc's ``compute_benefits`` against OpenTreeMap's Go eco-benefit engine on the same 1,000,000 trees,
timed side by side in one run, with a sample of trees checked to agree to the cent.

Usage::

    python benchmarks/peer_otm_go.py PEER_DIR [--trees 1000000] [--repeat 5] [--sample 2000] [--seed 1]
                                     [--work /tmp/treecalc-peer-otm]

``PEER_DIR`` is a checkout of https://github.com/OpenTreeMap/otm-ecoservice (nothing of it lives in this
repository). Needs ``go`` on the PATH (Debian's golang-go 1.19 will do); no network.

How the peer is built: its ``eco`` package computes the benefits in ``eco.go`` (``CalcOneTree``: the
interpolation between the DBH breaks of each factor's table) and ``io.go`` (``LoadFiles``,
``LoadSpeciesMap``: the tables of ``data/``). Its two other files are the PostgreSQL row source
(``db.go``, needing ``github.com/lib/pq``) and the GEOS point-in-polygon look-up of a tree's region
(``geom.go``, cgo against ``libgeos_c``). This script copies ``eco.go`` and ``io.go`` unmodified into a
module under ``--work``, with a stub of ``geom.go``'s types (never called: every tree states its zone),
and a driver ``main`` (written below, treecalc's own code) that reads the trees from a CSV, then runs the
peer's own per-tree loop body of ``CalcBenefitsWithData`` with the region fixed per tree: the species map
look-up ``speciesdata[region][otmcode]`` to the i-Tree code, then ``CalcOneTree`` summing the 15 factors.
Only that loop is timed (not the CSV parsing), ``--repeat`` times in one process.

The trees: for each tree a zone drawn uniformly from the 16, a species code drawn uniformly from the codes
that treecalc's catalogue, its table of that zone (data/species/zones/<zone>/species.csv) and the
peer's ``data/species.json`` for that region all know, DBH uniform 1-60 in at 0.1 in, land use unspecified (the peer
has no land-use variants). treecalc gets them as a DataFrame with a categorical ``zone`` column and is
timed on ``compute_benefits`` (which also turns quantities into dollars and writes the per-tree
disclosures): ``--repeat`` treecalc runs, then the peer's ``--repeat`` runs in its process, then ``--repeat``
treecalc runs again, so a load that rises or falls during the run favours neither.

Wall time and CPU time are both reported (the peer's CPU time from its own ``getrusage``, treecalc's from
``time.process_time``): this machine's cores are shared, and under load the wall time counts waits for a
core. The load average is printed before and after. Goal: treecalc >= 3 x faster than the peer.

The check: for ``--sample`` trees the driver also prints each tree's 15 quantities; these are priced with
treecalc's zone prices (data/species/zones/prices.csv, OpenTreeMap otm-core's ITREE_REGIONS) into the same
benefit groups treecalc reports, and each tree's dollars compared with treecalc's to the cent.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import numpy as np
import pandas as pd

import treecalc
from treecalc.reference import data

DRIVER = r"""
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"peerbench/eco"
)

func cpu() float64 {
	var r syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &r)
	return float64(r.Utime.Sec+r.Stime.Sec) + float64(r.Utime.Usec+r.Stime.Usec)/1e6
}

func main() {
	datadir, treesPath := os.Args[1], os.Args[2] // datadir ends in "/": LoadFiles joins by concatenation
	repeat, _ := strconv.Atoi(os.Args[3])
	sample, _ := strconv.Atoi(os.Args[4])
	regiondata := eco.LoadFiles(datadir)
	speciesdata, err := eco.LoadSpeciesMap(datadir + "species.json")
	if err != nil {
		panic(err)
	}
	f, err := os.Open(treesPath)
	if err != nil {
		panic(err)
	}
	var zones, codes []string
	var dbhCm []float64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		p := strings.Split(sc.Text(), ",")
		d, _ := strconv.ParseFloat(p[2], 64)
		zones = append(zones, p[0])
		codes = append(codes, p[1])
		dbhCm = append(dbhCm, d*eco.CentimetersPerInch)
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for r := 0; r < repeat; r++ {
		t0, c0 := time.Now(), cpu()
		sum := make([]float64, len(eco.Factors))
		n := 0
		for i := range zones {
			itreecode := speciesdata[zones[i]][codes[i]]
			if itreecode != "" {
				eco.CalcOneTree(regiondata[zones[i]], itreecode, dbhCm[i], sum)
				n++
			}
		}
		fmt.Fprintf(w, "run %d %f %f %f\n", n, time.Since(t0).Seconds(), cpu()-c0, sum[0])
		w.Flush()
	}
	for i := 0; i < sample && i < len(zones); i++ {
		one := make([]float64, len(eco.Factors))
		itreecode := speciesdata[zones[i]][codes[i]]
		if itreecode != "" {
			eco.CalcOneTree(regiondata[zones[i]], itreecode, dbhCm[i], one)
		}
		s := make([]string, len(one))
		for k, v := range one {
			s[k] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		fmt.Fprintf(w, "tree\t%d\t%s\t%s\n", i, itreecode, strings.Join(s, ","))
	}
}
"""

# geom.go's types as eco.go names them; the driver fixes each tree's region, so none is ever called
GEOM_STUB = """
package eco

type Geom struct{}
type Point struct{}
type Region struct {
	Code string
	geom Geom
}

func Intersects(g Geom, p Point) (bool, error) { panic("not used: every tree states its zone") }
func CreateGeosPtWithXY(x float64, y float64) Point { panic("not used: every tree states its zone") }
func DestroyPt(p Point) {}
"""

GAL_PER_M3 = 264.172
LB_PER_KG = 2.20462
#: the last DBH break of every table (cm): 45 in
LAST_BREAK_CM = 114.30

FACTORS = (
    "natural_gas electricity hydro_interception co2_sequestered co2_avoided co2_storage aq_nox_dep aq_ozone_dep "
    "aq_nox_avoided aq_pm10_dep aq_pm10_avoided aq_sox_dep aq_sox_avoided aq_voc_avoided bvoc"
).split()


def build(peer: Path, work: Path) -> Path:
    mod = work / "go"
    shutil.rmtree(mod, ignore_errors=True)
    (mod / "eco").mkdir(parents=True)
    for name in ("eco.go", "io.go"):
        shutil.copy(peer / "eco" / name, mod / "eco" / name)
    (mod / "eco" / "geom_stub.go").write_text(GEOM_STUB)
    (mod / "go.mod").write_text("module peerbench\n\ngo 1.19\n")
    (mod / "main.go").write_text(DRIVER)
    exe = work / "peer-driver"
    env = {**os.environ, "GOFLAGS": "-mod=mod", "GOPROXY": "off", "CGO_ENABLED": "0", "GOCACHE": str(work / "cache")}
    subprocess.run(["go", "build", "-o", str(exe), "."], cwd=mod, env=env, check=True)
    return exe


def make_trees(peer: Path, n: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    peer_map = json.loads((peer / "data" / "species.json").read_text())
    zones = list(data.zones().index)
    known = set(data.catalogue().index)
    zone_codes = {}
    for z in zones:
        ours = pd.read_csv(Path(data.__file__).parent.parent / "data" / "species" / "zones" / z / "species.csv")
        zone_codes[z] = np.asarray(sorted(set(ours["code"]) & set(peer_map.get(z, {})) & known), dtype=object)
    zi = rng.integers(0, len(zones), n)
    code = np.empty(n, dtype=object)
    for k, z in enumerate(zones):
        at = np.flatnonzero(zi == k)
        code[at] = zone_codes[z][rng.integers(0, len(zone_codes[z]), len(at))]
    return pd.DataFrame(
        {
            "species_code": code,
            "dbh_in": rng.uniform(1.0, 60.0, n).round(1),
            "land_use": "unspecified",
            "zone": pd.Categorical.from_codes(zi, categories=zones),
        }
    )


def price_peer(trees: pd.DataFrame, q: pd.DataFrame) -> pd.DataFrame:
    """The peer's quantities in dollars per benefit group, at treecalc's zone prices (OpenTreeMap's).

    The peer's tables are metric (m³ of rain, kg of CO2 and pollutants, kWh, kBtu); the prices are per gal
    and lb, so m³ x 264.172 = gal and kg x 2.20462 = lb (the factors treecalc uses, as OpenTreeMap does)."""
    prices = pd.read_csv(Path(data.__file__).parent.parent / "data" / "species" / "zones" / "prices.csv")
    p = prices.pivot(index="zone", columns="factor_group", values="price_usd_per_unit")
    z = trees["zone"].astype(str).to_numpy()

    def at(group: str) -> np.ndarray:
        return p[group].reindex(z).to_numpy()

    return pd.DataFrame(
        {
            "energy": q["electricity"] * at("electricity") + q["natural_gas"] * at("natural_gas"),
            "stormwater": q["hydro_interception"] * GAL_PER_M3 * at("hydro_interception"),
            "co2": (q["co2_sequestered"] + q["co2_avoided"]) * LB_PER_KG * at("co2"),
            "air_quality": LB_PER_KG
            * (
                q["aq_ozone_dep"] * at("o3")
                + (q["aq_nox_dep"] + q["aq_nox_avoided"]) * at("nox")
                + (q["aq_pm10_dep"] + q["aq_pm10_avoided"]) * at("pm10")
                + (q["aq_sox_dep"] + q["aq_sox_avoided"]) * at("sox")
                + q["aq_voc_avoided"] * at("voc")
                + q["bvoc"] * at("voc")
            ),
        },
        index=trees.index,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("peer", type=Path, help="a checkout of OpenTreeMap/otm-ecoservice")
    ap.add_argument("--trees", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--sample", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", type=Path, default=Path("/tmp/treecalc-peer-otm"))
    a = ap.parse_args()
    a.work.mkdir(parents=True, exist_ok=True)
    exe = build(a.peer, a.work)
    trees = make_trees(a.peer, a.trees, a.seed)
    csv = a.work / "trees.csv"
    trees[["zone", "species_code", "dbh_in"]].to_csv(csv, header=False, index=False)
    treecalc.compute_benefits(trees.head(10))  # warm-up: tables, derived tables
    load0 = os.getloadavg()
    tc_wall, tc_cpu = [], []
    for _ in range(a.repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        ours = treecalc.compute_benefits(trees)
        tc_wall.append(time.perf_counter() - t0)
        tc_cpu.append(time.process_time() - c0)
    # the peer runs its repeats in one process (after reading the CSV once), between treecalc's runs and after
    out = subprocess.run(
        [str(exe), str(a.peer / "data") + "/", str(csv), str(a.repeat), str(a.sample)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    for _ in range(a.repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        ours = treecalc.compute_benefits(trees)
        tc_wall.append(time.perf_counter() - t0)
        tc_cpu.append(time.process_time() - c0)
    load1 = os.getloadavg()
    runs = [ln.split() for ln in out if ln.startswith("run ")]
    go_n = int(runs[0][1])
    go_wall = [float(r[2]) for r in runs]
    go_cpu = [float(r[3]) for r in runs]

    def median(v: list[float]) -> float:
        return sorted(v)[len(v) // 2]

    print(
        f"{a.trees:,} trees over {trees['zone'].nunique()} zones; peer computed {go_n:,} (the rest had no i-Tree code "
        f"in its species map); treecalc {len(tc_wall)} runs, peer {len(go_wall)} runs"
    )
    print(
        f"load average (1, 5, 15 min) before {', '.join(f'{x:.1f}' for x in load0)}; after "
        f"{', '.join(f'{x:.1f}' for x in load1)}; {os.cpu_count()} cores"
    )
    for kind, t, g in (("wall", tc_wall, go_wall), ("CPU", tc_cpu, go_cpu)):
        for pick in (median, min):
            tt, gg = pick(t), pick(g)
            print(
                f"  {kind:<4} {pick.__name__:<6} treecalc {tt:.3f} s ({a.trees / tt:,.0f} trees/s), "
                f"peer {gg:.3f} s ({go_n / gg:,.0f} trees/s): treecalc {gg / tt:.2f} x faster "
                f"(goal >= 3 x: {'met' if gg / tt >= 3 else 'NOT met'})"
            )
    rows = [ln.split("\t") for ln in out if ln.startswith("tree\t")]
    idx = [int(r[1]) for r in rows]
    q = pd.DataFrame([[float(v) for v in r[3].split(",")] for r in rows], columns=FACTORS, index=idx)
    sample = trees.loc[idx]
    theirs = price_peer(sample, q)
    cols = {"energy": "usd_energy", "stormwater": "usd_stormwater", "co2": "usd_co2", "air_quality": "usd_air_quality"}
    mine = ours.loc[idx]
    # the engines part by design past the last DBH break: the peer extends the last segment's line
    # (CalcOneTree), treecalc holds the last class's value; so the two sets are counted apart
    inside = sample["dbh_in"] * 2.54 < LAST_BREAK_CM
    print(f"sample of {len(idx):,} trees, dollars per group to the cent (peer's quantities at the zone prices):")
    for label, part in (("DBH < 45 in (inside the tables)", inside), ("DBH >= 45 in (past the last break)", ~inside)):
        print(f"  {label}: {int(part.sum()):,} trees")
        for g, c in cols.items():
            diff = (mine.loc[part, c].astype(float).round(2) - theirs.loc[part, g].round(2)).abs()
            bad = diff > 0.005
            print(
                f"    {g:<12} {int((~bad).sum()):,} of {int(part.sum()):,} agree to the cent; "
                f"largest difference {diff.max():.2f} $"
            )
            for i in list(diff[bad].index[:2]):
                print(
                    f"       e.g. tree {i}: {sample.loc[i].to_dict()} treecalc {mine.loc[i, c]:.4f} peer {theirs.loc[i, g]:.4f}"
                )


if __name__ == "__main__":
    main()
