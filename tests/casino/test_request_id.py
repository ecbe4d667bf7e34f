"""Every response carries X-Request-ID, and every log record of the request carries the same id;
LOG_FORMAT=json writes one JSON object per line."""

import io
import json
import logging

import pytest

from casino.log_format import JsonFormatter
from casino.request_id import RequestIdFilter

pytestmark = pytest.mark.django_db


@pytest.fixture
def json_log():
    """The records of the root logger, as LOG_FORMAT=json writes them, one per line."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RequestIdFilter())
    # The root logger, and Django's, which does not propagate to it (casino/settings.py LOGGING).
    loggers = [logging.getLogger(), logging.getLogger("django")]
    for logger in loggers:
        logger.addHandler(handler)
    yield lambda: [json.loads(line) for line in out.getvalue().splitlines()]
    for logger in loggers:
        logger.removeHandler(handler)


def test_a_new_id_for_each_request_echoed_in_the_response(client):
    first, second = client.get("/healthz")["X-Request-ID"], client.get("/healthz")["X-Request-ID"]
    assert len(first) == 32 and first != second


def test_a_proxys_sane_id_is_kept_and_a_forged_one_replaced(client):
    assert client.get("/healthz", HTTP_X_REQUEST_ID="lb-42_abc")["X-Request-ID"] == "lb-42_abc"
    forged = client.get("/healthz", HTTP_X_REQUEST_ID='x"\n{"level": "CRITICAL"}')["X-Request-ID"]
    assert forged != 'x"\n{"level": "CRITICAL"}' and len(forged) == 32


def test_the_request_log_line_carries_the_id_as_json(client, json_log):
    response = client.get("/api/v1/tables/", HTTP_X_REQUEST_ID="req-1")  # 401: logged by django.request
    assert response.status_code == 401
    lines = [line for line in json_log() if line["logger"] == "django.request"]
    assert lines and lines[-1]["request_id"] == "req-1"
    assert lines[-1]["level"] == "WARNING" and "/api/v1/tables/" in lines[-1]["message"]
    assert set(lines[-1]) >= {"time", "level", "logger", "message", "request_id"}


def test_outside_a_request_the_id_is_a_dash_and_a_traceback_is_one_field(client, json_log):
    client.get("/healthz")
    try:
        raise ValueError("boom")
    except ValueError:
        logging.getLogger("casino.test").exception("it failed")
    (line,) = [line for line in json_log() if line["logger"] == "casino.test"]
    assert line["request_id"] == "-"
    assert line["message"] == "it failed" and "ValueError: boom" in line["exception"]


def test_log_format_must_be_json_or_text():
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-c", "import casino.settings"],
        env={"LOG_FORMAT": "xml", "SECRET_KEY": "x" * 50, "CHAIN_KEY": "y" * 40, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0 and "LOG_FORMAT must be json or text" in result.stderr
