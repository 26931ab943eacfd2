"""Projects: the whole work in one file, and in the URL.

* **Save project** writes one zip: ``project.json`` (the survey's name and SHA-256, the read options —
  column map and site facts —, and every assessment option, species corrections and trees marked
  harmed included) and ``survey/<name>``, the survey's bytes as uploaded.
* **Open project** restores all of it (:func:`read_project`, :func:`apply`).
* The current options also live in the URL's query parameters (``resume``: a random token of this
  session's upload, ``read`` and ``opts``: compact JSON), so a browser reload (a new session) restores
  the work: an upload is kept in this server's memory under that token (:func:`_store`) for
  :func:`resume_hours` after its last use, for the browser that uploaded it only. The token is no
  file's hash: holding a copy of a file tells nothing of whether the server has it. It is no link to
  share either: in another browser it does not open (the only way to share a view is "Share this
  view", :mod:`treecalc.app.links`). The bundled sample needs no keeping, and a session opened from a shared
  link gets no such token at all: it reloads from its link.

Nothing here computes anything: it moves the user's choices in and out.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import secrets
import threading
import time
import zipfile
import zlib
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import streamlit as st

from treecalc.app import links, options, state
from treecalc.ingest import isolated

FORMAT = "treecalc-project"
VERSION = 1
#: uploads kept in memory for reloads, most recent last (bounded: a shared server)
STORE_MAX_FILES, STORE_MAX_MB = 16, 400
#: hours an upload is kept for reloading after its last use (``TREECALC_RESUME_HOURS``)
RESUME_ENV, DEFAULT_RESUME_HOURS = "TREECALC_RESUME_HOURS", 24.0
_RESUME = "tc_resume"  # this session's reload token and the hash of the upload it keeps
_RESTORED = "tc_url_restored"
_NOTE = options.NOTE


class ProjectError(state.AppError):
    """A project file that cannot be opened (said in plain words)."""


def _file_name(name: str) -> str:
    """A survey's name as a plain file name: no folders (``../../x.csv`` would be written back as a zip member
    outside ``survey/`` by Save project), no control characters, at most 120 characters."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    base = "".join(ch for ch in base if ch.isprintable()).strip().lstrip(".")
    return base[-120:] or "survey"


def _member(z: zipfile.ZipFile, name: str) -> bytes:
    """A member's bytes; a damaged or lying member (bad CRC, sizes that do not match, encryption, an unknown
    compression) is a :class:`ProjectError`. Reading stops at the size the zip declares (checked beforehand)."""
    try:
        return z.read(name)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError, OSError) as e:
        raise ProjectError(f"The project file is damaged: {name[:200]} could not be unpacked ({str(e)[:200]}).") from e


@dataclass(frozen=True)
class Project:
    survey_name: str
    survey: bytes | None  # None: the bundled sample
    read_opts: dict[str, Any]
    opts: dict[str, Any]


def _dumps(d: Any) -> str:
    return json.dumps(d, sort_keys=True, separators=(",", ":"), default=str)


def project_bytes(src: state.Source | None, read_opts: dict[str, Any], opts: dict[str, Any]) -> bytes:
    """The project file (a zip) of a survey source and the options."""
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "read_options": read_opts,
        "options": opts,
        "survey": None
        if src is None
        else {"name": src.name, "sha256": src.sha256, "is_sample": src.is_sample, "file": f"survey/{src.name}"},
    }
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("project.json", json.dumps(meta, indent=1, sort_keys=True, default=str))
        if src is not None:
            z.writestr(f"survey/{src.name}", src.data)
    return buf.getvalue()


def read_project(data: bytes, max_mb: float = state.MAX_UPLOAD_MB) -> Project:
    """A :class:`Project` from the bytes of a project file; :class:`ProjectError` says what is wrong."""
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as e:
        raise ProjectError("This is not a treecalc project file (it is not a zip made by Save project).") from e
    with z:
        names = set(z.namelist())
        if "project.json" not in names:
            raise ProjectError("This zip is not a treecalc project: it has no project.json.")
        if sum(i.file_size for i in z.infolist()) > (max_mb + 1) * 2**20:
            raise ProjectError(
                f"The project's survey is larger than {max_mb} MB once unpacked; the app takes surveys "
                f"up to {max_mb} MB."
            )
        try:
            meta = json.loads(_member(z, "project.json"))
        except ValueError as e:
            raise ProjectError(f"project.json could not be read: {str(e)[:200]}") from e
        except RecursionError as e:
            raise ProjectError("project.json could not be read: it is nested thousands of levels deep.") from e
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise ProjectError("project.json is not a treecalc project (no format: treecalc-project).")
        if not isinstance(meta.get("version", 1), int) or isinstance(meta.get("version"), bool):
            raise ProjectError("project.json: its version is not a whole number.")
        if int(meta.get("version") or 0) > VERSION:
            raise ProjectError(
                f"This project was saved by a newer treecalc (version {meta.get('version')}); "
                f"this one reads version {VERSION}."
            )
        read_opts, opts = meta.get("read_options") or {}, meta.get("options") or {}
        if not isinstance(read_opts, dict) or not isinstance(opts, dict):
            raise ProjectError("project.json: read_options and options must be objects.")
        sv = meta.get("survey")
        if not sv:
            return Project("", None, read_opts, opts)
        if not isinstance(sv, dict) or not all(isinstance(sv.get(k, ""), str) for k in ("name", "file", "sha256")):
            raise ProjectError("project.json: the survey entry is not a name, a file in the project and its SHA-256.")
        name, member = _file_name(sv.get("name") or "survey"), sv.get("file") or ""
        if member not in names:
            raise ProjectError(f"The project names the survey {member[:200]!r}, which is not in the file.")
        blob = _member(z, member)

    if sv.get("sha256") and hashlib.sha256(blob).hexdigest() != sv["sha256"]:
        raise ProjectError(
            f"The survey {name} in the project does not match its recorded SHA-256: the file was altered or damaged."
        )
    return Project(name, None if sv.get("is_sample") else blob, read_opts, opts)


def open_project(data: bytes) -> Project:
    """:func:`read_project` (unpacking a zip a stranger made) in the bounded child of :mod:`treecalc.ingest.isolated`:
    a project that blows up the unpacking costs its uploader a message, not the server's other sessions."""
    return isolated.run(read_project, data, what="The project file")


def _clear_widgets() -> None:
    """Forget widget values so that every control is drawn again from the restored options."""
    for k in list(st.session_state.keys()):
        if str(k).startswith("w_") and k not in ("w_upload", "w_project_open"):
            del st.session_state[k]


def apply(p: Project) -> None:
    """Make the project the session's work: its survey, read options and options."""
    if p.survey is None:
        state.use_sample()
    else:
        state.set_source(p.survey_name, p.survey)
    options.take(p.read_opts, p.opts, "The project")
    _clear_widgets()


# --- uploads kept for reloads ----------------------------------------------------------


def resume_hours() -> float:
    """Hours an upload is kept for reloading after its last use: ``TREECALC_RESUME_HOURS`` (more than 0, at
    most 720), else :data:`DEFAULT_RESUME_HOURS`."""
    raw = os.environ.get(RESUME_ENV, "").strip()
    try:
        hours = float(raw) if raw else DEFAULT_RESUME_HOURS
    except ValueError:
        hours = DEFAULT_RESUME_HOURS
    return hours if 0 < hours <= 720 else DEFAULT_RESUME_HOURS


@dataclass
class _Kept:
    src: state.Source
    browser: str | None  # the hash of the uploading browser's own cookie token (None: none was sent)
    until: float  # time.time() after which the upload is forgotten


@st.cache_resource(show_spinner=False)
def _store() -> tuple[OrderedDict[str, _Kept], threading.Lock]:
    return OrderedDict(), threading.Lock()


def _xsrf_token(raw: str) -> bytes:
    """The token of Streamlit's XSRF cookie (``2|mask|masked token|time``, the format of Tornado and of
    Streamlit's Starlette server): the mask changes at each page load, the token stays for the browser."""
    parts = raw.split("|")
    if len(parts) == 4 and parts[0] == "2":
        try:
            mask, masked = bytes.fromhex(parts[1]), bytes.fromhex(parts[2])
        except ValueError:
            return raw.encode("utf-8", "replace")
        if mask:
            return bytes(b ^ mask[i % len(mask)] for i, b in enumerate(masked))
    return raw.encode("utf-8", "replace")


def browser_key() -> str | None:
    """This browser's own key: the SHA-256 of the token of the XSRF cookie Streamlit gives each browser (sent
    with every session it opens, never put in an address). None when no such cookie was sent (XSRF
    protection turned off, or a test harness)."""
    try:
        raw = st.context.cookies.get("_streamlit_xsrf")
    except Exception:  # no browser behind this run
        return None
    if not raw or not isinstance(raw, str):  # (a test harness's stand-in client answers with other objects)
        return None
    return hashlib.sha256(b"treecalc resume\0" + _xsrf_token(raw)).hexdigest()


def _forget_expired(files: OrderedDict[str, _Kept]) -> None:
    now = time.time()
    for token in [t for t, k in files.items() if k.until <= now]:
        del files[token]


def _keep_for_reload(src: state.Source | None) -> str | None:
    """Keep this session's upload for reloading; its token (a new one for each new upload). The upload it kept
    before is forgotten at once."""
    mine = st.session_state.get(_RESUME)
    if src is None or src.is_sample:
        if mine:
            files, lock = _store()
            with lock:
                files.pop(mine[0], None)
            st.session_state.pop(_RESUME, None)
        return None
    files, lock = _store()
    with lock:
        _forget_expired(files)
        if mine and mine[1] == src.sha256 and mine[0] in files:
            token, kept = mine[0], files[mine[0]]
            kept.until = time.time() + resume_hours() * 3600
        else:
            if mine:
                files.pop(mine[0], None)
            token = secrets.token_urlsafe(18)
            kept = _Kept(src, browser_key(), time.time() + resume_hours() * 3600)
        files[token] = kept
        files.move_to_end(token)
        while len(files) > STORE_MAX_FILES or sum(len(k.src.data) for k in files.values()) > STORE_MAX_MB * 2**20:
            files.popitem(last=False)
    st.session_state[_RESUME] = (token, src.sha256)
    return token


def _kept(token: str) -> tuple[state.Source | None, str | None]:
    """The upload a reload token keeps, or why it does not open here."""
    files, lock = _store()
    with lock:
        _forget_expired(files)
        kept = files.get(token)
    hours = f"{resume_hours():g}"
    if kept is None:
        return None, (
            "This reload address is not known to this server, or it has expired: an upload is kept in the "
            f"server's memory for {hours} hours after its last use, and not across a restart of the server. "
            "Its options are kept; upload the survey again or open the project file."
        )
    if kept.browser is not None and kept.browser != browser_key():
        return None, (
            "This address reloads a session of another browser; it is not a shared link and does not open here. "
            'Ask whoever sent it for a link made with "Share this view". Its options are kept.'
        )
    return kept.src, None


# --- the URL's query parameters ---------------------------------------------------------

_URL_KEYS = ("resume", "read", "opts")


def url_params(
    src: state.Source | None, read_opts: dict[str, Any], opts: dict[str, Any], resume: str | None = None
) -> dict[str, str]:
    """The query parameters of a view: ``resume`` (the reload token of an upload), ``read`` and ``opts``
    (JSON). No file's hash: an address tells nothing of the file."""
    out = {}
    if src is not None and not src.is_sample and resume:
        out["resume"] = resume
    if read_opts:
        out["read"] = _dumps(read_opts)
    if opts:
        out["opts"] = _dumps(opts)
    return out


def restore_from_url() -> None:
    """Once per session (a new tab, a link or a reload): take the survey and options from the URL."""
    if st.session_state.get(_RESTORED):
        return
    st.session_state[_RESTORED] = True
    q = st.query_params
    if not any(k in q for k in ("survey", *_URL_KEYS)):
        return
    try:
        read_opts = json.loads(q.get("read") or "{}")
        opts = json.loads(q.get("opts") or "{}")
        if not isinstance(read_opts, dict) or not isinstance(opts, dict):
            raise ValueError("not objects")
    except (ValueError, RecursionError):  # RecursionError: JSON nested thousands deep
        st.session_state[_NOTE] = "The link's options could not be read; the app starts afresh."
        return

    if q.get("survey") and not q.get("resume"):
        # an address of an older version, by the file's hash: never looked up (the answer would tell whether
        # the server holds a file), said in the main area, its options kept and no other survey shown
        links.not_held(
            "This address names a survey by its file's hash, which this server no longer opens: a view is "
            'shared with "Share this view". Its options are kept; upload the survey again or open the project file.'
        )
    elif token := q.get("resume"):
        src, why = _kept(token)
        if src is None:
            links.not_held(str(why))
        else:
            state.set_source(src.name, src.data)
            st.session_state[_RESUME] = (token, src.sha256)  # the same address goes on reloading it
    options.take(read_opts, opts, "The link")


def sync_url() -> None:
    """Write the current survey's reload token and the options to the URL (only when they changed)."""
    src = state.source()
    # a session opened from a shared link is a link session for its whole life: its address keeps the link (a
    # reload opens the link again, so that its expiry and revocation hold) and it never gets a reload token of
    # its own (one would reopen the link's survey without the link)
    link = links.session_link()
    resume = None if link is not None else _keep_for_reload(src)
    want = url_params(src, state.read_opts(), state.opts(), resume)
    keys: tuple[str, ...] = _URL_KEYS
    if link is not None:
        want["link"] = link
        keys = ("link", *_URL_KEYS)
    have = {k: st.query_params.get(k) for k in keys if k in st.query_params}
    if "survey" in st.query_params:
        del st.query_params["survey"]
    if want != have:
        for k in keys:
            if k in want:
                st.query_params[k] = want[k]
            elif k in st.query_params:
                del st.query_params[k]


@st.cache_data(show_spinner=False, max_entries=4)
def _project_file(sha256: str, read_json: str, opts_json: str, _src: state.Source | None) -> bytes:
    return project_bytes(_src, json.loads(read_json), json.loads(opts_json))


def project_file(src: state.Source | None) -> bytes:
    """The project file of this session's survey and options: cached on this session's upload and its name, not
    on the bytes' hash alone (another user's upload of the same bytes under another name got this one's file
    name in its project)."""
    key = f"{state.cache_key(src)}/{src.name}" if src else ""
    return _project_file(key, _dumps(state.read_opts()), _dumps(state.opts()), src)


def sidebar() -> None:
    """Save project / Open project, in the sidebar."""
    if note := st.session_state.pop(_NOTE, None):
        st.warning(note)
    with st.expander("Project", icon=":material/folder_open:"):
        src = state.source()
        stem = (src.name.rsplit(".", 1)[0] if src else "survey").replace(" ", "_")

        if not links.download_allowed():  # a shared view whose sharer kept the original file back
            src = None
        data = project_file(src)
        st.download_button(
            "Save project",
            data=data,
            file_name=f"{stem}.treecalc.zip",
            mime="application/zip",
            key="w_project_save",
            on_click="ignore",
            icon=":material/save:",
            help="One file with the survey, the column map, species corrections, site facts and "
            "every option. Open it here later to carry on.",
        )
        up = st.file_uploader(
            "Open project",
            type=["zip"],
            key="w_project_open",
            help="A file saved with Save project: restores the survey and everything chosen.",
        )
        if up is not None and st.session_state.get("tc_project_id") != up.file_id:
            st.session_state["tc_project_id"] = up.file_id
            try:
                apply(open_project(up.getvalue()))
            except (state.AppError, ValueError) as e:
                st.session_state["tc_project_error"] = str(e)
            else:
                st.session_state.pop("tc_project_error", None)
                st.session_state["tc_project_opened"] = up.name
                st.rerun()
        if err := st.session_state.get("tc_project_error"):
            st.error(err)
        elif name := st.session_state.get("tc_project_opened"):
            st.caption(f"Opened {name}.")
