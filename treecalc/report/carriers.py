"""Where a fingerprint (:mod:`treecalc.report.fingerprint`) is carried in each output: the names the writers put it
under and ``treecalc verify`` reads it from. Here, below both, so that the writers need not import the verifier.
"""

#: The name of the file attached to the PDF report holding the fingerprint as JSON.
ATTACHMENT_NAME = "treecalc-fingerprint.json"
#: The Excel statement's sheet of the fingerprint, and the item of its row holding the whole of it as JSON.
SHEET_NAME = "Fingerprint"
JSON_ITEM = "Fingerprint (JSON)"
