"""Bounds on what a survey file may hold, and reading it where a failure cannot hurt the caller.

Two layers keep a hostile or broken file (a 1.7 KB workbook whose one far-away cell makes a
native reader ask for 550 GB) from taking the process down:

* **Limits** (:class:`Limits`): the extent of every sheet (rows, columns, the rectangle a reader
  allocates), the distinct strings and their total size, and the longest cell text are measured
  *before* a native reader sees the file (:func:`treecalc.ingest.sources.preflight`), and a file
  beyond a limit is refused with a message naming the limit and how to raise it. The defaults are
  generous for real surveys (a million trees); ``--limit NAME=VALUE`` on the command line and the
  ``TREECALC_LIMITS`` environment variable (``rows=2000000,cells=50000000``; the app reads it)
  raise them.
* **Isolation** (:func:`run_isolated`): the read runs in a child process with an address-space
  limit (``resource.setrlimit(RLIMIT_AS)``) and a timeout, so a crash, an abort or a blow-up in a
  parser becomes a :class:`~treecalc.ingest.errors.SurveyError` ("the file could not be read: it
  needs more than 4 GB of memory") and the command line or the app carries on.
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing as mp
import os
import pickle
import resource
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from treecalc.ingest.errors import AmbiguousActionError, ReaderStopped, SurveyError
from treecalc.law.schema import LawSchemaError
from treecalc.reference.datafolder import DamagedDataFile, MissingDataFile

#: Names accepted by ``--limit NAME=VALUE`` and ``TREECALC_LIMITS``, with what each bounds.
LIMIT_NAMES = {
    "rows": "rows of a sheet (its last used row)",
    "columns": "columns of a sheet (its last used column)",
    "cells": "cells of a sheet's used rectangle (rows × columns, which a reader allocates)",
    "strings": "distinct strings of a workbook (xlsx shared strings)",
    "strings_mb": "total size of a workbook's shared strings, MB",
    "text": "characters in one cell",
    "memory_gb": "memory of the isolated reader, GB (its address space)",
    "seconds": "time of the isolated reader, seconds",
}


#: Bounds of a workbook's zip container (:func:`treecalc.ingest.sources.check_zip`), fixed: no survey comes
#: near them, and ``--limit`` does not raise them.
#: Refuse a zip container whose members add up to more than this, uncompressed.
MAX_UNCOMPRESSED = 1_000_000_000
#: Refuse a member (over 1 MB uncompressed) compressed more than this ratio.
MAX_RATIO = 200
MAX_MEMBERS = 10_000


@dataclass(frozen=True)
class Limits:
    """What a survey file may hold. Defaults: generous for a survey of a million trees."""

    #: Excel's own sheet has 1,048,576 rows; a million trees and a header fit.
    rows: int = 1_048_576
    #: Excel has 16,384 columns; a survey has tens.
    columns: int = 1_000
    #: A million trees × 20 columns: ~0.7 GB in a reader that allocates the rectangle.
    cells: int = 20_000_000
    #: Tags, notes and names of a million trees.
    strings: int = 3_000_000
    strings_mb: float = 200.0
    #: Characters in one cell: Excel stops at 32,767, a CSV may carry long notes (a 200,000-character cell is read).
    text: int = 1_000_000
    memory_gb: float = 4.0
    seconds: float = 300.0

    def with_(self, **changes: Any) -> Limits:
        return dataclasses.replace(self, **changes)

    @classmethod
    def parse(cls, items: list[str] | str | None, base: Limits | None = None, flag: str = "--limit") -> Limits:
        """``["rows=2000000", "cells=5e7"]`` or ``"rows=2000000,cells=5e7"`` over ``base`` (ValueError naming
        ``flag`` for a name not in :data:`LIMIT_NAMES` or a value that is not a positive number)."""
        out = base or cls()
        if not items:
            return out
        if isinstance(items, str):
            items = [x for x in items.replace(";", ",").split(",") if x.strip()]
        changes: dict[str, Any] = {}
        for item in items:
            name, sep, value = item.partition("=")
            name = name.strip().lower().replace("-", "_")
            if not sep or name not in LIMIT_NAMES:
                raise ValueError(f"{flag} {item!r}: expected NAME=VALUE with NAME one of {', '.join(LIMIT_NAMES)}")
            try:
                x = float(value)
            except ValueError:
                x = float("nan")
            if not (0 < x < 1e15):
                raise ValueError(f"{flag} {item!r}: the value must be a positive number below 1e15")
            changes[name] = x if isinstance(getattr(out, name), float) else max(1, int(x))
        return out.with_(**changes)

    @classmethod
    def from_env(cls) -> Limits:
        """The defaults, raised by ``TREECALC_LIMITS`` (``rows=2000000,cells=5e7``)."""
        return cls.parse(os.environ.get("TREECALC_LIMITS"), flag="TREECALC_LIMITS")


DEFAULT = Limits()


def refuse(name: str, what: str, limit_name: str, limit: float) -> SurveyError:
    """The refusal of a file beyond a limit, naming the limit and how to raise it."""
    shown = f"{limit:,}" if isinstance(limit, int) else f"{limit:g}"
    return SurveyError(
        f"{name} refused: {what}, over the limit of {shown} {LIMIT_NAMES[limit_name].split(' (')[0]}"
        f" ({limit_name}); if the survey really is this large, raise it with "
        f"--limit {limit_name}=N (app: TREECALC_LIMITS={limit_name}=N)"
    )


# ------------------------------------------------------------------ a budget shared by concurrent reads


class MemoryBudget:
    """The memory concurrent reads may take together (a server: every upload is read in its own child).

    Each read reserves the memory its child may take (:attr:`Limits.memory_gb`) before it starts, and waits,
    told so (``on_wait``), while the reads already running hold the rest: the sum of what the children may
    take stays under ``total_gb`` however many users upload at once. A read that alone asks for more than
    the total is given the total (its child is capped to it), never refused for waiting.
    """

    def __init__(self, total_gb: float) -> None:
        if not (total_gb > 0):
            raise ValueError(f"the memory budget must be a positive number of GB, got {total_gb!r}")
        self.total_gb = float(total_gb)
        self.used_gb = 0.0
        self.waiting = 0
        self._cond = threading.Condition()

    def share(self, memory_gb: float) -> float:
        """What a read asking for ``memory_gb`` is given: at most the whole budget."""
        return min(float(memory_gb), self.total_gb)

    @contextlib.contextmanager
    def reserve(self, memory_gb: float, on_wait: Callable[[int], None] | None = None, poll: float = 0.5) -> Any:
        """Hold ``memory_gb`` (see :meth:`share`) while the block runs; ``on_wait(reads ahead)`` while it waits."""
        need = self.share(memory_gb)
        with self._cond:
            told = False
            self.waiting += 1
            try:
                while self.used_gb + need > self.total_gb + 1e-9:
                    if on_wait is not None and not told:
                        ahead = self.waiting - 1
                        self._cond.release()  # the caller draws "queued" without holding the others up
                        try:
                            on_wait(ahead)
                        finally:
                            self._cond.acquire()
                        told = True
                        continue
                    self._cond.wait(poll)
            finally:
                self.waiting -= 1
            self.used_gb += need
        try:
            yield need
        finally:
            with self._cond:
                self.used_gb -= need
                self._cond.notify_all()


#: Environment variable of the server-wide budget of concurrent reads, GB (the app reads it).
BUDGET_ENV = "TREECALC_READ_BUDGET_GB"
#: Default budget: two reads at the default 4 GB each at once; a third waits.
DEFAULT_BUDGET_GB = 8.0


def budget_from_env() -> MemoryBudget:
    """A :class:`MemoryBudget` of ``TREECALC_READ_BUDGET_GB`` GB (default :data:`DEFAULT_BUDGET_GB`)."""
    raw = os.environ.get(BUDGET_ENV, "").strip()
    try:
        gb = float(raw) if raw else DEFAULT_BUDGET_GB
    except ValueError:
        raise ValueError(f"{BUDGET_ENV}={raw!r}: give a positive number of GB") from None
    if not (0 < gb < 1e6):
        raise ValueError(f"{BUDGET_ENV}={raw!r}: give a positive number of GB")
    return MemoryBudget(gb)


# ------------------------------------------------------------------ isolation


def _cap(memory_bytes: int) -> int:
    """The address space the child may have: ``memory_bytes``, or less when this process is itself limited."""
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    return memory_bytes if hard == resource.RLIM_INFINITY else min(memory_bytes, hard)


def _child(
    conn: Any, fn: Callable[..., Any], args: tuple, kwargs: dict, memory_bytes: int, settings: dict[str, str]
) -> None:
    """Runs in the child: limit the address space, run ``fn``, send back ("ok", result) or ("error", text)."""
    # the caller's TREECALC_* settings as they are now (the data folder, villages' records, limits): a child of a
    # fork server started earlier would otherwise read the server's, as they were when it started
    for k in [k for k in os.environ if k.startswith("TREECALC_") and k not in settings]:
        del os.environ[k]
    os.environ.update(settings)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (_cap(memory_bytes), resource.getrlimit(resource.RLIMIT_AS)[1]))
    except (ValueError, OSError):
        pass
    try:  # a native reader's abort prints its own backtrace: the parent says what happened instead
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
    except OSError:
        pass

    def progress(f: float, msg: str) -> None:
        conn.send(("progress", (f, msg)))

    try:
        result = fn(*args, progress=progress, **kwargs)
        payload = pickle.dumps(("ok", result), protocol=pickle.HIGHEST_PROTOCOL)
    except AmbiguousActionError as e:  # with the two headers: the app asks which one is the action
        payload = pickle.dumps(("ambiguous", (str(e), e.headers)))
    except SurveyError as e:
        payload = pickle.dumps(("error", str(e)))
    except MissingDataFile as e:  # treecalc's data folder, not the survey, is incomplete: said as such
        payload = pickle.dumps(("data", str(e)))
    except DamagedDataFile as e:  # a data file an edit broke, first read here: the file named, not the survey
        payload = pickle.dumps(("damaged", str(e)))
    except (
        LawSchemaError
    ) as e:  # a law file of the data folder refused when first read here: the law's, not the survey's
        payload = pickle.dumps(("law", str(e)))
    except MemoryError:
        payload = pickle.dumps(("memory", ""))
    except Exception as e:  # noqa: BLE001 - reported to the parent as a refusal, never a traceback
        payload = pickle.dumps(("error", f"could not be read ({type(e).__name__}: {e})"))
    conn.send(("done", time.monotonic()))  # when it finished: the parent may look only later (meanwhile)
    conn.send_bytes(payload)
    conn.close()


def _context() -> Any:
    """fork where the caller has one thread (the command line: fast, no re-import); forkserver otherwise
    (a server such as the app has threads, and forking a threaded process can deadlock the child)."""
    methods = mp.get_all_start_methods()
    if threading.active_count() == 1 and "fork" in methods:
        return mp.get_context("fork")
    if "forkserver" in methods:
        ctx = mp.get_context("forkserver")
        with contextlib.suppress(Exception):  # preload is an optimisation
            ctx.set_forkserver_preload(["treecalc.ingest"])
        return ctx
    return mp.get_context("spawn")


def run_isolated(
    fn: Callable[..., Any],
    args: tuple,
    kwargs: dict,
    *,
    name: str,
    limits: Limits = DEFAULT,
    progress: Callable[[float, str], None] | None = None,
    meanwhile: Callable[[], None] | None = None,
) -> Any:
    """``fn(*args, progress=..., **kwargs)`` in a child process limited to ``limits.memory_gb`` of address
    space and ``limits.seconds`` of time; its :class:`SurveyError` is raised here, and a child that runs
    out of memory, dies (an abort in a native reader) or overruns becomes a SurveyError naming ``name``.
    ``meanwhile()``, if given, runs here while the child works (an error in it is the caller's to meet
    again later: it is not raised here); the time limit counts from the child's start."""
    ctx = _context()
    parent, child = ctx.Pipe(duplex=False)
    memory_bytes = int(limits.memory_gb * 2**30)
    settings = {k: v for k, v in os.environ.items() if k.startswith("TREECALC_")}
    proc = ctx.Process(target=_child, args=(child, fn, args, kwargs, memory_bytes, settings), daemon=True)
    proc.start()
    child.close()
    deadline = time.monotonic() + limits.seconds
    overrun = ReaderStopped(
        f"{name} could not be read: it took longer than {limits.seconds:g} s "
        "(the reader was stopped; raise --limit seconds=N if the survey is this large)"
    )
    payload = None
    try:
        if meanwhile is not None:
            with contextlib.suppress(Exception):
                meanwhile()
        while payload is None:
            left = deadline - time.monotonic()
            if left <= 0 and not parent.poll(0):  # what the child sent while meanwhile() ran is still read
                raise overrun
            if not parent.poll(min(max(left, 0.0), 0.2)):
                if not proc.is_alive() and not parent.poll(0):
                    break
                continue
            try:
                msg = parent.recv_bytes()
            except EOFError:
                break
            kind, value = pickle.loads(msg)
            if kind == "progress":
                if progress is not None:
                    progress(*value)
                continue
            if kind == "done":
                if value > deadline:  # finished after the limit, seen late: an overrun all the same
                    raise overrun
                deadline = float("inf")  # finished in time: its result follows
                continue
            payload = (kind, value)
    finally:
        if proc.is_alive() and payload is None:
            proc.kill()
        proc.join(5)
        parent.close()
    if payload is None or payload[0] == "memory":
        code = proc.exitcode
        died = f" (the reader died: signal {signal.Signals(-code).name})" if code is not None and code < 0 else ""
        raise ReaderStopped(
            f"{name} could not be read: it needs more than {_cap(memory_bytes) / 2**30:.3g} GB of "
            f"memory{died}; "
            "the file is damaged or hostile, or far larger than a survey (raise --limit memory_gb=N "
            "if it really is this large)"
        )
    kind, value = payload
    if kind == "ok":
        return value
    if kind == "data":
        raise MissingDataFile(value)
    if kind == "damaged":
        raise DamagedDataFile(value)
    if kind == "law":
        raise LawSchemaError(value)
    if kind == "ambiguous":
        said, headers = value
        raise AmbiguousActionError(said if said.startswith(name) else f"{name}: {said}", headers)
    raise SurveyError(value if value.startswith(name) else f"{name}: {value}")
