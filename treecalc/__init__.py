"""treecalc: tree survey → environmental value, Chapter 208 replacement, fund and penalties.

The public API:

- :func:`benefits` one tree, :func:`compute_benefits` many (i-Tree Streets, Northeast).
- :func:`read_survey` a spreadsheet into trees + rejected rows.
- :func:`assess` the law engine (Croton-on-Hudson Chapter 208, Wesley Hills Chapter 95).

The names are imported on first use (PEP 562 module ``__getattr__``), so that
``import treecalc`` and ``treecalc --help`` do not load pandas, numpy and scipy.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # for type checkers and IDEs; at run time the names load lazily
    from treecalc.assessment import Assessment, assess
    from treecalc.ingest import Survey, SurveyError, read_survey
    from treecalc.models.benefits import BenefitParams, benefits, compute_benefits

#: Public name -> the module that defines it.
_LAZY = {
    "Assessment": "treecalc.assessment",
    "assess": "treecalc.assessment",
    "BenefitParams": "treecalc.models.benefits",
    "compute_benefits": "treecalc.models.benefits",
    "Survey": "treecalc.ingest",
    "SurveyError": "treecalc.ingest",
    "read_survey": "treecalc.ingest",
}

__all__ = [
    "Assessment",
    "BenefitParams",
    "Survey",
    "SurveyError",
    "assess",
    "benefits",
    "compute_benefits",
    "read_survey",
]
from treecalc.schema import __version__ as __version__  # noqa: E402 (stated once, in the schema)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'treecalc' has no attribute {name!r}")
    # start-up: a name's module loaded on its first use, so `import treecalc` loads no pandas
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(types.ModuleType):
    """``treecalc.models.benefits`` is the function, as it was when this package imported it eagerly.

    Importing the submodule ``treecalc.models.benefits`` makes Python set the package
    attribute ``benefits`` to that module; this property keeps the name for the
    function whichever is imported first.
    """

    @property
    def benefits(self) -> Any:
        # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
        from treecalc.models.benefits import benefits as function

        return function

    @benefits.setter
    def benefits(self, value: Any) -> None:  # the import system storing the submodule: ignored
        pass


sys.modules[__name__].__class__ = _Package
