"""A file written through treecalc.files.Replacing is whole or absent: never half-written, never a stray
temporary file, the old file untouched when writing fails."""

from __future__ import annotations

import os
import stat

import pytest

from treecalc.files import Replacing


def test_the_finished_file_replaces_the_old_one_and_nothing_else_is_left(tmp_path):
    target = tmp_path / "statement.xlsx"
    target.write_bytes(b"old")
    with Replacing(target) as tmp:
        assert os.path.dirname(tmp) == str(tmp_path)  # beside the target: one file system, an atomic rename
        assert target.read_bytes() == b"old"  # not touched while writing
        with open(tmp, "wb") as f:
            f.write(b"new")
    assert target.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["statement.xlsx"]


def test_an_error_while_writing_keeps_the_old_file_and_removes_the_temporary_one(tmp_path):
    target = tmp_path / "backup.gz"
    target.write_bytes(b"good backup")
    with pytest.raises(RuntimeError, match="disk full"):
        with Replacing(target) as tmp:
            with open(tmp, "wb") as f:
                f.write(b"half")
            raise RuntimeError("disk full")
    assert target.read_bytes() == b"good backup"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backup.gz"]


def test_interrupted_by_ctrl_c_too(tmp_path):
    target = tmp_path / "out.csv"
    with pytest.raises(KeyboardInterrupt):
        with Replacing(target) as tmp:
            with open(tmp, "w") as f:
                f.write("a,b\n")
            raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_cannot_be_written_fails_before_anything_is_written(tmp_path):
    with pytest.raises(FileNotFoundError):
        Replacing(tmp_path / "no such folder" / "x.xlsx")


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_modes_private_by_default_the_users_usual_mode_when_asked(tmp_path):
    umask = os.umask(0o022)
    try:
        with Replacing(tmp_path / "private") as tmp:
            open(tmp, "wb").close()
        with Replacing(tmp_path / "shared", user_mode=True) as tmp:
            open(tmp, "wb").close()
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "private").stat().st_mode) == 0o600  # mkstemp's: a backup holds the register
    assert stat.S_IMODE((tmp_path / "shared").stat().st_mode) == 0o644  # 0666 less the umask 022
