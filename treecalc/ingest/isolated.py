"""The companions' files parsed where a hostile one cannot hurt the caller: in the survey reader's child.

A water account, an excavation grid, sections, surface points (CSV or LandXML), a fee schedule, a species map
and an app's project file are each bounded before they are read (:func:`treecalc.files.read_limited`: type and
size; rows, columns and cells before cells are made). Their parsing runs, as the survey's does, in a child
process limited in address space and time (:func:`treecalc.ingest.limits.run_isolated`, the limits of
``TREECALC_LIMITS``: ``memory_gb``, ``seconds``), so that a parser's blow-up, abort or hang costs the caller a
message (:class:`~treecalc.ingest.errors.SurveyError`, a ``ValueError`` naming the file), never the process: the
command line exits 2, the app's other sessions keep answering. A server that reads for many users at once gives
its memory budget (:func:`use_budget`): each parse holds its child's share of it while it runs, like a survey
read.

The child's own refusal (a ``ValueError`` naming the row, a project's error) is raised in the caller as it was
raised in the child. Inside the child (a reader that calls another), the work runs in place: one child per read.
"""

from __future__ import annotations

import contextlib
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from treecalc.files import parse_csv_rows, parse_csv_table

T = TypeVar("T")

#: True in the child process (set there before the work runs): a nested call works in place
_IN_CHILD = False
#: the server's memory budget shared with the survey reads (:func:`use_budget`), or None
_BUDGET: Any = None


def use_budget(budget: Any) -> None:
    """Make parses hold their child's memory in ``budget`` (a :class:`treecalc.ingest.limits.MemoryBudget`)
    while they run, as the app's survey reads do; None: no budget (the command line)."""
    global _BUDGET
    _BUDGET = budget


class _Raised:
    """An exception of the child that did not pickle: its type's name and message."""

    def __init__(self, kind: str, text: str) -> None:
        self.kind, self.text = kind, text


def _settings() -> dict[str, str]:
    """The caller's ``TREECALC_*`` settings (a file's size limit, the data folder): a child forked from a server's
    fork server would otherwise see that server's environment as it was when it started."""
    return {k: v for k, v in os.environ.items() if k.startswith("TREECALC_")}


def _work(
    fn: Callable[..., Any], args: tuple, kwargs: dict, settings: dict[str, str], progress: Any = None
) -> tuple[str, Any]:
    """In the child: ``("ok", result)`` or ``("raised", exception)``; never raises, so that the refusal of the
    file comes back as its own exception, not as run_isolated's generic "could not be read"."""
    global _IN_CHILD
    _IN_CHILD = True
    for k in [k for k in os.environ if k.startswith("TREECALC_") and k not in settings]:
        del os.environ[k]
    os.environ.update(settings)
    try:
        return "ok", fn(*args, **kwargs)
    except MemoryError:
        raise  # run_isolated says the file needs more memory than the child may have
    except Exception as e:  # noqa: BLE001 - carried to the caller and raised there
        try:
            pickle.loads(pickle.dumps(e))
        except Exception:  # noqa: BLE001 - an exception that does not travel: its words do
            return "raised", _Raised(type(e).__name__, str(e))
        return "raised", e


def run(fn: Callable[..., T], *args: Any, what: str, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` in the bounded child (see the module); ``what`` names the file in the refusal of a
    child that runs out of memory or time. ``fn`` and its result must pickle (a module-level function)."""
    if _IN_CHILD:
        return fn(*args, **kwargs)
    from treecalc.ingest.limits import Limits, run_isolated  # start-up: 40 modules loaded only when this runs

    limits = Limits.from_env()
    held = _BUDGET.reserve(limits.memory_gb) if _BUDGET is not None else contextlib.nullcontext(limits.memory_gb)
    with held as memory_gb:
        kind, value = run_isolated(
            _work, (fn, args, kwargs, _settings()), {}, name=what, limits=limits.with_(memory_gb=memory_gb)
        )
    if kind == "ok":
        return value
    if isinstance(value, _Raised):
        raise ValueError(value.text if what in value.text else f"{what}: {value.text}")
    raise value


def read_csv_table(
    path: str | os.PathLike[str], what: str, max_bytes: int | None = None, max_rows: int | None = None
) -> Any:
    """A CSV as a DataFrame of stripped text cells (:func:`treecalc.files.parse_csv_table`), parsed in the bounded
    child (a hostile file costs a refusal naming it, not the caller). It lives here, not in ``units``, so the base
    module that every layer reads never reaches up to the child's limits."""
    return run(parse_csv_table, path, what, max_bytes, max_rows, what=f"{what} file {Path(path).name}")


def read_csv_rows(
    path: str | os.PathLike[str], what: str, max_bytes: int | None = None, max_rows: int | None = None
) -> tuple[list[str], list[list[str]], list[int]]:
    """:func:`read_csv_table`'s header, rows and lines as lists (:func:`treecalc.files.parse_csv_rows`), for a reader
    that needs no frame: neither process imports pandas for it."""
    return run(parse_csv_rows, path, what, max_bytes, max_rows, what=f"{what} file {Path(path).name}")
