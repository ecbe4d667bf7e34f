"""The Redis broker transport (`CELERY_BROKER_TRANSPORT` for `redis://` broker URLs, casino/settings.py).

kombu's Redis channel (`kombu.transport.redis.Channel`) builds a new `redis.Redis` client for every
message it publishes (`conn_or_acquire`). The client is only a front for the channel's connection
pool, but building one fills a table of some 170 response callbacks: about a fifth of the CPU of
queuing a round's audit, which every round logged pays. This channel builds that client once and
keeps it for as long as its connection pool lives. Nothing else changes: each command still takes a
connection from the same pool and gives it back (redis-py clients are safe to share between
threads), messages are written exactly as before, and a pool replaced after a fork or a reconnect
gets a client of its own.
"""

from contextlib import contextmanager

from kombu.transport import redis


class Channel(redis.Channel):
    _pool_client = None

    @contextmanager
    def conn_or_acquire(self, client=None):
        if client:
            yield client
            return
        pool = self.pool
        cached = self._pool_client
        if cached is None or cached.connection_pool is not pool:
            cached = self._pool_client = self._create_client()
        yield cached


class Transport(redis.Transport):
    Channel = Channel
