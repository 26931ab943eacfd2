"""Builders and checks shared by the tests, imported as ``tests.helpers.<module>`` (pytest's ``pythonpath``
in pyproject.toml puts the checkout on the path; no test inserts into ``sys.path``).

* :mod:`.rules` — trees frames for the law engines (``make_trees``).
* :mod:`.ingest` — survey files written as users send them (xlsx, csv, tsv; a cell patched in place).
* :mod:`.hostile` — hostile files (far cells, zip bombs, lying dimensions) for the pre-flight.
* :mod:`.bounds` — running a command under a memory and time cap, and reading its refusal.
* :mod:`.headless` — the app run headless (``AppTest``): a fresh app, a page's path, no exception.
* :mod:`.app_surveys` — surveys as users send them, for the app's browser and headless tests.
* :mod:`.browser_nav` — driving the app's sidebar and upload in Chromium.
"""
