"""The project's error body in the OpenAPI schema, for every app's endpoints.

Every error is rendered as `{"message": ..., "extra": {...}}` (casino/exception_handlers.py); an
endpoint declares the codes it answers besides success with `responses={200: Out, **errors(400, 404)}`.
The component is named `Error` after `ErrorSerializer` (casino/schema.py adds the codes every
operation may answer).
"""

from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    message = serializers.CharField()
    extra = serializers.DictField(
        help_text="Details for programs: `code`; for a round, `path` and `event`; for invalid fields, `fields`."
    )


def errors(*codes: int) -> dict:
    return {code: ErrorSerializer for code in codes}
