"""How dealing refuses: a `ServiceError` with a sentence for the user and, in `extra`, a stable
`code` and, for a round, the JSON `path` and `event` index (the API and the forms read them)."""

from casino.errors import ServiceError
from dealing import engine


def engine_error(exc: engine.RoundError) -> ServiceError:
    """The engine's refusal as a 400: the sentence, and where (code, JSON path, event index)."""
    return ServiceError(exc.message, extra={"code": exc.code, "path": exc.path, "event": exc.event})


def refuse(
    message: str, code: str, *, status: int = 400, path: str | None = None, event: int | None = None, **extra
) -> ServiceError:
    return ServiceError(message, extra={"code": code, "path": path, "event": event, **extra}, status=status)
