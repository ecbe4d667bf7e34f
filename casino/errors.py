"""The one exception type business code raises: a rule of the house was broken.

Services raise `ServiceError`; the API renders it as ``{"message": ..., "extra": {...}}`` with its
status (casino/exception_handlers.py), and views show its message to the user. Code outside a request (tasks,
commands) catches it like any exception.
"""


class ServiceError(Exception):
    """A business operation refused: `message` is a sentence for the user, `extra` details for programs."""

    def __init__(self, message: str, extra: dict | None = None, status: int = 400):
        super().__init__(message)
        self.message = message
        self.extra = extra or {}
        self.status = status

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"ServiceError({self.message!r}, extra={self.extra!r}, status={self.status})"
