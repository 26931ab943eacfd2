"""The case register: permits, violations and Tree Preservation Fund payments on a real database.

:class:`Register` (``treecalc.register.core``) opens the database (``TREECALC_DB`` or the SQLite file in the
user's data folder), migrating it with Alembic on first use; every write is one transaction with its
hash-chained event; :func:`treecalc.register.audit.verify` checks the chain and the tables against it;
:mod:`treecalc.register.backup` writes and restores a portable copy; :mod:`treecalc.register.export`
writes CSV and xlsx; :mod:`treecalc.register.auth` holds sign-in, sessions and links;
:mod:`treecalc.register.accounts` the staff accounts; :mod:`treecalc.register.roles` who may do what (every write
checks it); :mod:`treecalc.register.fees` the Village's fee schedule (§208-24C), recorded by an engineer;
:mod:`treecalc.register.anchor` signs the chain's head after every write, outside the database.

Examples
--------
>>> import pathlib, tempfile
>>> from treecalc.register import Register
>>> from treecalc.register import accounts
>>> reg = Register("sqlite:///" + str(pathlib.Path(tempfile.mkdtemp()) / "register.db"))
>>> accounts.add(reg, "ann", "engineer", "a long passphrase", by="ann")  # an empty register's first account
>>> accounts.add(reg, "bob", "clerk", "another passphrase", by="ann")  # every later one made by an engineer
>>> case = reg.new_case(by="ann", title="14 Elm St", kind="permit")
>>> reg.pay(case, by="bob", amount="1,350.00", on="2026-03-02", reference="chk 1001")
1
>>> shown = reg.show(case)
>>> shown["kind_words"], shown["paid_usd"], shown["paid_cents"]
('permit application', '1350.00', 135000)
"""

from treecalc.register import anchor  # noqa: F401 (every committed write signs its head from here on)
from treecalc.register.core import Register, RegisterError

__all__ = ["Register", "RegisterError"]
