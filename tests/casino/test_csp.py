"""The Content-Security-Policy header, and templates that keep to it (what the browser test,
test_csp_browser.py, checks in Chromium, checked here without one)."""

import re
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db

POLICY = {
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "frame-ancestors 'none'",
    "form-action 'self'",
    "base-uri 'self'",
    "object-src 'none'",
}
TEMPLATES = Path(settings.BASE_DIR) / "templates"
# An inline script (a <script> without src), a <style> block, a style="..." attribute, an on...= handler.
INLINE = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|[\s\"']style=|\son[a-z]+=", re.IGNORECASE)


def test_pages_and_the_api_carry_the_policy(client_for):
    for response in (
        client_for(None).get("/accounts/login/"),
        client_for("dealer").get("/tables/"),
        client_for("dealer").get("/api/v1/tables/"),
    ):
        assert set(response["Content-Security-Policy"].split("; ")) == POLICY


def test_the_api_docs_page_needs_no_exception(client_for):
    client = client_for("superuser")
    page = client.get("/api/docs/")
    assert set(page["Content-Security-Policy"].split("; ")) == POLICY
    html = page.content.decode()
    assert not INLINE.search(html), INLINE.search(html)
    script = client.get("/api/docs/?script=")  # Swagger UI's set-up, as a script of its own
    assert script.status_code == 200 and script["Content-Type"].startswith("application/javascript")


def test_no_template_holds_inline_script_or_style():
    found = [
        f"{path.relative_to(TEMPLATES)}: {match.group(0)}"
        for path in TEMPLATES.rglob("*.html")
        for match in INLINE.finditer(path.read_text())
    ]
    assert found == []
