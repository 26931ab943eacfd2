"""treecalc: tree survey → environmental value, Chapter 208 replacement, fund and penalties.

The public API:

- :func:`benefits` one tree, :func:`compute_benefits` many (i-Tree Streets, Northeast).
- :func:`read_survey` a spreadsheet into trees + rejected rows.
- :func:`assess` the law engine (Croton-on-Hudson Chapter 208, Wesley Hills Chapter 95).
"""

from treecalc.assessment import Assessment, assess
from treecalc.benefits import BenefitParams, benefits, compute_benefits

__all__ = ["Assessment", "BenefitParams", "assess", "benefits", "compute_benefits"]
__version__ = "0.1.0"
