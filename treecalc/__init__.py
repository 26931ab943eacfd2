"""treecalc: tree survey → environmental value, Chapter 208 replacement, fund and penalties.

The public API:

- :func:`benefits` one tree, :func:`compute_benefits` many (i-Tree Streets, Northeast).
- :func:`read_survey` a spreadsheet into trees + rejected rows.
- :func:`assess` the law engine (Croton-on-Hudson Chapter 208, Wesley Hills Chapter 95).
"""

from treecalc.assessment import Assessment, assess
from treecalc.benefits import BenefitParams, benefits, compute_benefits
from treecalc.ingest import Survey, SurveyError, read_survey

__all__ = ["Assessment", "BenefitParams", "Survey", "SurveyError", "assess", "benefits", "compute_benefits",
           "read_survey"]
__version__ = "0.1.0"
