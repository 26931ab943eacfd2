"""Survey ingest: read real tree surveys (xlsx, xlsm, xlsb, xls, ods, csv, tsv,
txt) into one clean table of trees, and say exactly what could not be read
and why. See :func:`read_survey`.
"""

from treecalc.ingest.columns import FIELDS, FLAG_FIELDS
from treecalc.ingest.errors import AmbiguousActionError, NoTreeReadError, SurveyError, require_trees
from treecalc.ingest.site import SITE_ASSUMED, SITE_FIELDS
from treecalc.ingest.survey import REJECTION_KINDS, Survey, read_survey
from treecalc.ingest.values import combine_stems

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
