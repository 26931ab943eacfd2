"""The app's script inside the package, for ``streamlit run`` (``treecalc app`` runs it): an installed treecalc
serves its app with no checkout and no ``app.py`` of its own. The same as the checkout's ``app.py``."""

from treecalc.app.main import main

# Streamlit runs this script as __main__. The survey reader's child processes (treecalc.ingest.limits, started by
# forkserver or spawn) import the parent's main script again, as __mp_main__: unguarded, each read would run the
# whole app there, outside any session.
if __name__ == "__main__":
    main()
