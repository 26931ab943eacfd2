"""User-given numbers: refused with the parameter's name, never passed on as NaN or a wrong type."""

import pytest

from treecalc.validate import number


@pytest.mark.parametrize("value,kw,msg", [
    ("abc", {}, "must be a number"), (True, {}, "must be a number"), (float("nan"), {}, "finite"),
    ("inf", {}, "finite"), (-1, {"low": 0}, "at least 0"), (0, {"low": 0, "strict": True}, "greater than 0"),
    (2, {"high": 1}, "at most 1"), (1.5, {"whole": True}, "whole number"),
    (0, {"low": 1, "whole": True}, "a whole number at least 1"),
])
def test_refusals_name_the_parameter(value, kw, msg):
    with pytest.raises(ValueError, match=msg) as e:
        number("days", value, **kw)
    assert str(e.value).startswith("days must be")


def test_accepted_values():
    assert number("x", "2.5", low=0) == 2.5
    assert number("x", 3, low=1, whole=True) == 3.0
