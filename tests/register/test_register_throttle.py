"""The sign-in throttle holds when the attempts come all at once: a name's attempts are recorded (and the
name locked) before its password is checked, so N attempts released together check at most
THROTTLE_FAILURES passwords, for a name that exists and for one that does not."""

from __future__ import annotations

import threading

import pytest

from tests.register.conftest import staff


def _storm(db_url, monkeypatch, name, n):
    """``n`` threads released at once, each signing in as ``name`` with a wrong password: how many passwords
    were checked (argon2 verifications, and the hashes spent on an unknown name), and what each thread got."""
    import argon2

    from treecalc.register import Register, auth

    reg = staff(db_url, "admin")
    reg.add_user("ann", "clerk", "correct horse battery", by="admin")
    checked, lock = [], threading.Lock()
    verify, hash_password = argon2.PasswordHasher.verify, auth.hash_password

    def counting_verify(self, *a, **k):
        with lock:
            checked.append("verify")
        return verify(self, *a, **k)

    def counting_hash(*a, **k):
        with lock:
            checked.append("hash")
        return hash_password(*a, **k)

    monkeypatch.setattr(argon2.PasswordHasher, "verify", counting_verify)
    monkeypatch.setattr(auth, "hash_password", counting_hash)
    barrier = threading.Barrier(n)
    results: list[str] = []

    def attempt():
        barrier.wait()
        try:
            auth.sign_in(Register(db_url), name, "wrong password!")
            out = "signed in"
        except auth.Throttled:
            out = "throttled"
        except ValueError as e:
            out = "wrong" if "wrong" in str(e) else f"error: {e}"
        except Exception as e:  # a database error under the storm is a failure of the test, said
            out = f"error: {type(e).__name__}: {e}"
        with lock:
            results.append(out)

    threads = [threading.Thread(target=attempt) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert len(results) == n, results
    return reg, checked, results


@pytest.mark.parametrize("n", [12, 30])
def test_attempts_released_at_once_check_at_most_three_passwords(db_url, monkeypatch, n):
    from treecalc.register import auth

    reg, checked, results = _storm(db_url, monkeypatch, "ann", n)
    # THROTTLE_FAILURES = 3: three attempts are checked (and wrong), every other one is throttled unchecked
    assert auth.THROTTLE_FAILURES == 3
    assert sorted(results) == ["throttled"] * (n - 3) + ["wrong"] * 3, results
    assert checked == ["verify"] * 3
    with pytest.raises(auth.Throttled, match="Too many failed sign-ins for ann"):
        auth.sign_in(reg, "ann", "correct horse battery")  # the right password too, until the window ends


def test_an_unknown_name_is_throttled_as_a_known_one(db_url, monkeypatch):
    reg, checked, results = _storm(db_url, monkeypatch, "nobody", 12)
    # the same three attempts and the same answers as for a name that exists (no telling them apart)
    assert sorted(results) == ["throttled"] * 9 + ["wrong"] * 3, results
    assert checked == ["hash"] * 3


def test_a_right_password_within_the_allowance_signs_in_and_is_recorded_once(db_url):
    from sqlalchemy import select

    from treecalc.register import auth
    from treecalc.register import models as m

    reg = staff(db_url, "admin")
    reg.add_user("ann", "clerk", "correct horse battery", by="admin")
    for _ in range(2):
        with pytest.raises(ValueError, match="wrong"):
            auth.sign_in(reg, "ann", "wrong password!")
    token, role = auth.sign_in(reg, "ann", "correct horse battery")
    assert auth.session_user(reg, token) == ("ann", "clerk")
    with reg.reading() as s:
        assert [r.ok for r in s.scalars(select(m.SignIn).order_by(m.SignIn.id))] == [0, 0, 1]


def test_a_name_longer_than_any_account_s_is_refused_naming_it_not_a_database_error(db_url):
    from treecalc.register import Register, RegisterError, auth

    with pytest.raises(RegisterError, match="‹by›: at most 200 characters, got 300"):
        auth.sign_in(Register(db_url), "x" * 300, "wrong password!")
