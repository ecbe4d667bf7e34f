"""OpenAPI links: where the id an operation takes comes from (a drf-spectacular postprocessing
hook, SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]).

A client reads them as "this response names the object those operations act on": the shift a list
or an opening count answers with is the shift the cash, transfers, counts and close are written
to; the event a transfer request answers with is the one approved and received; the ledger night
and the drill a create answers with are the ones played on. Schemathesis's stateful phase follows
them, so its calls reach the writes with ids that exist (.ci/schemathesis.sh).

Each entry: (method, path, status) of the response, the runtime expression of each id it gives,
and the operations that take them. A path that is not in the schema is skipped.
"""

SHIFT = "/api/v1/books/shifts/{id}/"
SHIFT_OPS = [
    ("get", SHIFT),
    ("post", SHIFT + "sign/"),
    ("post", SHIFT + "transfers/"),
    ("post", SHIFT + "cash/"),
    ("post", SHIFT + "closing/"),
    ("post", SHIFT + "explain/"),
    ("post", SHIFT + "close/"),
    ("get", "/api/v1/books/reports/shifts/{id}/"),
]
EVENT_OPS = [("post", SHIFT + "transfers/{event}/approve/"), ("post", SHIFT + "transfers/{event}/receive/")]
SESSION = "/api/v1/ledger/sessions/{id}/"
SESSION_OPS = [("get", SESSION), ("post", SESSION + "rounds/"), ("post", SESSION + "end/")]
DRILL = "/api/v1/drills/{id}/"
DRILL_OPS = [("post", DRILL + "next/"), ("post", DRILL + "answer/"), ("get", DRILL + "results/")]
SIGNAL = "/api/v1/books/signals/{id}/"
SIGNAL_OPS = [("get", SIGNAL), ("post", SIGNAL + "review/")]

FIRST = "$response.body#/0/id"  # a list's first item
CREATED = "$response.body#/id"  # the object a create answers with

LINKS = [
    (("get", "/api/v1/books/shifts/", "200"), {"id": FIRST}, SHIFT_OPS),
    (("post", "/api/v1/books/shifts/open/", "201"), {"id": CREATED}, SHIFT_OPS),
    (("get", SHIFT, "200"), {"id": CREATED}, SHIFT_OPS),
    (("post", SHIFT + "transfers/", "201"), {"id": "$request.path.id", "event": "$response.body#/event"}, EVENT_OPS),
    (("get", "/api/v1/ledger/sessions/", "200"), {"id": FIRST}, SESSION_OPS),
    (("post", "/api/v1/ledger/sessions/create/", "201"), {"id": CREATED}, SESSION_OPS),
    (("get", "/api/v1/drills/", "200"), {"id": FIRST}, DRILL_OPS),
    (("post", "/api/v1/drills/start/", "201"), {"id": CREATED}, DRILL_OPS),
    (("get", "/api/v1/books/signals/", "200"), {"id": FIRST}, SIGNAL_OPS),
]


def add_links(result, generator, request, public):
    paths = result.get("paths", {})
    for (method, path, code), parameters, targets in LINKS:
        response = paths.get(path, {}).get(method, {}).get("responses", {}).get(code)
        if response is None:
            continue
        links = response.setdefault("links", {})
        for target_method, target_path in targets:
            target = paths.get(target_path, {}).get(target_method)
            if target is None:
                continue
            taken = {p["name"] for p in target.get("parameters", []) if p.get("in") == "path"}
            if not taken <= set(parameters):
                continue
            links[target["operationId"]] = {
                "operationId": target["operationId"],
                "parameters": {name: parameters[name] for name in sorted(taken)},
            }
    return result
