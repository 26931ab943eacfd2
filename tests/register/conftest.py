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


def treecalc(*args, db: str, stdin: str | None = None, check: bool = False) -> subprocess.CompletedProcess:
    env = {**os.environ, "TREECALC_DB": db}
    r = subprocess.run(
        [sys.executable, "-m", "treecalc.cli", *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    if check:
        assert r.returncode == 0, r.stderr
    return r
