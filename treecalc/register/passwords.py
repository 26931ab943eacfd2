"""Passwords of the register's accounts: what one must be, and its argon2id hash (argon2-cffi)."""

from __future__ import annotations

from treecalc.register.db import RegisterError

MIN_PASSWORD = 10


def hash_password(password: str) -> str:
    from argon2 import PasswordHasher  # heavy: argon2, loaded only when this runs

    return PasswordHasher().hash(password)


def check_password(password: str) -> None:
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        raise RegisterError(f"a password of at least {MIN_PASSWORD} characters")
    if len(password) > 1000:
        raise RegisterError("a password of at most 1,000 characters")
