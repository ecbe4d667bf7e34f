"""Schemathesis hooks for .ci/schemathesis.sh (loaded through SCHEMATHESIS_HOOKS).

The tally: every response's status, per operation, written as JSON to $SCHEMATHESIS_TALLY when the
run ends (when set), so a run says how many calls of each write got past 404/400 into the write.
"""

import atexit
import json
import os
from collections import Counter, defaultdict

import schemathesis

TALLY: dict[str, Counter] = defaultdict(Counter)


@schemathesis.hook
def after_call(context, case, response):
    TALLY[f"{case.operation.method.upper()} {case.operation.path}"][str(response.status_code)] += 1


def _write_tally() -> None:
    path = os.environ.get("SCHEMATHESIS_TALLY")
    if not path or not TALLY:
        return
    try:
        with open(path, encoding="utf-8") as handle:
            earlier = json.load(handle)
    except (OSError, ValueError):
        earlier = {}
    for operation, counts in TALLY.items():
        merged = Counter(earlier.get(operation, {}))
        merged.update(counts)
        earlier[operation] = dict(merged)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(earlier, handle, indent=1, sort_keys=True)


atexit.register(_write_tally)
