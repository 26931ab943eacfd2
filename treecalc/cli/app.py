"""``treecalc app``: serve the app of the installed package (``streamlit run`` on its own script, found beside this
package: no checkout and no ``app.py`` are needed). Registered by :mod:`treecalc.cli` through :func:`register`."""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path
from typing import Any

#: the app's script in the package: the installed copy's own, wherever it is installed
SCRIPT = Path(__file__).resolve().parents[1] / "app" / "streamlit_app.py"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "app",
        help="serve the app in the browser (pip install 'treecalc[app]')",
        description="Serve treecalc's app (Streamlit) from the installed package and print its address; Ctrl-C "
        "stops it. It needs the app's extra: pip install 'treecalc[app]'.",
        epilog="Streamlit's own options follow --, e.g. treecalc app --port 8600 -- --server.headless true",
    )
    p.add_argument("--port", type=int, metavar="N", help="the port to serve on (default: Streamlit's, 8501)")
    p.add_argument("--address", metavar="HOST", help="the address to listen on, e.g. 127.0.0.1 (default: all)")
    p.add_argument("streamlit_options", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    p.set_defaults(func=run)


def run(a: argparse.Namespace) -> int:
    if a.port is not None and not 1 <= a.port <= 65535:
        raise ValueError(f"--port {a.port}: give a port from 1 to 65535")
    if importlib.util.find_spec("streamlit") is None:
        raise ValueError("the app needs its extra, not installed here: pip install 'treecalc[app]'")
    args = ["run", str(SCRIPT)]
    if a.port is not None:
        args += ["--server.port", str(a.port)]
    if a.address:
        args += ["--server.address", a.address]
    extra = list(a.streamlit_options)
    args += extra[1:] if extra[:1] == ["--"] else extra
    from streamlit.web.cli import main as streamlit  # optional dependency: streamlit ([app] extra)

    # in this process, as the `streamlit` command runs it: Ctrl-C and a service manager's SIGTERM reach the
    # server itself, which stops cleanly (a child process would be left serving when this one was stopped)
    streamlit(args, prog_name="streamlit")  # exits with the server's status
    return 0
