"""The law an assessment was made under, as the register keeps it beside the assessment: each file's SHA-256."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from treecalc.law import law_files as village_files
from treecalc.law import registry as jurisdictions


def law_files(options: dict[str, Any]) -> dict[str, str]:
    """SHA-256 of the law files in force for an assessment: its jurisdiction's TOML, the site facts assumed,
    and the fee schedule (the file given, an in-line schedule's canonical JSON, or the bundled one). Any law the
    registry holds has its files hashed, from its own folder for a village held outside the data folder."""
    from treecalc.law.access import DEFAULT_FEE_SCHEDULE  # late-bound: DEFAULT_FEE_SCHEDULE looked up when called
    from treecalc.reference.datafolder import DATA_DIR  # late-bound: DATA_DIR looked up when called

    out: dict[str, str] = {}
    village = str(options.get("jurisdiction") or "")
    try:
        record = jurisdictions.by_key(village) if village else None
    except KeyError:  # a name the assessment refused: only the site facts assumed are the law's
        record = None
    names = village_files(record.key) if record is not None else ["readings/site_facts.toml"]
    held = record.data_dir if record is not None else None
    for name in names:
        p = Path(held) / name if held is not None and (Path(held) / name).is_file() else DATA_DIR / name
        if p.is_file():
            out[name] = hashlib.sha256(p.read_bytes()).hexdigest()
    fee = options.get("fee_schedule")
    if isinstance(fee, dict):
        # the register's canonical JSON (sorted keys, no spaces, UTF-8), as the event's
        text = json.dumps(fee, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        out["fee_schedule (in line)"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    elif isinstance(fee, str) and Path(fee).is_file():
        out[f"fee_schedule {Path(fee).name}"] = hashlib.sha256(Path(fee).read_bytes()).hexdigest()
    elif DEFAULT_FEE_SCHEDULE.is_file():
        # named by its path in the data folder (law/<village>/fee_schedule.toml), as the law files above are
        out["/".join(DEFAULT_FEE_SCHEDULE.parts[-3:])] = hashlib.sha256(DEFAULT_FEE_SCHEDULE.read_bytes()).hexdigest()
    return out
