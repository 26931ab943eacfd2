"""The register's tests run on SQLite (a file in tmp_path) and on a real PostgreSQL server.

PostgreSQL: ``TREECALC_TEST_PG_URL`` names a server that ``.ci/run`` starts (``.ci/pg-throwaway``); each
test gets a database of its own, dropped afterwards. Without the variable the PostgreSQL cases skip, saying
why; with ``TREECALC_REQUIRE_PG=1`` (set by CI where it started the server) they fail instead.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

PG_URL = os.environ.get("TREECALC_TEST_PG_URL", "").strip()
ROOT = Path(__file__).resolve().parents[2]
#: the password of the accounts :func:`staff` makes (and the CLI's TREECALC_PASSWORD in :func:`treecalc`)
PASSWORD = "correct horse battery"


def staff(db, *names: str, role: str = "engineer"):
    """The register at ``db`` (a URL or a Register) with accounts ``names`` of ``role`` (password
    :data:`PASSWORD`; a name that has one already is left as it is): every act of the register is an account's. Made by the register's first engineer (the
    first name, as an engineer, when it has no account yet)."""
    from treecalc.register import Register, accounts

    reg = Register(db) if isinstance(db, str) else db
    for name in names:
        held = accounts.listing(reg)
        if name in [a["name"] for a in held]:
            continue
        engineers = [a["name"] for a in held if a["role"] == "engineer" and not a["disabled_at"]]
        reg.add_user(name, role if engineers else "engineer", PASSWORD, by=engineers[0] if engineers else name)
    return reg


def _pg_database():
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    if not PG_URL:
        if os.environ.get("TREECALC_REQUIRE_PG"):
            pytest.fail("TREECALC_REQUIRE_PG is set but TREECALC_TEST_PG_URL is not")
        pytest.skip(
            "no PostgreSQL server: TREECALC_TEST_PG_URL is not set (.ci/run starts one with .ci/pg-throwaway "
            "where Debian's postgresql can be installed)"
        )
    name = "treecalc_test_" + secrets.token_hex(6)
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    try:
        yield url
    finally:
        from treecalc.register import core

        eng = core._ENGINES.pop(url, None)
        if eng is not None:
            eng.dispose()
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'register.db'}"
    else:
        yield from _pg_database()


@pytest.fixture
def pg_url():
    yield from _pg_database()


@pytest.fixture
def survey_csv(tmp_path):
    """A developer's 4-tree application: three removals, one retained (not the bundled sample)."""
    p = tmp_path / "14_Elm_St_survey.csv"
    p.write_text(
        "Tag,Species,DBH (in),Action\n101,Red maple,14,remove\n102,Northern red oak,20,remove\n"
        "103,Sugar maple,9,retain\n104,White pine,16,remove\n"
    )
    return p


def treecalc(
    *args, db: str, stdin: str | None = None, check: bool = False, password: str | None = PASSWORD
) -> subprocess.CompletedProcess:
    """``treecalc ARGS`` with ``TREECALC_DB=db``, run in this process through :func:`treecalc.cli.main` (a
    subprocess per call spent most of these tests' time importing treecalc): its exit code, stdout and stderr
    as a :class:`subprocess.CompletedProcess`. ``stdin`` is what the command reads (a password); ``password``
    the acting account's (``TREECALC_PASSWORD``, unless the test set it; None: not given); argparse's
    own refusals (SystemExit) come back as their exit code, as from the shell."""
    import contextlib
    import io

    from treecalc.cli import main

    out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    old = os.environ.get("TREECALC_DB")
    os.environ["TREECALC_DB"] = db
    gave_password = password is not None and "TREECALC_PASSWORD" not in os.environ
    if gave_password:
        os.environ["TREECALC_PASSWORD"] = str(password)
    saved_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin or "")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([str(a) for a in args])
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    finally:
        sys.stdin = saved_stdin
        if gave_password:
            os.environ.pop("TREECALC_PASSWORD", None)
        if old is None:
            os.environ.pop("TREECALC_DB", None)
        else:
            os.environ["TREECALC_DB"] = old
    texts = []
    for f in (out, err):
        f.flush()
        texts.append(f.buffer.getvalue().decode("utf-8", errors="replace"))  # type: ignore[attr-defined]
    r = subprocess.CompletedProcess(["treecalc", *map(str, args)], code, texts[0], texts[1])
    if check:
        assert r.returncode == 0, r.stderr
    return r
