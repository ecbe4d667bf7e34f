"""Why a page is slow: its queries captured during one request, the slowest `EXPLAIN (ANALYZE, BUFFERS)`.

    DATABASE_URL=postgres://…/casino_scale manage.py shell -c \
        "from bench.explain import main; main(['/audit/', '/api/v1/rounds/'])"
"""

import time

from django.db import connection
from django.test.utils import CaptureQueriesContext


def page_queries(client, url: str) -> list[tuple[float, str]]:
    """(milliseconds, SQL) of each query of one request, slowest first."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, secure=True)
        if getattr(response, "streaming", False):
            for _chunk in response.streaming_content:
                pass
    return sorted(((float(q["time"]) * 1000, q["sql"]) for q in captured.captured_queries), reverse=True)


def explain(sql: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {sql}")
        return "\n".join(row[0] for row in cursor.fetchall())


def main(urls: list[str], *, user: str = "scale-auditor", top: int = 2, out=print) -> None:
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.test.utils import override_settings

    client = Client()
    client.force_login(get_user_model().objects.get(username=user))
    static = {**settings.STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    with override_settings(STORAGES=static, ALLOWED_HOSTS=["testserver"]):
        for url in urls:
            client.get(url, secure=True)  # warm
            started = time.perf_counter()
            queries = page_queries(client, url)
            total = (time.perf_counter() - started) * 1000
            out(
                f"=== {url}: {total:.0f} ms, {len(queries)} queries, "
                f"{sum(ms for ms, _ in queries):.0f} ms in the database"
            )
            for ms, sql in queries[:top]:
                out(f"--- {ms:.0f} ms: {sql[:3000]}")
                if sql.lstrip().upper().startswith("SELECT"):
                    out(explain(sql))
