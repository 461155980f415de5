"""Domain errors shared by every app's services.

Services raise these, never HTTP exceptions: the API's exception handler answers a
`StateConflict` with 409 and its message, and pages show the message to the user.
"""


class StateConflict(Exception):
    """The request is well formed but the record's current state does not allow it
    (an illegal transition, a locked version, a second close)."""


class RecordImmutable(StateConflict):
    """Raised when code tries to change or delete a copy of record (fogcontrol.core.records)."""


class StaleRecord(StateConflict):
    """Someone saved the record after the copy being saved was read (optimistic concurrency,
    fogcontrol/core/concurrency.py): the save is refused, 409, and nothing is overwritten."""

    def __init__(self, *, current_version: int):
        self.current_version = current_version
        super().__init__(
            "Someone else saved this record after you opened it. Your changes were not saved: "
            "look at the record as it is now, then make your changes again."
        )
