"""Small shared helpers, one module per concept:

- :mod:`treecalc.units.money`: exact money (Decimal, half-up to the cent) from user text.
- :mod:`treecalc.units.dates`: ISO dates and calendar-month arithmetic.
- :mod:`treecalc.units.ranges`: the one table of plausible ranges of every number a user gives, and its checks.
- :mod:`treecalc.units.files`: a user's file read within bounds (type, size, a CSV's lines and cells).
- :mod:`treecalc.units.datafolder`: the one data folder (``TREECALC_DATA``) and its files.
- :mod:`treecalc.units.quantities`: every conversion between units, once.

Import from the concept's module. The names below are re-exported for the modules that are being moved
now and still import them from here (excavation.py, surfaces.py, water.py, planting.py, report/json.py,
results.py, rules/croton_on_hudson/, law/loader.py, law/access.py, benefits.py, models/itree_streets.py,
cli/, app_support/, treecalc_app/, tests/law/); once they import from the concept modules, this list goes.
law/loader.py reads ``treecalc.units.DATA_DIR`` at each call, so a test that sets it here (tests/law) still
moves the folder the law is read from.
"""

from __future__ import annotations

from treecalc.units.datafolder import (
    BUNDLED_DATA_DIR,
    DATA_DIR,
    DATA_ENV,
    LAW_DIR,
    MissingDataFile,
    data_file,
    data_files_read,
    read_data_toml,
)
from treecalc.units.dates import add_months, to_date, to_datetime
from treecalc.units.files import (
    MAX_INPUT_CELLS,
    MAX_INPUT_MB,
    InputRefused,
    count_lines,
    parse_csv_table,
    read_limited,
)
from treecalc.units.money import (
    CENT,
    MAX_MONEY,
    cents,
    money,
    nonneg,
    parse_money_cents,
    pct,
    percent_of_up,
    round2,
    to_decimal,
)
from treecalc.units.ranges import (
    RANGES,
    SITE_RANGES,
    OutOfRange,
    Range,
    bounded,
    in_range,
    number,
    small_file,
    within,
)

__all__ = [
    "CENT",
    "MAX_MONEY",
    "to_decimal",
    "cents",
    "round2",
    "percent_of_up",
    "money",
    "nonneg",
    "to_datetime",
    "parse_money_cents",
    "to_date",
    "add_months",
    "bounded",
    "parse_csv_table",
    "read_limited",
    "count_lines",
    "InputRefused",
    "MAX_INPUT_MB",
    "MAX_INPUT_CELLS",
    "within",
    "Range",
    "RANGES",
    "SITE_RANGES",
    "in_range",
    "OutOfRange",
    "number",
    "small_file",
    "pct",
    "LAW_DIR",
    "DATA_DIR",
    "DATA_ENV",
    "BUNDLED_DATA_DIR",
    "MissingDataFile",
    "data_file",
    "read_data_toml",
    "data_files_read",
]
