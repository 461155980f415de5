"""Domain errors shared by every app's services.

Services raise these, never HTTP exceptions: the API's exception handler answers a
`StateConflict` with 409 and its message, and pages show the message to the user.
"""


class StateConflict(Exception):
    """The request is well formed but the record's current state does not allow it
    (an illegal transition, a locked version, a second close)."""


class RecordImmutable(StateConflict):
    """Raised when code tries to change or delete a copy of record (fogcontrol.core.records)."""
