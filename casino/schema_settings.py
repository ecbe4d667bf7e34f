"""The OpenAPI schema's settings (drf-spectacular), kept apart from settings.py: its title, the
vendored Swagger UI and ReDoc, enum names and the hooks that add the common responses and the
links between operations (casino/schema.py, casino/schema_links.py)."""

SPECTACULAR_SETTINGS = {
    "TITLE": "Casino dealer/pit training and audit API",
    "DESCRIPTION": "Rounds, incidents and audits of the floor. Amounts are decimal strings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["casino.roles.HasAnyRole"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Choice sets that share a field name across apps get names of their own.
    "ENUM_NAME_OVERRIDES": {
        "DrillKindEnum": "drills.choices.Kind",
        "DarkCardBetEnum": "dealing.games.ochko.math.apis.RULE_CHOICES",
        "SignalStatusEnum": "books.models.SignalStatus",
    },
    # 415 (JSON only) and 503 (database or broker down) on the operations that may answer them.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "casino.schema.add_common_responses",
        "casino.schema_links.add_links",
    ],
}
