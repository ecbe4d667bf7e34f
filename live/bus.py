"""The bus that pushes stored events to the streams: Redis publish/subscribe when LIVE_REDIS_URL is
set (every web process hears every other's events), else in memory (one process: `make run`).

A web process holds ONE subscription per event loop (a `Hub`) and fans each message out to its
streams' queues: 200 open streams are 200 queues, not 200 Redis connections. Publishing is
synchronous (the services run in request threads and Celery workers) and never fails the caller:
the event is a row already, and a stream that missed the push reads it on its next connect.
"""

import asyncio
import json
import logging
import threading
import weakref
from contextlib import asynccontextmanager

import redis
import redis.asyncio as aioredis
from django.conf import settings

log = logging.getLogger(__name__)

# Put in every stream's queue when the bus goes away: the stream ends, saying it is not live.
DOWN = {"kind": "__down__"}

_lock = threading.Lock()
_hubs: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub]" = weakref.WeakKeyDictionary()
_client: redis.Redis | None = None
_client_url = ""


def url() -> str:
    return settings.LIVE_REDIS_URL


def channel() -> str:
    from django.db import connection

    return settings.LIVE_CHANNEL or f"casino-live:{connection.settings_dict['NAME']}"


class Hub:
    """The subscription of one event loop, fanned out to the queues of the streams it serves."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.queues: set[asyncio.Queue] = set()
        self.task: asyncio.Task | None = None
        self.connected = asyncio.Event()

    def deliver(self, message: dict) -> None:
        for queue in list(self.queues):
            queue.put_nowait(message)

    async def ready(self, timeout: float) -> bool:
        """Is the bus there (subscribed), waiting at most `timeout` seconds? Always, in memory."""
        if not url():
            return True
        if self.task is None or self.task.done():
            self.task = self.loop.create_task(self._listen())
        try:
            await asyncio.wait_for(self.connected.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def _listen(self) -> None:
        """Subscribe and hand on every message until no stream listens; a broken connection tells
        every stream (DOWN: each ends and its browser reconnects), then subscribes again."""
        while self.queues:
            client = aioredis.from_url(url(), socket_connect_timeout=1)
            was_connected = False
            try:
                pubsub = client.pubsub()
                await pubsub.subscribe(channel())
                self.connected.set()
                was_connected = True
                async for item in pubsub.listen():
                    if item.get("type") != "message":
                        continue
                    try:
                        self.deliver(json.loads(item["data"]))
                    except ValueError:
                        log.warning("live: a message on %s that is not JSON, skipped", channel())
            except (redis.RedisError, OSError) as exc:
                if was_connected:
                    log.warning("live: the bus went away (%s); streams end and reconnect", exc)
            finally:
                self.connected.clear()
                if was_connected:
                    self.deliver(DOWN)
                try:
                    await client.aclose()
                except (redis.RedisError, OSError):
                    pass
            await asyncio.sleep(1)

    @asynccontextmanager
    async def listen(self):
        queue: asyncio.Queue = asyncio.Queue()
        self.queues.add(queue)
        try:
            yield queue
        finally:
            self.queues.discard(queue)
            if not self.queues and self.task is not None and not self.task.done():
                # The last stream of this loop left: drop the subscription (a test's loop closes
                # with it; a server's next stream subscribes again).
                self.task.cancel()
                self.task = None


def hub() -> Hub:
    """The hub of the running event loop."""
    loop = asyncio.get_running_loop()
    with _lock:
        found = _hubs.get(loop)
        if found is None:
            found = _hubs[loop] = Hub(loop)
        return found


def _sync_client() -> redis.Redis:
    global _client, _client_url
    with _lock:
        if _client is None or _client_url != url():
            _client = redis.Redis.from_url(url(), socket_timeout=0.5, socket_connect_timeout=0.5)
            _client_url = url()
        return _client


def publish(message: dict) -> bool:
    """Push a stored event to every stream (of every process, with Redis). False when the bus is
    down: the row stays, the streams read it when they reconnect."""
    if url():
        try:
            _sync_client().publish(channel(), json.dumps(message))
        except (redis.RedisError, OSError) as exc:
            log.warning("live: event %s not pushed, the bus is down (%s)", message.get("id"), exc)
            return False
        return True
    with _lock:
        hubs = list(_hubs.values())
    for each in hubs:
        if not each.loop.is_closed():
            each.loop.call_soon_threadsafe(each.deliver, message)
    return True


def is_up() -> bool:
    """Can the bus be reached now (for a page rendered without a stream)? Always, in memory."""
    if not url():
        return True
    try:
        return bool(_sync_client().ping())
    except (redis.RedisError, OSError):
        return False
