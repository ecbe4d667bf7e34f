"""One JSON object per log line (LOG_FORMAT=json): what a log collector parses without a pattern.

Fields: time (UTC, ISO 8601), level, logger, message, request_id (casino/request_id.py), and the
traceback as `exception` when there is one; a record's extras that are plain values (the security
log's user and address, say) are kept too.
"""

import json
import logging
from datetime import UTC, datetime

# What every LogRecord has: not an extra of the call that logged it.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "request_id"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", "-"),
        }
        for name, value in vars(record).items():
            if name not in _STANDARD and not name.startswith("_") and isinstance(value, str | int | float | bool):
                entry.setdefault(name, value)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)
