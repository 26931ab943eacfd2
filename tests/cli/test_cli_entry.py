"""How the command is started and fed: ``python -m treecalc``, a survey piped in as ``-``, ``--quiet`` on the commands
that show progress, ``treecalc app`` and the shell completion scripts."""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.ingest import xlsx_bytes
from treecalc.cli import main

# A field survey as a user exports it: three rows, the third with a DBH that is not a number.
ROWS = [
    ["Tree ID", "Species", "DBH (in)", "Action"],
    ["T1", "Red maple", 10, "Remove"],
    ["T2", "Northern red oak", 22.5, "Retain"],
    ["T3", "Red oak", "abc", "Retain"],
]
CSV = "".join(",".join(str(c) for c in row) + "\n" for row in ROWS).encode()


def _cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "treecalc", *args], input=stdin, capture_output=True, timeout=300, check=False
    )


def test_python_dash_m_treecalc_runs_the_cli():
    # before: "No module named treecalc.__main__; 'treecalc' is a package and cannot be directly executed"
    r = _cli("water")
    assert r.returncode == 2 and "choose a subcommand: penalty or meter-test" in r.stderr.decode()


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_a_survey_piped_in_as_dash_is_read_like_a_file(kind):
    # before: "-" was taken as a file name: "error: - does not exist"
    data = CSV if kind == "csv" else xlsx_bytes(ROWS)
    r = _cli("survey", "-", "--json", stdin=data)
    assert r.returncode == 0, r.stderr.decode()
    summary = json.loads(r.stdout)
    # what the bytes are is sniffed from their content, as for a file (no name, no extension to go by)
    assert (summary["file"], summary["format"]) == ("standard input", kind)
    # 3 rows read: T1 and T2 are trees, T3 rejected for its DBH "abc"
    assert (summary["rows_read"], summary["trees"], summary["rejected"]) == (3, 2, 1)
    assert summary["rejected_rows"][0]["tag"] == "T3"


def test_assess_fingerprints_the_bytes_piped_in():
    data = xlsx_bytes(ROWS)
    r = _cli("assess", "-", "--json", stdin=data)
    assert r.returncode == 0, r.stderr.decode()
    result = json.loads(r.stdout)
    survey = result["fingerprint"]["survey"]
    # the statement's fingerprint names what was read: the very bytes piped in (their SHA-256 and length)
    assert survey == {"file": "standard input", "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    assert result["trees_removed"] == 1  # T1's "Remove"; T3 rejected, T2 retained


def test_dash_with_nothing_piped_in_is_refused_not_waited_on(monkeypatch, capsys):
    class Terminal(io.TextIOWrapper):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Terminal(io.BytesIO(b"")))
    assert main(["survey", "-"]) == 2
    assert "nothing is piped in" in capsys.readouterr().err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:  # the progress line is drawn on a terminal only
        return True


@pytest.mark.parametrize("command", [["survey"], ["assess"]])
def test_quiet_draws_no_progress_on_a_terminal(monkeypatch, tmp_path, command):
    path = tmp_path / "field.csv"
    path.write_bytes(CSV)
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert main([*command, str(path)]) == 0
    assert "100%" in err.getvalue()  # the progress line, as before
    err.seek(0), err.truncate()
    assert main([*command, str(path), "--quiet"]) == 0
    assert "%" not in err.getvalue()  # before: "--quiet" was refused as an unrecognised argument


def test_every_long_command_takes_quiet(capsys):
    for command in ("assess", "plan", "benefits-batch", "survey"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "--quiet" in capsys.readouterr().out, command


def test_treecalc_app_says_its_options(capsys):
    with pytest.raises(SystemExit) as e:
        main(["app", "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "--port" in out and "treecalc[app]" in out


@pytest.mark.parametrize("port", ["0", "70000"])
def test_treecalc_app_refuses_a_port_out_of_range(capsys, port):
    assert main(["app", "--port", port]) == 2
    assert f"--port {port}" in capsys.readouterr().err


def test_the_app_script_is_in_the_package():
    from treecalc.cli.app import SCRIPT

    assert SCRIPT == Path(__file__).resolve().parents[2] / "treecalc" / "app" / "streamlit_app.py"
    assert "main()" in SCRIPT.read_text(encoding="utf-8")


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_shell_completion_scripts_name_every_command(capsys, shell):
    with pytest.raises(SystemExit) as e:
        main(["--print-completion", shell])
    assert e.value.code == 0
    script = capsys.readouterr().out
    assert "treecalc" in script
    for command in ("assess", "benefits-batch", "survey", "plan", "water", "app", "case"):
        assert command in script, command


@pytest.mark.parametrize(
    "args",
    [
        ("assess", "data/examples/sample_survey.xlsx", "--on", "2026-11-01"),
        ("water-penalty", "--amount", "300", "--due", "2026-01-15", "--as-of", "2026-05-20", "--json"),
        ("excavation", "check", "--lot-area", "20000", "--excavate", "600:3", "--json"),
    ],
    ids=["assess", "water-penalty", "excavation"],
)
def test_output_into_a_pipe_closed_early_ends_quietly(args, tmp_path):
    # `treecalc ... | head -1`: the reader has gone before the output is written. Before, the companions said
    # "error: [Errno 32] Broken pipe" and exit 2 (their guard read the pipe as bad input), and a last flush at exit
    # could end in a traceback; now nothing is said and the exit is 0
    read, write = os.pipe()
    os.close(read)  # every write to the pipe fails with EPIPE, as after `head` has exited
    root = Path(__file__).resolve().parents[2]
    try:
        r = subprocess.run(
            [sys.executable, "-m", "treecalc", *args], stdout=write, stderr=subprocess.PIPE, cwd=root, timeout=300
        )
    finally:
        os.close(write)
    assert r.stderr.decode() == "" and r.returncode == 0, r.stderr.decode()
