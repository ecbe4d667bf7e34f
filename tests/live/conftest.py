import pytest


@pytest.fixture(params=["memory", "redis"])
def bus_kind(request, settings):
    """Each test on the in-memory bus and on Redis (skipped when CELERY_BROKER_URL names no Redis)."""
    if request.param == "memory":
        settings.LIVE_REDIS_URL = ""
    elif not settings.LIVE_REDIS_URL:
        pytest.skip("no Redis configured (CELERY_BROKER_URL or LIVE_REDIS_URL)")
    return request.param
