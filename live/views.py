"""The live pit's pages and its stream.

GET /pit/floor/                  the live floor (pit bosses: their pits; auditors: every pit)
GET /pit/floor/tiles?table=<id>  one tile (or, without `table`, every tile) as HTML, for floor.js
GET /live/stream?after=<id>      Server-Sent Events: the stored events after the cursor (or after
                                 Last-Event-ID), then each one pushed on the bus; a comment every
                                 LIVE_HEARTBEAT_S seconds
"""

import asyncio
import json

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import HttpResponse, HttpResponseBadRequest, StreamingHttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from casino.roles import has_role, role_required

from . import bus, selectors
from .access import FLOOR_ROLES, STREAM_ROLES


@require_GET
@role_required(*FLOOR_ROLES)
def floor(request):
    return render(
        request,
        "live/floor.html",
        {"tiles": selectors.floor_tiles(user=request.user)},
    )


@require_GET
@role_required(*FLOOR_ROLES)
def floor_tiles(request):
    raw = request.GET.get("table", "")
    if raw and not raw.isdigit():
        return HttpResponseBadRequest(_("table: give the id of a table (digits)."))
    tiles = selectors.floor_tiles(user=request.user, table_id=int(raw) if raw else None)
    response = render(request, "live/_tiles.html", {"tiles": tiles})
    response["Cache-Control"] = "no-store"
    return response


def _sse(message: dict) -> str:
    return f"id: {message['id']}\nevent: live\ndata: {json.dumps(message, separators=(',', ':'))}\n\n"


def _status(live: bool) -> str:
    return f"event: status\ndata: {json.dumps({'live': live})}\n\n"


def _cursor(request) -> int | None:
    """Where the client stands: Last-Event-ID (a reconnect) wins over ?after= (the page's cursor)."""
    raw = request.headers.get("Last-Event-ID") or request.GET.get("after") or "0"
    return int(raw) if raw.isascii() and raw.isdigit() else None


async def _events(audience: selectors.Audience, after: int):
    hub = bus.hub()
    async with hub.listen() as queue:
        # Subscribed before reading the rows: what commits meanwhile is in the queue, not lost.
        live = await hub.ready(timeout=settings.LIVE_BUS_TIMEOUT_S)
        yield f"retry: {settings.LIVE_RETRY_MS}\n\n"
        sent = set()
        for message in await sync_to_async(selectors.events_after)(audience=audience, after=after):
            sent.add(message["id"])
            yield _sse(message)
        yield _status(live)
        # The request's thread (middleware, session, the catch-up) opened a database connection: an
        # open stream holds none, or 200 streams would be 200 PostgreSQL connections.
        await sync_to_async(connections.close_all)()
        if not live:
            # The page says it is not live; the browser reconnects after `retry` with its last id.
            return
        while True:
            try:
                message = await asyncio.wait_for(queue.get(), settings.LIVE_HEARTBEAT_S)
            except TimeoutError:
                yield ": heartbeat\n\n"
                continue
            if message is bus.DOWN:
                yield _status(False)
                return
            if message.get("id") in sent or not audience.admits(message):
                continue
            yield _sse(message)


@require_GET
async def stream(request):
    """The events a pit boss (of his pits) or an auditor (every pit) may see, as they happen."""
    user = await request.auser()
    if not user.is_authenticated:
        # As every page: the login page (EventSource gives up on an answer that is not a stream).
        return redirect_to_login(request.get_full_path())
    if not await sync_to_async(has_role)(user, *STREAM_ROLES):
        raise PermissionDenied(_("Your role does not give access to this page."))
    if not isinstance(request, ASGIRequest):
        # A WSGI server (gunicorn's gthread workers) would hold a thread for each open stream: the
        # streams are served by the ASGI process only (docs/live.md). 204 stops EventSource.
        return HttpResponse(status=204)
    after = _cursor(request)
    if after is None:
        return HttpResponseBadRequest(_("after: give the id of the last event received (digits)."))
    audience = await sync_to_async(selectors.audience_of)(user)
    # The middleware's and these reads' connection, closed now: the stream reads the catch-up on a
    # connection it closes at once, and holds none while it waits.
    await sync_to_async(connections.close_all)()
    response = StreamingHttpResponse(_events(audience, after), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # a proxy (nginx) passes each event on at once
    return response


stream.roles = STREAM_ROLES  # the URL × role walk reads the roles a view requires
stream.method_roles = {}
