"""What the user has chosen, kept across pages, and the cached library calls.

The session holds three things:

* the **survey source**: file name, bytes and their SHA-256 (the bundled
  sample until something is uploaded);
* the **read options** passed to ``read_survey`` (a corrected column map,
  edited site facts);
* the **assessment options** passed to ``assess`` (value basis,
  replacement stock, violation facts, fee schedule, benefit parameters).

``read_survey`` is cached on (file hash, read options) and ``assess`` on
(file hash, read options, assessment options), so changing a replacement
species re-runs only ``assess``: the survey is not read again. Widgets keep
their own ``w_*`` keys; their values are copied into the option dicts, which
are plain session-state entries and so survive page switches.
"""

from __future__ import annotations

import contextvars
import copy
import dataclasses
import datetime as dt
import hashlib
import io
import json
import os
import secrets
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePath
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

import streamlit as st

from treecalc.ingest import AmbiguousActionError, NoTreeReadError, isolated
from treecalc.ingest import require_trees as refuse
from treecalc.ingest.errors import ReaderStopped, SurveyError
from treecalc.ingest.limits import Limits, budget_from_env
from treecalc.ingest.sources import list_layers
from treecalc.ingest.sources.gis import GIS_EXTENSIONS
from treecalc.messages import speaking

if TYPE_CHECKING:
    from treecalc.assessment import Assessment

#: Largest upload the app accepts, MB (the same as ``.streamlit/config.toml``).
MAX_UPLOAD_MB = 50

#: spreadsheets, then GIS layers of points (a Shapefile as a .zip of its parts: treecalc.ingest.sources.gis)
SURVEY_TYPES = ["xlsx", "xlsm", "xls", "ods", "csv", "tsv", "txt", "gpkg", "zip", "geojson", "fgb", "kml"]

_SOURCE = "tc_source"
_READ = "tc_read_opts"
_OPTS = "tc_opts"
_MEMO_ASSESS = "tc_memo_assessment"
_MEMO_SURVEY = "tc_memo_survey"
#: The refusal of this session's upload read last with these options: each page asks for the survey several times
#: a run, and an error is not cached by ``st.cache_data``, so a broken file was read again (a child process each)
#: three times on every page. Only the file's own refusal is kept (a stop at the reader's time or memory limit, or a
#: fault of the data folder or the server, may be gone on a retry).
_MEMO_REFUSED = "tc_memo_refused"
#: set when a link's survey could not be opened: show no survey rather than the bundled sample's figures
NO_SAMPLE = "tc_no_sample"
_SESSION = "tc_session_key"  # this session's own key in the caches (cache_key)


class AppError(Exception):
    """A problem the user can fix; shown as a message, never a traceback. The library's keywords in it
    (``‹zone›``, treecalc.messages) are said as the app's controls."""

    def __str__(self) -> str:
        from treecalc.app.wording import readable  # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs

        return readable(super().__str__())


class ActionChoice(AppError):
    """Two columns could each be the trees' action and disagree: the page asks which one is (``headers``) before
    any figure is shown (:func:`treecalc.app.ui.ask_action`)."""

    def __init__(self, message: str, headers: tuple[str, ...]) -> None:
        super().__init__(message)
        self.headers = tuple(headers)


@dataclass(frozen=True)
class Source:
    name: str
    data: bytes
    sha256: str
    is_sample: bool

    @property
    def size_mb(self) -> float:
        return len(self.data) / 2**20


def make_source(name: str, data: bytes, is_sample: bool = False) -> Source:
    return Source(name, data, hashlib.sha256(data).hexdigest(), is_sample)


def _sample_source() -> Source | None:
    from treecalc.reference import data  # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs

    path = Path(data.SAMPLE_SURVEY)
    if not path.is_file():
        return None
    return _read_sample(str(path), path.stat().st_mtime_ns)


@st.cache_data(show_spinner=False, max_entries=2)
def _read_sample(path: str, mtime_ns: int) -> Source:  # mtime in the key: a regenerated sample is re-read
    p = Path(path)
    return make_source(p.name, p.read_bytes(), is_sample=True)


# --- survey source -----------------------------------------------------------


def source() -> Source | None:
    """The survey the app shows: the upload, else the bundled sample."""
    src = st.session_state.get(_SOURCE)
    if src is None and not st.session_state.get(NO_SAMPLE):
        src = _sample_source()
    return src


def current() -> Source:
    """:func:`source`, or :class:`AppError` saying there is none (what every page that reads the survey says)."""
    src = source()
    if src is None:
        raise AppError("No survey yet: upload one on the Survey page (the bundled sample is not there yet).")
    return src


def set_source(name: str, data: bytes) -> Source:
    if len(data) > MAX_UPLOAD_MB * 2**20:
        raise AppError(
            f"{name} is {len(data) / 2**20:.1f} MB; the app takes files up to {MAX_UPLOAD_MB} MB. "
            "Split the survey, or run it from the command line: treecalc assess FILE."
        )
    if not data:
        raise AppError(f"{name} is empty.")
    src = make_source(name, data)
    st.session_state.pop(NO_SAMPLE, None)
    if st.session_state.get(_SOURCE) != src:
        st.session_state[_SOURCE] = src
        st.session_state[_READ] = {}  # a new file: its own column map
        for k in EDIT_KEYS:  # ... and its own corrections
            opts().pop(k, None)
    return src


def gis_layers(src: Source) -> list[tuple[str, str]]:
    """The layers (name, geometry type) of a GIS upload, listed in the bounded child (a hostile file costs a
    message); [] for a spreadsheet, or for a file that cannot be listed (its read says why)."""
    if PurePath(src.name).suffix.lower() not in (*GIS_EXTENSIONS, ".zip"):
        return []
    memo = st.session_state.get("tc_gis_layers")
    if memo is not None and memo[0] == src.sha256:
        return memo[1]

    try:
        layers = isolated.run(list_layers, src.data, src.name, MAX_UPLOAD_MB * 2**20, what=src.name)
    except ValueError:
        layers = []
    st.session_state["tc_gis_layers"] = (src.sha256, layers)
    return layers


def use_sample() -> None:
    st.session_state.pop(_SOURCE, None)
    st.session_state.pop(NO_SAMPLE, None)
    st.session_state[_READ] = {}
    for k in EDIT_KEYS:
        opts().pop(k, None)


# --- options -------------------------------------------------------------------


def read_opts() -> dict[str, Any]:
    return st.session_state.setdefault(_READ, {})


def read_key() -> str:
    """The read options as a cache key, with the climate zone the Benefits page chose (the survey is read in
    it: the species that zone lists are accepted)."""
    ro = dict(read_opts())
    zone = (opt("benefit", {}) or {}).get("zone")
    if zone:
        ro["zone"] = zone
    return _canon(ro)


def opts() -> dict[str, Any]:
    return st.session_state.setdefault(_OPTS, {})


def opt(name: str, default: Any = None) -> Any:
    return opts().get(name, default)


def set_opt(name: str, value: Any) -> None:
    """Set an assessment option; ``None`` removes it (the library's default)."""
    if value is None or value == {} or value == []:
        opts().pop(name, None)
    else:
        opts()[name] = value


def _canon(d: dict[str, Any]) -> str:
    return json.dumps(d, sort_keys=True, default=str)


# --- cached library calls ------------------------------------------------------


@st.cache_resource(show_spinner=False)
def read_budget() -> Any:
    """The server's budget of memory for the reads running at once (``TREECALC_READ_BUDGET_GB``): the survey
    reads and the companions' parses (:func:`treecalc.ingest.isolated.use_budget`) share it."""
    budget = budget_from_env()
    isolated.use_budget(budget)
    return budget


def cache_key(src: Source) -> str:
    """The key of an upload in the caches: its hash *and this session*. An upload, its name and what is made
    of it belong to the session that uploaded it: another user's upload of the same bytes is read again (a
    cached answer would carry the first user's file name, and its speed would tell that the server has the
    file). The bundled sample is everyone's: it is shared."""
    return src.sha256 if src.is_sample else session_scoped(src.sha256)


def session_scoped(sha256: str) -> str:
    """An upload's hash as a cache key of this session only (see :func:`cache_key`)."""
    sid = st.session_state.setdefault(_SESSION, secrets.token_hex(16))
    return f"{sid}:{sha256}"


@st.cache_data(show_spinner=False, max_entries=8)
def _read_survey(sha256: str, name: str, read_json: str, _data: bytes, _progress: Any = None) -> Any:
    """``read_survey`` on the file (cached on its key (:func:`cache_key`) + the read options), in the climate
    zone chosen on the Benefits page, else the site fact's or the coordinates' (as ``treecalc assess`` reads):
    a species only that zone lists (crape myrtle in PiedmtCLT) is read there, not rejected."""
    # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs
    from treecalc.ingest.zone import read_survey_in_zone

    limits = Limits.from_env()

    def queued(ahead: int) -> None:
        if _progress is not None:
            _progress(0.0, f"queued: {ahead + 1} other read(s) hold the server's memory for reading; this one waits")

    # isolated: read in a child process bounded in memory and time, so that a hostile upload (a 1.7 KB
    # workbook that makes the native reader abort) costs its uploader a message, not every session the server;
    # the children together stay within the server's budget (read_budget): a read beyond it waits its turn
    kw = json.loads(read_json)
    with read_budget().reserve(limits.memory_gb, on_wait=queued) as memory_gb:
        return read_survey_in_zone(
            io.BytesIO(_data),
            kw.pop("zone", None),
            filename=name,
            max_bytes=MAX_UPLOAD_MB * 2**20,
            progress=_progress,
            isolated=True,
            limits=limits.with_(memory_gb=memory_gb),
            **kw,
        )


def survey(progress: Callable[[float, str], None] | None = None, *, empty_ok: bool = False) -> Any:
    """The :class:`Survey` of the current source (raises :class:`AppError`; :class:`ActionChoice` when two columns
    could each be the action). A survey of which no tree could be read is refused as an assessment of it is
    (:func:`treecalc.ingest.require_trees`), but with ``empty_ok`` (the Survey page: its rejected rows say why).

    ``progress(fraction, message)`` is called while a file is read (a cache
    miss only). It runs outside the cache's element recording, so a progress
    bar drawn by it is not replayed on later cache hits.
    """
    sv = _survey(progress)
    if not empty_ok:
        require_trees(sv)
    return sv


def last_survey() -> Any:
    """The survey this session read last (None before any): what the navigation names its law by, known before a
    page runs without reading a file again (a large one is read by its page, with its progress bar)."""
    memo = st.session_state.get(_MEMO_SURVEY)
    return memo[1] if memo is not None else None


def require_trees(sv: Any) -> None:
    """:class:`AppError` for a survey of which no tree could be read, in the library's words."""
    try:
        refuse(sv)
    except NoTreeReadError as e:
        said = str(e)
        raise AppError(f"{said[:1].upper()}{said[1:]} (the Survey page lists every row and why it was rejected)") from e


def _survey(progress: Callable[[float, str], None] | None = None) -> Any:
    src = current()
    cb = None
    if progress is not None:
        outside = contextvars.copy_context()  # taken here, outside the cached call

        def cb(f: float, msg: str) -> None:
            outside.copy().run(progress, f, msg)

    key = (cache_key(src), src.name, read_key())
    memo = st.session_state.get(_MEMO_SURVEY)
    if memo is not None and memo[0] == key:
        return memo[1]  # this session's survey: not another unpickled copy of the cached one
    refused = st.session_state.get(_MEMO_REFUSED)
    if refused is not None and refused[0] == key:
        raise refused[1](*refused[2])  # the same words as the first refusal, with no second read
    try:
        sv = _read_survey(*key, src.data, cb)
        st.session_state[_MEMO_SURVEY] = (key, sv)
        return sv
    except AppError:
        raise
    except Exception as e:  # the reader's own messages are written for people
        said = str(e)  # the reader's message names the file already ("X could not be read: ..."): said once
        kind, args = (
            (ActionChoice, (said, e.headers))
            if isinstance(e, AmbiguousActionError)
            else (AppError, (said if said.startswith(src.name) else f"{src.name} could not be read: {said}",))
        )
        # only the file's own refusal is kept: a stop at a limit, a data folder's fault or the server's (memory,
        # a file system) may be gone on the next run
        if isinstance(e, SurveyError) and not isinstance(e, ReaderStopped):
            st.session_state[_MEMO_REFUSED] = (key, kind, args)
        raise kind(*args) from e


#: Options that edit the survey's trees before ``assess`` (user input, like editing the spreadsheet).
EDIT_KEYS = ("actions", "species_fix", "tree_facts")


def edited_survey(sv: Any, edits: dict[str, Any]) -> Any:
    """The survey with the user's corrections: ``actions`` {tag: action} (trees found removed or
    damaged, or kept off the removals), ``tree_facts`` {tag: {column: value}} (a tree's facts changed in
    the tree table) and ``species_fix`` {source_row: species code} (a species match the user corrected).
    Each changed action and fact is said in the survey's warnings ("changed in the app")."""
    from treecalc.app import tree_facts  # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs

    actions, fixes, facts = edits.get("actions"), edits.get("species_fix"), edits.get("tree_facts")
    if not actions and not fixes and not facts:
        return sv
    trees, changes = tree_facts.apply(sv.trees, actions, facts)
    if fixes:
        rows = trees["source_row"].astype(str)
        for row, code in fixes.items():
            sel = rows == str(row)
            trees.loc[sel, "species_code"] = code
            trees.loc[sel, "species_method"] = "corrected by the user"
            trees.loc[sel, "species_score"] = 100.0
    return dataclasses.replace(sv, trees=trees, warnings=[*(sv.warnings or []), *changes])


def village_schedule() -> dict[str, Any] | None:
    """The Village's fee schedule in force today as the register holds it (§208-24C, recorded by the Engineer), or
    None where the register holds none (the data folder's schedule is then charged, its placeholder said)."""
    from treecalc.register import Register, db, fees  # heavy: sqlalchemy, loaded only when this runs

    if not os.environ.get(db.ENV) and not db.default_path().is_file():
        return None  # no register configured nor made yet: nothing recorded (and none made just to read a fee)
    try:  # the register the Cases page opens (its engine is made once per database)
        return fees.in_force(Register(os.environ.get(db.ENV) or None), dt.date.today())
    except Exception as e:  # a bad URL, a server down: the fee is not guessed, the page says why
        from treecalc.app.wording import readable  # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs

        raise AppError(f"The Village's fee schedule could not be read from the register: {readable(str(e))}") from e


def outside_fee_schedule() -> str | None:
    """A sentence when the session's options carry a fee schedule (from a link, a project or an address) that
    charges otherwise than the Village's: it is kept with the options, never charged (:func:`assess_kwargs`)."""
    given = opts().get("fee_schedule")
    if not given:
        return None

    # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs
    from treecalc.rules.croton_on_hudson.schedule import not_in_force

    try:
        said = not_in_force(given, None, village_schedule(), dt.date.today())
    except Exception:  # noqa: BLE001 - a schedule that does not read is not charged either: said as such
        said = ["the fee schedule these options carry does not read"]
    if not said:
        return None
    return (
        f"{said[0].split(': these figures')[0].replace('(‹fee_schedule›) ', '')}. It came with these options "
        "(a link, a project or the address) and is not used: every figure here charges the Village's fee schedule "
        "in force."
    )


def assess_kwargs() -> dict[str, Any]:
    """The keyword arguments of ``assess`` for the current options. The fee is always the Village's schedule in
    force (the register's, else the data folder's): a schedule among the options (a link's, a project's, an
    address's) is never charged, whatever label it carries (:func:`outside_fee_schedule` says so)."""
    o = copy.deepcopy(opts())
    kw: dict[str, Any] = {}
    for k, v in o.items():
        if k == "benefit":
            kw.update({bk: bv for bk, bv in v.items() if bv not in (None, {}, "")})
        elif k.startswith("_") or k == "fee_schedule":
            continue  # app-only bookkeeping; a fee schedule from outside the register
        else:
            kw[k] = v
    village = village_schedule()
    if village is not None:
        kw["fee_schedule_in_force"] = village
    return kw


@st.cache_resource(show_spinner=False, max_entries=16)
def _assess(sha256: str, name: str, read_json: str, opts_json: str, _data: bytes, _survey: Any = None) -> Any:
    """``assess`` cached on survey + options. A resource, not data: a 20,000-tree assessment is 10 MB,
    and pickling it in and out of ``st.cache_data`` cost a fifth of a second per option change. The
    object is shared by the sessions that ask for the same survey and options: the app only reads it."""
    from treecalc.assessment import assess  # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs

    kw = json.loads(opts_json)
    edits = {k: kw.pop(k, None) for k in EDIT_KEYS}
    sv = _survey if _survey is not None else _read_survey(sha256, name, read_json, _data)
    result = assess(edited_survey(sv, edits), **kw)
    if not any(edits.values()):  # corrections made on screen are not in the file: no fingerprint claims they are
        from treecalc.report.fingerprint import attach  # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs

        attach(result, _data, {**kw, "read": json.loads(read_json)}, survey_name=name)
    return result


def _memo(name: str, key: tuple, make: Callable[[], Any]) -> Any:
    """The session's last result of ``make`` for ``key``: one object per rerun, not a fresh unpickled copy of
    the cached one at every call (a 20,000-tree assessment is 10 MB). Callers only read it."""
    memo = st.session_state.get(name)
    if memo is not None and memo[0] == key:
        return memo[1]
    value = make()
    st.session_state[name] = (key, value)
    return value


def assessment() -> Assessment:
    """``assess`` of the current survey and options (raises :class:`AppError`)."""
    src = current()
    key = (cache_key(src), src.name, read_key(), _canon(assess_kwargs()))
    memo = st.session_state.get(_MEMO_ASSESS)
    if memo is not None and memo[0] == key:
        return memo[1]
    sv = survey()  # read errors first, with their own message
    try:
        return _memo(_MEMO_ASSESS, key, lambda: _assess(key[0], key[1], key[2], key[3], src.data, sv))
    except AppError:
        raise
    except Exception as e:
        raise AppError(f"The assessment could not be made: {e}") from e


@st.cache_data(show_spinner=False, max_entries=4)
def _statement(sha256: str, name: str, read_json: str, opts_json: str, _data: bytes) -> bytes:
    from treecalc.app.wording import readable  # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs

    # heavy: pandas, numpy, xlsxwriter, ..., loaded only when this runs
    from treecalc.report.statement import statement_bytes

    with speaking("app", readable):  # the statement's notes name the app's controls, not keywords
        return statement_bytes(_assess(sha256, name, read_json, opts_json, _data))


def statement() -> bytes:
    """The Excel statement of the current assessment, as bytes."""
    return statement_job()()


def statement_job() -> Callable[[], bytes]:
    """A call that makes the Excel statement of the survey and options *as they are now*.

    A download button's deferred ``data`` runs when the user clicks, in the server's
    request thread, outside the session: ``st.session_state`` is not there and
    :func:`source` would fall back to the bundled sample. So the survey and the
    options are taken here, in the script run, and the call only uses what it was given
    (the statement is cached on survey + options like the assessment).
    """
    src = source()
    if src is None:
        raise AppError("No survey yet: upload one on the Survey page.")
    key = (cache_key(src), src.name, read_key(), _canon(assess_kwargs()))
    data = src.data

    def job() -> bytes:
        return _statement(*key, data)

    return job


@st.cache_data(show_spinner=False, max_entries=8)
def _benefits(sha256: str, name: str, read_json: str, benefit_json: str, edits_json: str, _data: bytes) -> Any:
    # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs
    from treecalc.models.benefits import compute_benefits

    sv = edited_survey(_read_survey(sha256, name, read_json, _data), json.loads(edits_json))
    trees = sv.trees
    kw = {k: v for k, v in json.loads(benefit_json).items() if v not in (None, {}, "")}
    if trees.empty:
        return trees.iloc[:0]
    found = survey_zone(sv, kw.get("zone"))
    kw["zone"] = found.zone  # the zone chosen, else the site fact or the coordinates'
    if found.per_tree is not None:  # trees in several zones: each valued in its own, as assess() does
        return compute_benefits(trees.assign(zone=found.per_tree.reindex(trees.index).to_numpy(object)), **kw)
    if kw["zone"] == "NoEastXXX" and not json.loads(benefit_json).get("zone"):
        del kw["zone"]  # the Northeast found by default or from coordinates: its own tables, as assess() does
    return compute_benefits(trees, **kw)


def survey_zone(sv: Any, zone: str | None = None) -> Any:
    """The climate zone of a survey (:func:`treecalc.ingest.zone.survey_zone`): chosen, site fact, coordinates."""
    # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs
    from treecalc.models.benefits import survey_zone as found

    return found(sv.trees, getattr(sv, "site", None), zone or None)


def benefits() -> Any:
    """``compute_benefits`` of the survey's trees with the sidebar parameters."""
    src = current()
    survey()
    try:
        return _benefits(
            cache_key(src),
            src.name,
            read_key(),
            _canon(opt("benefit", {})),
            _canon({k: opt(k) for k in EDIT_KEYS}),
            src.data,
        )
    except AppError:
        raise
    except Exception as e:
        raise AppError(f"The benefits could not be computed: {e}") from e


def tmp_upload(name: str, data: bytes) -> str:
    """Write an uploaded companion file (a grid) to a temp path and return it."""
    fd, path = tempfile.mkstemp(prefix="treecalc-app-", suffix=Path(name).suffix)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    return path


@st.cache_data(show_spinner=False, max_entries=16)
def _projection_part(trees: Any, params_json: str, years: int) -> Any:
    """``treecalc.models.projection.projection`` of some trees (``counted``) or of a plan, alone.

    The page's projection is two series that change apart: the trees removed (they change with the
    survey and the violation facts) and the planting plan (it changes with the replacement species).
    Cached on each one's own input (``st.cache_data`` hashes the frame), a species change recomputes
    only the plan's series.
    """
    # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs
    from treecalc.models.projection import projection as _proj

    trees, plan = trees
    view = SimpleNamespace(
        options={"benefit_parameters": json.loads(params_json)}, trees=trees, replacement=SimpleNamespace(plan=plan)
    )
    # projection reads an assessment's options, trees and replacement plan only: one series is those alone
    return _proj(cast("Assessment", view), years)


def projection(a: Any = None, years: int = 20) -> Any:
    """Annual benefits, year by year, of the trees removed and of the planting plan."""
    import pandas as pd  # heavy: pandas, loaded only when this runs

    a = assessment() if a is None else a
    params = _canon(dict(a.options.get("benefit_parameters") or {}))
    trees = a.trees
    cols = [c for c in ("species_code", "dbh_in", "benefit_land_use") if c in trees]
    counted = (
        trees.loc[trees["counted"].astype(bool), cols].reset_index(drop=True).assign(counted=True)
        if "counted" in trees
        else trees.iloc[:0]
    )
    plan = [{k: p[k] for k in ("species_code", "dbh_in", "count")} for p in (a.replacement.plan or [])]
    removed = _projection_part((counted, []), params, years)
    planted = _projection_part((counted.iloc[:0], plan), params, years)
    return pd.concat([removed, planted], ignore_index=True)


#: The plans made, newest last (at most :data:`_PLANS_KEPT`), on survey (:func:`cache_key`: an upload's are its
#: session's) + options + budget. Not ``st.cache_resource``:
#: the plan tells the page its progress as it goes, and an element drawn inside a cached function is recorded
#: to be drawn again from the cache, where the page's progress bar no longer exists.
_PLANS: dict[tuple[Any, ...], Any] = {}
_PLANS_KEPT = 4


def _plan(key: tuple[Any, ...], data: bytes, progress: Callable[[int, int], None] | None = None) -> Any:
    """``treecalc.studies.plan.plan`` kept on survey + options + budget (each candidate a full assessment);
    ``progress(done, of)`` is told as the plan goes (it may raise to stop it: nothing is then kept)."""
    # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs
    from treecalc.studies.plan import plan as _make_plan

    if key in _PLANS:
        return _PLANS[key]
    sha256, name, read_json, opts_json, budget = key
    kw = json.loads(opts_json)
    edits = {k: kw.pop(k, None) for k in EDIT_KEYS}
    sv = _read_survey(sha256, name, read_json, data)
    made = _make_plan(edited_survey(sv, edits), budget_usd=budget, progress=progress, **kw)
    _PLANS[key] = made
    while len(_PLANS) > _PLANS_KEPT:
        _PLANS.pop(next(iter(_PLANS)))
    return made


@st.cache_data(show_spinner=False, max_entries=8)
def _keep_limits(sha256: str, name: str, read_json: str, opts_json: str, _data: bytes) -> Any:
    """``treecalc.studies.plan.keep_limits`` cached on survey + options (a tree the replacement does not count is assessed
    kept, one assessment each)."""
    # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs
    from treecalc.studies.plan import keep_limits as _limits

    kw = json.loads(opts_json)
    edits = {k: kw.pop(k, None) for k in EDIT_KEYS}
    return _limits(edited_survey(_read_survey(sha256, name, read_json, _data), edits), **kw)


def keep_limits() -> Any:
    """Which proposed removals of the current survey and options cannot be kept, or change nothing kept
    (:func:`treecalc.studies.plan.keep_limits`; raises :class:`AppError`)."""
    src = source()
    if src is None:
        raise AppError("No survey yet: upload one on the Survey page.")
    try:
        return _keep_limits(cache_key(src), src.name, read_key(), _canon(assess_kwargs()), src.data)
    except ValueError as e:
        raise AppError(str(e)) from e


def plan(budget: float | None = None, progress: Callable[[int, int], None] | None = None) -> Any:
    """The cheapest lawful plan of the current survey and options (raises :class:`AppError`); ``progress(done, of)``
    is told as it goes (:func:`treecalc.studies.plan.plan`)."""
    src = source()
    if src is None:
        raise AppError("No survey yet: upload one on the Survey page.")
    try:
        return _plan((cache_key(src), src.name, read_key(), _canon(assess_kwargs()), budget), src.data, progress)
    except ValueError as e:  # the plan's own refusal (too many optional removals) is written for people
        raise AppError(str(e)) from e
