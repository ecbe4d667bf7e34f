"""Keyset pages: "newer" / "older" from a row's (time, id), and "jump to a date".

A list ordered newest first by (time, id) is cut at a key instead of an OFFSET, so a page deep in a
year of rounds costs what page 1 costs (an index scan from the key, no row before it is read), and a
row logged between two page loads moves no row to the next page: nothing is skipped or repeated.
There is no total count either: counting reads every matching row.

The key is written `<ISO time>_<id>` in the URL (`?older=…` / `?newer=…`); `?at=YYYY-MM-DD` starts
at the end of that day. Each list needs an index on (its filter columns…, time, id).
"""

import datetime as dt
from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from . import dates

PARAMS = ("older", "newer", "at")


class BadKey(ValueError):
    """A key or date in the URL that cannot be read."""


@dataclass
class KeysetPage:
    object_list: list
    newer: str | None  # the key to pass as `?newer=` for the page before (None: this is the newest)
    older: str | None  # the key to pass as `?older=` for the page after (None: nothing older)
    size: int

    def __len__(self) -> int:
        return len(self.object_list)

    def __iter__(self):
        return iter(self.object_list)

    @property
    def has_other_pages(self) -> bool:
        return bool(self.newer or self.older)


def key_of(row, field: str) -> str:
    return f"{getattr(row, field).isoformat()}_{row.pk}"


def parse_key(value: str) -> tuple[dt.datetime, int]:
    stamp, sep, pk = (value or "").rpartition("_")
    try:
        when = parse_datetime(stamp) if sep and stamp.isascii() else None
        number = int(pk) if pk.isascii() else None
    except (ValueError, TypeError):
        raise BadKey(value) from None
    if when is None or number is None or dates.day_problem(when.date()) is not None:
        raise BadKey(value)
    if timezone.is_naive(when):
        when = timezone.make_aware(when, dt.UTC)
    return when, number


def day_start(day: dt.date) -> dt.datetime:
    """Midnight at the start of a day, in the floor's time zone."""
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min))


def parse_day(value: str) -> dt.date:
    """A day YYYY-MM-DD within casino.dates' range (the day after it must exist); BadKey otherwise."""
    try:
        return dates.parse_day(value)
    except dates.BadDay:
        raise BadKey(value) from None


def _older_than(field: str, when, pk) -> Q:
    # `time <= t AND (time < t OR id < n)`: the first term bounds the index scan, which the plain
    # `time < t OR (time = t AND id < n)` does not (PostgreSQL would read every newer row).
    return Q(**{f"{field}__lte": when}) & (Q(**{f"{field}__lt": when}) | Q(pk__lt=pk))


def _newer_than(field: str, when, pk) -> Q:
    return Q(**{f"{field}__gte": when}) & (Q(**{f"{field}__gt": when}) | Q(pk__gt=pk))


def keyset_page(
    queryset: QuerySet,
    *,
    field: str,
    size: int,
    older: str | None = None,
    newer: str | None = None,
    at: dt.datetime | None = None,
) -> KeysetPage:
    """One page of `queryset` newest first by (`field`, id): after the key `older`, before the key
    `newer`, from `at` back (a moment), or the newest rows. Reads size + 1 rows and, for the link
    the other way, one row more. BadKey if a key cannot be read."""
    desc = queryset.order_by(f"-{field}", "-pk")
    asc = queryset.order_by(field, "pk")
    if newer:
        when, pk = parse_key(newer)
        rows = list(asc.filter(_newer_than(field, when, pk))[: size + 1])
        more_newer = len(rows) > size
        rows = rows[:size][::-1]
        more_older = bool(rows) and desc.filter(_older_than(field, *_key(rows[-1], field))).exists()
    else:
        if older:
            rows = list(desc.filter(_older_than(field, *parse_key(older)))[: size + 1])
        elif at is not None:
            rows = list(desc.filter(**{f"{field}__lt": at})[: size + 1])
        else:
            rows = list(desc[: size + 1])
        more_older = len(rows) > size
        rows = rows[:size]
        more_newer = (
            bool(rows) and (older or at is not None) and asc.filter(_newer_than(field, *_key(rows[0], field))).exists()
        )
    return KeysetPage(
        rows,
        newer=key_of(rows[0], field) if rows and more_newer else None,
        older=key_of(rows[-1], field) if rows and more_older else None,
        size=size,
    )


def _key(row, field: str) -> tuple:
    return getattr(row, field), row.pk


def page_from(queryset: QuerySet, params, *, field: str, size: int, day_start=day_start) -> KeysetPage:
    """The page a query string asks for (`older`, `newer`, `at`); `day_start(date)` is midnight of
    a day on the floor. BadKey on an unreadable key or date."""
    at = None
    if params.get("at"):
        at = day_start(parse_day(params["at"]) + dt.timedelta(days=1))
    return keyset_page(
        queryset, field=field, size=size, older=params.get("older") or None, newer=params.get("newer") or None, at=at
    )


# --- lists whose rows hang from a parent: (parent id, id) -------------------------------------------


def pair_key(row, parent: str) -> str:
    return f"{getattr(row, parent)}_{row.pk}"


def parse_pair(value: str) -> tuple[int, int]:
    parent, sep, pk = (value or "").partition("_")
    if not sep or not (parent.isascii() and parent.isdigit() and pk.isascii() and pk.isdigit()):
        raise BadKey(value)
    return int(parent), int(pk)


def pair_page(
    queryset: QuerySet, *, parent: str, size: int, older: str | None = None, newer: str | None = None
) -> KeysetPage:
    """One page of rows that belong to a parent (a round's stakes): the newest parent first (by
    `parent`, its id), each parent's rows in the order they were written (id). The key is
    `<parent id>_<id>`; like `keyset_page`, size + 1 rows read from an index on (parent, …), no count."""
    desc = queryset.order_by(f"-{parent}", "pk")
    asc = queryset.order_by(parent, "-pk")

    def after(p, pk):  # further down the list: an older parent, or a later row of the same one
        return Q(**{f"{parent}__lte": p}) & (Q(**{f"{parent}__lt": p}) | Q(pk__gt=pk))

    def before(p, pk):
        return Q(**{f"{parent}__gte": p}) & (Q(**{f"{parent}__gt": p}) | Q(pk__lt=pk))

    def at(row):
        return getattr(row, parent), row.pk

    if newer:
        rows = list(asc.filter(before(*parse_pair(newer)))[: size + 1])
        more_newer = len(rows) > size
        rows = rows[:size][::-1]
        more_older = bool(rows) and desc.filter(after(*at(rows[-1]))).exists()
    else:
        rows = list((desc.filter(after(*parse_pair(older))) if older else desc)[: size + 1])
        more_older = len(rows) > size
        rows = rows[:size]
        more_newer = bool(rows) and bool(older) and asc.filter(before(*at(rows[0]))).exists()
    return KeysetPage(
        rows,
        newer=pair_key(rows[0], parent) if rows and more_newer else None,
        older=pair_key(rows[-1], parent) if rows and more_older else None,
        size=size,
    )
