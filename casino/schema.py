"""What every operation of the OpenAPI schema may answer besides its own responses (a
drf-spectacular postprocessing hook, SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]).

- 415 on every operation that takes a body: the API reads JSON only (DEFAULT_PARSER_CLASSES, and
  dealing/apis/common.py `_raw_body` for the endpoints that read the raw bytes).
- 503 with `Retry-After` on every operation: the database or the broker cannot be reached just now
  (casino/faults.py).
Both in the project's error shape, the `Error` component.
"""

ERROR_REF = {"$ref": "#/components/schemas/Error"}
METHODS = ("get", "put", "post", "patch", "delete")


def _error(description: str, **extra) -> dict:
    return {"content": {"application/json": {"schema": ERROR_REF}}, "description": description, **extra}


def add_common_responses(result, generator, request, public):
    if "Error" not in result.get("components", {}).get("schemas", {}):
        return result
    for path in result.get("paths", {}).values():
        for method, operation in path.items():
            if method not in METHODS:
                continue
            responses = operation.setdefault("responses", {})
            if "requestBody" in operation:
                responses.setdefault("415", _error("The body is not JSON (`extra.code` = `unsupported_media_type`)."))
            responses.setdefault("503", _error(
                "The database or the task queue cannot be reached for a moment (`extra.code` = `unavailable`); "
                "try again after `Retry-After` seconds.",
                headers={"Retry-After": {"schema": {"type": "integer"},
                                         "description": "Seconds to wait before trying again."}}))
    return result
