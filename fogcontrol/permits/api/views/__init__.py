"""The permits API (/api/v1/): applications, permits and their versions, renewals, modifications,
notices, remodel notices, the fee schedule and fees owed. One module per resource group; the
routes are in fogcontrol.permits.api.urls.

Thin views. Reads come from fogcontrol.permits.selectors, scoped to the user (outside the scope:
404). Writes and state changes are permits services: an illegal transition answers 409 with the
reason, a bad field 400 naming it, an action the user's role may not take 403.
"""
