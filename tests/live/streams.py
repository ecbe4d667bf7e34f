"""Reading a live stream in a test: an ASGI request through Django's AsyncClient, its events parsed."""

import asyncio
import json

from asgiref.sync import async_to_sync, sync_to_async
from django.db import connections
from django.test import AsyncClient
from django.urls import reverse


def parse(text: str) -> list[dict]:
    """The SSE blocks of `text` as {"event", "id", "data"} (comments and `retry:` left out)."""
    out = []
    for block in text.split("\n\n"):
        fields = {}
        for line in block.split("\n"):
            if not line or line.startswith(":") or ":" not in line:
                continue
            name, _, value = line.partition(":")
            fields[name] = value.strip()
        if "data" in fields:
            fields["data"] = json.loads(fields["data"])
            out.append(fields)
    return out


def read_stream(user, *, query: str = "", last_id: int | None = None, during=None, wait_for: int = 0, timeout=3.0):
    """Open the stream as `user` (None: anonymous); after its status line call `during()` (in a
    thread: it may write), then read until `wait_for` live events arrived or `timeout` passed.
    Returns (status code, parsed blocks)."""

    async def go():
        client = AsyncClient()
        if user is not None:
            await sync_to_async(client.force_login)(user)
        headers = {"Last-Event-ID": str(last_id)} if last_id is not None else {}
        response = await client.get(reverse("live:stream") + query, headers=headers)
        if response.status_code != 200 or not response.streaming:
            return response.status_code, []
        text = ""
        chunks = response.streaming_content.__aiter__()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        called = False
        try:
            while loop.time() < deadline:
                try:
                    chunk = await asyncio.wait_for(chunks.__anext__(), deadline - loop.time())
                except (TimeoutError, StopAsyncIteration):
                    break
                text += chunk.decode() if isinstance(chunk, bytes) else chunk
                blocks = parse(text)
                if not called and any(b.get("event") == "status" for b in blocks):
                    called = True
                    if during is not None:
                        await sync_to_async(during, thread_sensitive=False)()
                if called and len([b for b in blocks if b.get("event") == "live"]) - _before(blocks) >= wait_for:
                    break
        finally:
            await chunks.aclose()
            # The view's thread holds a connection of its own: closed, or it outlives the test database.
            await sync_to_async(connections.close_all)()
        return 200, parse(text)

    return async_to_sync(go)()


def _before(blocks) -> int:
    """The live events sent before the status line (the catch-up)."""
    n = 0
    for b in blocks:
        if b.get("event") == "status":
            return n
        if b.get("event") == "live":
            n += 1
    return n


def live_events(blocks) -> list[dict]:
    return [b["data"] for b in blocks if b.get("event") == "live"]


def status(blocks) -> bool | None:
    found = [b["data"]["live"] for b in blocks if b.get("event") == "status"]
    return found[-1] if found else None
