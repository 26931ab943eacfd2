"""compute_benefits' dbh_in column is the output's own, never a view of the input's float64 data."""

import numpy as np
import pandas as pd

from treecalc.models.benefits import compute_benefits


def test_output_dbh_is_writable_and_not_the_inputs_memory():
    f = pd.DataFrame({"species_code": ["ACRU", "QURU"], "dbh_in": [10.0, 50.0]})
    out = compute_benefits(f)
    assert not np.shares_memory(out["dbh_in"].to_numpy(), f["dbh_in"].to_numpy())
    out.loc[0, "dbh_in"] = 12.5  # the caller edits its result (was: ValueError, read-only)
    assert out["dbh_in"].tolist() == [12.5, 50.0]
    assert f["dbh_in"].tolist() == [10.0, 50.0]  # the input is untouched
    f.loc[1, "dbh_in"] = 7.0
    assert out["dbh_in"].tolist() == [12.5, 50.0]
