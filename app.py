"""treecalc's app: ``streamlit run app.py`` (``pip install 'treecalc[app]'``); the app is :mod:`treecalc.app`."""

from treecalc.app.main import main

# Streamlit runs this script as __main__. The survey reader's child processes (treecalc.ingest.limits, started by
# forkserver or spawn) import the parent's main script again, as __mp_main__: unguarded, each read ran the whole
# app there, outside any session, and the server log filled with "missing ScriptRunContext" warnings.
if __name__ == "__main__":
    main()
elif __name__ != "__mp_main__":
    # `streamlit run app.py` finds this st.App and serves it: Streamlit's server with the app's own route that
    # keeps a staff sign-in in an HttpOnly cookie (treecalc.app.server)
    import streamlit as st

    from treecalc.app import server

    app = st.App(__file__, routes=server.routes(), lifespan=server.lifespan)
