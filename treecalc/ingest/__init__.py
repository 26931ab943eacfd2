"""Survey ingest: read real tree surveys (xlsx, xlsm, xlsb, xls, ods, csv, tsv,
txt) into one clean table of trees, and say exactly what could not be read
and why. See :func:`read_survey`.
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from treecalc.ingest.columns import FIELDS, FLAG_FIELDS
    from treecalc.ingest.errors import AmbiguousActionError, NoTreeReadError, SurveyError, require_trees
    from treecalc.ingest.site import SITE_ASSUMED, SITE_FIELDS
    from treecalc.ingest.survey import REJECTION_KINDS, Survey, read_survey
    from treecalc.ingest.values import combine_stems

#: Each name's module, imported when the name is first asked for: the survey reader imports pandas, and a module of
#: this package that needs none of it (the water account's reader, the bounded child's runner) is imported without it
_FROM = {
    "FIELDS": "columns",
    "FLAG_FIELDS": "columns",
    "AmbiguousActionError": "errors",
    "NoTreeReadError": "errors",
    "SurveyError": "errors",
    "require_trees": "errors",
    "SITE_ASSUMED": "site",
    "SITE_FIELDS": "site",
    "REJECTION_KINDS": "survey",
    "Survey": "survey",
    "read_survey": "survey",
    "combine_stems": "values",
}

__all__ = [
    "read_survey",
    "Survey",
    "SurveyError",
    "NoTreeReadError",
    "AmbiguousActionError",
    "require_trees",
    "SITE_FIELDS",
    "SITE_ASSUMED",
    "FLAG_FIELDS",
    "FIELDS",
    "REJECTION_KINDS",
    "combine_stems",
]


def __getattr__(name: str) -> Any:
    if name in _FROM:
        # start-up: a name's module loaded on its first use
        value = getattr(importlib.import_module(f"{__name__}.{_FROM[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
