"""Projects: the whole work in one file, and in the URL.

* **Save project** writes one zip: ``project.json`` (the survey's name and SHA-256, the read options —
  column map and site facts —, and every assessment option, species corrections and trees marked
  harmed included) and ``survey/<name>``, the survey's bytes as uploaded.
* **Open project** restores all of it (:func:`read_project`, :func:`apply`).
* The current options also live in the URL's query parameters (``survey``: the file's SHA-256,
  ``read`` and ``opts``: compact JSON), so a link reproduces a view and a browser reload
  (a new session) restores the work: an uploaded survey is kept in this server's memory under its
  hash (:func:`_store`), the bundled sample needs no keeping.

Nothing here computes anything: it moves the user's choices in and out.
"""

from __future__ import annotations

import io
import json
import threading
import zipfile
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import streamlit as st

from app_support import state

FORMAT = "treecalc-project"
VERSION = 1
#: surveys kept in memory for reloads and links, most recent last (bounded: a shared server)
STORE_MAX_FILES, STORE_MAX_MB = 16, 400
_RESTORED = "tc_url_restored"
_NOTE = "tc_url_note"


class ProjectError(state.AppError):
    """A project file that cannot be opened (said in plain words)."""


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
            meta = json.loads(z.read("project.json"))
        except ValueError as e:
            raise ProjectError(f"project.json could not be read: {e}") from e
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise ProjectError("project.json is not a treecalc project (no format: treecalc-project).")
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
        name, member = str(sv.get("name") or "survey"), str(sv.get("file") or "")
        if member not in names:
            raise ProjectError(f"The project names the survey {member!r}, which is not in the file.")
        blob = z.read(member)
    import hashlib

    if sv.get("sha256") and hashlib.sha256(blob).hexdigest() != sv["sha256"]:
        raise ProjectError(
            f"The survey {name} in the project does not match its recorded SHA-256: the file was altered or damaged."
        )
    return Project(name, None if sv.get("is_sample") else blob, read_opts, opts)


#: options that name a file on the server when given as text: from a link or a project file only the
#: in-line form (a dict) is taken, so that neither can make the server read a path of its choosing
_PATH_OPTIONS = ("fee_schedule",)


def safe_options(opts: dict[str, Any]) -> dict[str, Any]:
    """``opts`` without server paths (see ``_PATH_OPTIONS``) and app bookkeeping (``_``-keys)."""
    return {
        k: v
        for k, v in opts.items()
        if not str(k).startswith("_") and not (k in _PATH_OPTIONS and not isinstance(v, dict))
    }


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
        _store_put(state.source())
    st.session_state[state._READ] = dict(p.read_opts)
    st.session_state[state._OPTS] = safe_options(p.opts)
    _clear_widgets()


# --- surveys kept for reloads and links -----------------------------------------------


@st.cache_resource(show_spinner=False)
def _store() -> tuple[OrderedDict[str, state.Source], threading.Lock]:
    return OrderedDict(), threading.Lock()


def _store_put(src: state.Source | None) -> None:
    if src is None or src.is_sample:
        return
    files, lock = _store()
    with lock:
        files[src.sha256] = src
        files.move_to_end(src.sha256)
        while len(files) > STORE_MAX_FILES or sum(len(s.data) for s in files.values()) > STORE_MAX_MB * 2**20:
            files.popitem(last=False)


def _store_get(sha256: str) -> state.Source | None:
    files, lock = _store()
    with lock:
        return files.get(sha256)


# --- the URL's query parameters ---------------------------------------------------------


def url_params(src: state.Source | None, read_opts: dict[str, Any], opts: dict[str, Any]) -> dict[str, str]:
    """The query parameters of a view: ``survey`` (an upload's SHA-256), ``read`` and ``opts`` (JSON)."""
    out = {}
    if src is not None and not src.is_sample:
        out["survey"] = src.sha256
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
    if not any(k in q for k in ("survey", "read", "opts")):
        return
    try:
        read_opts = json.loads(q.get("read") or "{}")
        opts = json.loads(q.get("opts") or "{}")
        if not isinstance(read_opts, dict) or not isinstance(opts, dict):
            raise ValueError("not objects")
    except ValueError:
        st.session_state[_NOTE] = "The link's options could not be read; the app starts afresh."
        return
    sha = q.get("survey")
    if sha:
        src = _store_get(sha)
        if src is None:
            st.session_state[_NOTE] = (
                "The survey of this link is no longer held by the server (it was restarted). "
                "Upload it again or open the project file; the bundled sample is shown."
            )
            return
        state.set_source(src.name, src.data)
    st.session_state[state._READ] = read_opts
    st.session_state[state._OPTS] = safe_options(opts)


def sync_url() -> None:
    """Write the current survey and options to the URL (only when they changed)."""
    src = state.source()
    _store_put(src)
    want = url_params(src, state.read_opts(), state.opts())
    have = {k: st.query_params.get(k) for k in ("survey", "read", "opts") if k in st.query_params}
    if want != have:
        for k in ("survey", "read", "opts"):
            if k in want:
                st.query_params[k] = want[k]
            elif k in st.query_params:
                del st.query_params[k]


@st.cache_data(show_spinner=False, max_entries=4)
def _project_file(sha256: str, read_json: str, opts_json: str, _src: state.Source | None) -> bytes:
    return project_bytes(_src, json.loads(read_json), json.loads(opts_json))


def sidebar() -> None:
    """Save project / Open project, in the sidebar."""
    if note := st.session_state.pop(_NOTE, None):
        st.warning(note)
    with st.expander("Project", icon=":material/folder_open:"):
        src = state.source()
        stem = (src.name.rsplit(".", 1)[0] if src else "survey").replace(" ", "_")
        data = _project_file(src.sha256 if src else "", _dumps(state.read_opts()), _dumps(state.opts()), src)
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
                apply(read_project(up.getvalue()))
            except state.AppError as e:
                st.session_state["tc_project_error"] = str(e)
            else:
                st.session_state.pop("tc_project_error", None)
                st.session_state["tc_project_opened"] = up.name
                st.rerun()
        if err := st.session_state.get("tc_project_error"):
            st.error(err)
        elif name := st.session_state.get("tc_project_opened"):
            st.caption(f"Opened {name}.")
