"""What dealing announces to the apps above it, so that it never imports them.

    rounds_committed      rounds now in force (a round logged, a correction approved), once their
                          transaction has committed; audit subscribes (audit/apps.py) and audits them
    rounds_batched()      for bulk loads: the rounds recorded inside are announced together, once
    round_written         every round record written (in force or a correction awaiting a pit boss),
                          INSIDE its transaction: audit subscribes (`subscribe_written`) and appends
                          the round's pending audit row with it, so which rounds still need an audit
                          is known from the database, committed or rolled back with the round
    shoe_overfull(id)     a round was just logged to a shoe that cannot hold that many (more rounds
                          than its cards can deal), inside its transaction; announced once, when it
                          commits: audit checks the shoe then, not only once it ends
    rounds_changing(ids)  around a change of rounds' status inside its transaction (a correction
                          approved: the old revision superseded, the new one in force); audit's
                          rollups watch it to move the rounds' totals in the same transaction
    chain_broken(breaks)  a verification found the record tampered with (the checkpoint's walk of the
                          new links every few minutes, or a whole verification): announced on commit
                          to `subscribe_chain_broken` subscribers (the notifications)

A subscriber is a plain function `subscriber(round_ids, *, bulk)`: `round_ids` the committed rounds'
ids, `bulk` True when they come from `rounds_batched()` (a subscriber may then do its work in one go,
in-process, rather than queue a message per round). Subscribers run in the order they subscribed,
inside `transaction.on_commit`, so a round that is rolled back is never announced. A plain list of
functions rather than a Django signal: the rounds are written in SQL (dealing.services.chain_link),
so no model signal fires, and the hook's one argument list is its whole contract.
"""

from collections.abc import Callable
from contextlib import ExitStack, contextmanager
from contextvars import ContextVar

from django.db import transaction

Subscriber = Callable[..., None]

_subscribers: list[Subscriber] = []
_writers: list[Callable[[list[int]], None]] = []
_watchers: list[Callable[[list[int]], object]] = []
_batch: ContextVar[list[int] | None] = ContextVar("dealing_rounds_batched", default=None)


def subscribe(subscriber: Subscriber) -> None:
    """Call `subscriber(round_ids, bulk=…)` after each commit of rounds (once, however often it subscribes)."""
    if subscriber not in _subscribers:
        _subscribers.append(subscriber)


def unsubscribe(subscriber: Subscriber) -> None:
    if subscriber in _subscribers:
        _subscribers.remove(subscriber)


def is_subscribed(subscriber: Subscriber) -> bool:
    return subscriber in _subscribers


@contextmanager
def rounds_unannounced():
    """Rounds committed inside are announced to no subscriber: nothing audits them on commit (a tool
    or a test that audits them later, by hand)."""
    saved = list(_subscribers)
    _subscribers.clear()
    try:
        yield
    finally:
        _subscribers[:] = saved


def subscribe_written(writer: Callable[[list[int]], None]) -> None:
    """Call `writer(round_ids)` inside the transaction of each round record written (once, however
    often it subscribes): what it writes commits or rolls back with the round."""
    if writer not in _writers:
        _writers.append(writer)


def round_written(round_id: int) -> None:
    """A round record was just inserted (inside the transaction writing it)."""
    rounds_written([round_id])


def rounds_written(round_ids: list[int]) -> None:
    """Round records were just inserted (inside the transaction writing them; bulk loaders too)."""
    if round_ids:
        for writer in list(_writers):
            writer(list(round_ids))


def _announce(round_ids: list[int], *, bulk: bool) -> None:
    for subscriber in list(_subscribers):
        subscriber(round_ids, bulk=bulk)


def round_recorded(round_id: int) -> None:
    """A round is in force (inside the transaction writing it): announced when that commits."""
    batch = _batch.get()
    if batch is not None:
        batch.append(round_id)
    else:
        transaction.on_commit(lambda: _announce([round_id], bulk=False))


@contextmanager
def rounds_batched():
    """For bulk loads (the demo floor): the rounds recorded inside are announced together, once the
    transaction around them commits (audit then audits them all in one task instead of one each)."""
    ids: list[int] = []
    token = _batch.set(ids)
    try:
        yield
    finally:
        _batch.reset(token)
    if ids:
        transaction.on_commit(lambda: _announce(ids, bulk=True))


_overfull: list[Callable[[int], None]] = []


def subscribe_overfull(subscriber: Callable[[int], None]) -> None:
    """Call `subscriber(shoe_id)` after the commit of the round that overfills a shoe (once, however
    often it subscribes)."""
    if subscriber not in _overfull:
        _overfull.append(subscriber)


def shoe_overfull(shoe_id: int) -> None:
    """A shoe was just given more rounds than it can deal (inside the transaction writing them)."""
    transaction.on_commit(lambda: [subscriber(shoe_id) for subscriber in list(_overfull)])


def watch_changes(watcher: Callable[[list[int]], object]) -> None:
    """`watcher(round_ids)` returns a context manager entered around each `rounds_changing` block
    (once, however often it is added)."""
    if watcher not in _watchers:
        _watchers.append(watcher)


def unwatch_changes(watcher) -> None:
    if watcher in _watchers:
        _watchers.remove(watcher)


@contextmanager
def rounds_changing(round_ids: list[int]):
    """Around a change of rounds' `status` inside the transaction making it: each watcher sees the
    rounds before and after, and writes what follows from it in the same transaction."""
    with ExitStack() as stack:
        for watcher in list(_watchers):
            stack.enter_context(watcher(list(round_ids)))
        yield


# What happened on the floor that a person must hear of (a HALT at a terminal, a correction
# awaiting a pit boss): `listen(event, fn)` calls `fn(**facts)` once the transaction announcing it
# commits (at once outside one). The notifications app listens (notifications/apps.py); dealing
# names no listener. The events and their facts:
#     "halted"               table_id, round_uid, halts (the terminal's halting findings), by_id
#     "correction_proposed"  round_id (the pending revision), table_id, by_id (who proposed it)
_listeners: dict[str, list[Callable[..., None]]] = {}


def listen(event: str, listener: Callable[..., None]) -> None:
    """Call `listener(**facts)` after each commit announcing `event` (once, however often it listens)."""
    listeners = _listeners.setdefault(event, [])
    if listener not in listeners:
        listeners.append(listener)


def announce(event: str, **facts) -> None:
    """`event` happened (inside the transaction that makes it so, if any): its listeners hear of it
    when that commits; a rollback announces nothing."""
    listeners = list(_listeners.get(event, ()))
    if listeners:
        transaction.on_commit(lambda: [listener(**facts) for listener in listeners])


def halted(*, table_id: int, round_uid: str, halts: list[dict], by_id: int | None) -> None:
    """The terminal halted (a wrong payment): the pit bosses must hear of it. Nothing when `halts` is
    empty; the terminal asks after every entry, so a listener tells each halt of a round once."""
    if halts:
        announce("halted", table_id=table_id, round_uid=round_uid, halts=halts, by_id=by_id)


_broken: list[Callable[[list[str]], None]] = []


def subscribe_chain_broken(subscriber: Callable[[list[str]], None]) -> None:
    """Call `subscriber(breaks)` as soon as a verification finds the record tampered with (once,
    however often it subscribes): `breaks` one sentence per broken chain, naming the stored table
    and the link. The notifications subscribe; dealing never imports them."""
    if subscriber not in _broken:
        _broken.append(subscriber)


def unsubscribe_chain_broken(subscriber) -> None:
    if subscriber in _broken:
        _broken.remove(subscriber)


def chain_broken(breaks: list[str]) -> None:
    """A verification found breaks (the checkpoint's walk of the new links, or a whole verification):
    announced once what recorded them commits (at once outside a transaction)."""
    if breaks:
        found = list(breaks)
        transaction.on_commit(lambda: [subscriber(found) for subscriber in list(_broken)])


_progress: list[Callable[..., None]] = []


def subscribe_progress(subscriber: Callable[..., None]) -> None:
    """Call `subscriber(table=…, dealer=…, doc=…, followed=…)` each time a terminal reports the round
    in progress at a table (once, however often it subscribes)."""
    if subscriber not in _progress:
        _progress.append(subscriber)


def table_progress(table, *, dealer, doc: dict, followed: dict) -> None:
    """A terminal posted the round in progress and the engine followed it (`followed`: what
    dealing.games.terminal.follow answered, its halts among it). Nothing is stored by dealing: the
    round is stored once it is saved; the apps above show it meanwhile (the live floor)."""
    for subscriber in list(_progress):
        subscriber(table=table, dealer=dealer, doc=doc, followed=followed)
