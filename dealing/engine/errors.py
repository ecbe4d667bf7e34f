"""The one error type of the engine: a document it cannot follow.

A finding says "the dealer did something wrong"; a `RoundError` says "this is not a round log
we can read at all". It never leaves the engine as anything else, so callers catch one type.
"""


class RoundError(ValueError):
    """A `round/1` (or shoe) document that cannot be read.

    `code` is stable (for programs), `path` is a JSON path such as ``$.stakes[1].ante``,
    `event` is the 0-based event index when the problem is inside an event, and the message is
    a sentence a dealer understands.
    """

    def __init__(self, code: str, message: str, *, path: str | None = None, event: int | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.path = path
        self.event = event

    def to_dict(self) -> dict:
        return {"error": self.code, "message": self.message, "path": self.path, "event": self.event}

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"RoundError({self.code!r}, {self.message!r}, path={self.path!r}, event={self.event!r})"
