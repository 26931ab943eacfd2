"""The case register: permits, violations and Tree Preservation Fund payments on a real database.

:class:`Register` (``treecalc.register.core``) opens the database (``TREECALC_DB`` or the SQLite file in the
user's data folder), migrating it with Alembic on first use; every write is one transaction with its
hash-chained event; :func:`treecalc.register.audit.verify` checks the chain and the tables against it;
:mod:`treecalc.register.backup` writes and restores a portable copy; :mod:`treecalc.register.export`
writes CSV and xlsx; :mod:`treecalc.register.auth` holds sign-in, sessions and links;
:mod:`treecalc.register.accounts` the staff accounts; :mod:`treecalc.register.roles` who may do what (every write
checks it); :mod:`treecalc.register.fees` the Village's fee schedule (§208-24C), recorded by an engineer.
"""

from treecalc.register.core import Register, RegisterError

__all__ = ["Register", "RegisterError"]
