"""What every operation of the OpenAPI schema may answer besides its own responses (a
drf-spectacular postprocessing hook, SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]).

- 415 on every operation that takes a body: the API reads JSON only (DEFAULT_PARSER_CLASSES, and
  dealing/apis/common.py `raw_body` for the endpoints that read the raw bytes); 413 on each of
  them too: a body over DATA_UPLOAD_MAX_MEMORY_SIZE (casino/exception_handlers.py).
- 429 with `Retry-After` on every operation: the caller is over its request budget (per token, per
  user, per anonymous address: casino/throttling.py).
- 503 with `Retry-After` on every operation: the database or the broker cannot be reached just now
  (casino/faults.py).
- 400 on every operation that takes query parameters or a body (validation, `extra.fields`).
- 401 and 403 on every operation that needs a login (no or a bad token; a role that may not).
- 404 on every operation with an id in its path (no such object, or not one the caller may see).
All in the project's error shape, the `Error` component. An operation's own declaration of a code
(with its own description) is kept.

And two things every operation does that drf-spectacular cannot see:
- a query parameter sent empty (`?to=`, as a page's filter form sends its blank fields) is the
  parameter not sent: each one's schema also admits "";
- the endpoints that read their body's bytes themselves (a round log, read exactly) need one:
  their `requestBody` is required (none, or another media type: 415);
- a request body has no key but its fields (casino.api_inputs.KnownFields refuses any other):
  each request body's component is `additionalProperties: false`.
"""

RAW_BODY = {("post", "/api/v1/rounds/"), ("post", "/api/v1/engine/settle")}
EMPTY = {"type": "string", "enum": [""]}

ERROR_REF = {"$ref": "#/components/schemas/Error"}
METHODS = ("get", "put", "post", "patch", "delete")
RETRY_AFTER = {"schema": {"type": "integer"}, "description": "Seconds to wait before trying again."}


def _error(description: str, **extra) -> dict:
    return {"content": {"application/json": {"schema": ERROR_REF}}, "description": description, **extra}


def add_common_responses(result, generator, request, public):
    components = result.get("components", {}).get("schemas", {})
    if "Error" not in components:
        return result
    for path_name, path in result.get("paths", {}).items():
        for method, operation in path.items():
            if method not in METHODS:
                continue
            responses = operation.setdefault("responses", {})
            parameters = operation.get("parameters", [])
            for parameter in parameters:
                schema = parameter.get("schema")
                if parameter.get("in") == "query" and schema and schema != {"type": "string"}:
                    parameter["schema"] = {"anyOf": [schema, EMPTY]}
            if (method, path_name) in RAW_BODY and "requestBody" in operation:
                operation["requestBody"]["required"] = True
            _known_fields_only(operation, components)
            if "requestBody" in operation or any(p.get("in") == "query" for p in parameters):
                responses.setdefault(
                    "400",
                    _error(
                        "The request is not valid: `extra.fields` says which field and "
                        "why, or `extra.code` what is wrong."
                    ),
                )
            if operation.get("security") != [] and operation.get("security") != [{}]:
                responses.setdefault("401", _error("No credentials, or a token that is unknown, expired or revoked."))
                if not _is_token_path(path_name):
                    responses.setdefault("403", _error("The caller's role does not give access to this operation."))
            if any(p.get("in") == "path" for p in parameters):
                responses.setdefault("404", _error("There is no such object, or none the caller may see."))
            if "requestBody" in operation:
                responses.setdefault(
                    "413", _error("The body is larger than the server reads (`extra.code` = `too_large`).")
                )
                responses.setdefault("415", _error("The body is not JSON (`extra.code` = `unsupported_media_type`)."))
            responses.setdefault(
                "429",
                _error(
                    "Too many requests from this token, user or address (`THROTTLE_*_RATE`); "
                    "try again after `Retry-After` seconds.",
                    headers={"Retry-After": RETRY_AFTER},
                ),
            )
            responses.setdefault(
                "503",
                _error(
                    "The database or the task queue cannot be reached for a moment (`extra.code` = `unavailable`); "
                    "try again after `Retry-After` seconds.",
                    headers={
                        "Retry-After": {
                            "schema": {"type": "integer"},
                            "description": "Seconds to wait before trying again.",
                        }
                    },
                ),
            )
    return result


def _known_fields_only(operation: dict, components: dict) -> None:
    """The request body's component admits its own properties only."""
    for content in operation.get("requestBody", {}).get("content", {}).values():
        ref = content.get("schema", {}).get("$ref", "")
        component = components.get(ref.rsplit("/", 1)[-1]) if ref.startswith("#/components/schemas/") else None
        if component is not None and "properties" in component:
            component.setdefault("additionalProperties", False)


def _is_token_path(name: str) -> bool:
    """The token endpoints: any logged-in user may revoke his own tokens, whatever his role."""
    return "/auth/token/" in name
