"""Reads of the live pit: the events a user may receive, and the live floor's tiles (one query per
kind of figure for every table at once, never one per table)."""

from dataclasses import dataclass, field
from datetime import datetime, time, timedelta

from django.conf import settings
from django.db.models import F, Func, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from audit.choices import FindingStatus
from audit.models import Finding
from books.choices import ShiftStatus
from books.models import TableShift
from casino.finding_text import event_word
from casino.models import Table
from casino.roles import user_pits
from casino.scope import FLOOR, restrict, sees_every_pit
from dealing.choices import IncidentStatus, RoundStatus, ShoeEventKind
from dealing.models import Incident, Round, Shoe, ShoeEvent, in_force_q, status_q
from dealing.selectors import shoe_cards_left

from .models import LiveEvent

# The events that say where a table's round stands: the terminal's progress, or a round stored.
PROGRESS_KINDS = ("table_progress", "rounds_logged")


@dataclass(frozen=True)
class Audience:
    """Whose events a stream may carry: the pits of a pit boss, or every pit (an auditor)."""

    every: bool
    pits: frozenset[int] = frozenset()
    user: int | None = None

    def admits(self, message: dict) -> bool:
        if message.get("user") is not None:
            # A user's own event (his notification): nobody else's stream carries it, an auditor's neither.
            return message["user"] == self.user
        return self.every or (message.get("pit") is not None and message["pit"] in self.pits)


def audience_of(user) -> Audience:
    if sees_every_pit(user):
        return Audience(every=True, user=user.pk)
    return Audience(every=False, pits=frozenset(user_pits(user).values_list("pk", flat=True)), user=user.pk)


def events_after(*, audience: Audience, after: int, limit: int | None = None) -> list[dict]:
    """The stored events after the cursor `after` that `audience` may receive, oldest first."""
    shared = Q(user__isnull=True) if audience.every else Q(user__isnull=True, pit_id__in=audience.pits)
    events = LiveEvent.objects.filter(shared | Q(user_id=audience.user), pk__gt=after).order_by("pk")
    return [e.message() for e in events[: limit or settings.LIVE_CATCHUP_LIMIT]]


def events_cursor() -> int:
    """The newest event's id: a page rendered now asks its stream for what follows it."""
    return LiveEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def _count(queryset: QuerySet) -> Subquery:
    return Subquery(
        queryset.order_by().annotate(n=Func(F("pk"), function="COUNT")).values("n"), output_field=IntegerField()
    )


@dataclass
class Tile:
    """A table on the live floor."""

    table: Table
    dealer: str | None
    rounds_hour: int
    pace_s: int | None  # seconds between rounds over the last hour
    approvals: int
    findings_today: int
    shift: str | None
    shift_label: str = ""
    shoe: Shoe | None = None
    cards_left: int | None = None
    progress: dict | None = None
    phase: str = ""  # the last entry of the round in progress, in the reader's language
    halt: list = field(default_factory=list)


def floor_tiles(*, user, table_id: int | None = None) -> list[Tile]:
    """Every table of the user's pits (one table: `table_id`) with what the live floor shows."""
    now = timezone.now()
    hour_ago = now - timedelta(hours=1)
    today = timezone.make_aware(datetime.combine(timezone.localdate(now), time.min))
    tables = restrict(Table.objects.select_related("pit"), user, FLOOR).order_by("pit__name", "-is_active", "name")
    if table_id is not None:
        tables = tables.filter(pk=table_id)
    in_force = Round.objects.order_by().filter(in_force_q(), table=OuterRef("pk"))
    hour = in_force.filter(logged_at__gte=hour_ago)
    tables = tables.annotate(
        last_dealer=Subquery(in_force.order_by("-logged_at", "-pk").values("dealer__username")[:1]),
        rounds_hour=_count(hour),
        first_hour=Subquery(hour.order_by("logged_at").values("logged_at")[:1]),
        last_hour=Subquery(hour.order_by("-logged_at").values("logged_at")[:1]),
        incidents_waiting=_count(Incident.objects.filter(table=OuterRef("pk"), status=IncidentStatus.REPORTED)),
        corrections_waiting=_count(Round.objects.filter(status_q(RoundStatus.PENDING), table=OuterRef("pk"))),
        findings_today=_count(
            Finding.objects.filter(table=OuterRef("pk"), status=FindingStatus.OPEN, played_at__gte=today)
        ),
        shift_status=Subquery(
            TableShift.objects.filter(table=OuterRef("pk")).exclude(status=ShiftStatus.CLOSED).values("status")[:1]
        ),
        live_id=Subquery(
            LiveEvent.objects.filter(table=OuterRef("pk"), kind__in=PROGRESS_KINDS).order_by("-pk").values("pk")[:1]
        ),
    )
    tables = list(tables)
    live = LiveEvent.objects.in_bulk([t.live_id for t in tables if t.live_id])
    shoes = {
        s.table_id: s for s in Shoe.objects.filter(table__in=tables, ended_at__isnull=True).select_related("table")
    }
    items: dict[int, list] = {s.pk: [] for s in shoes.values()}
    for r in Round.objects.order_by().filter(in_force_q(), shoe__in=items).only("pk", "shoe_id", "document"):
        items[r.shoe_id].append(r)
    for e in ShoeEvent.objects.filter(shoe__in=items, kind=ShoeEventKind.BURN).only("pk", "shoe_id", "kind"):
        items[e.shoe_id].append(e)
    labels = dict(ShiftStatus.choices)
    tiles = []
    for t in tables:
        pace = None
        if t.rounds_hour > 1 and t.first_hour and t.last_hour:
            pace = round((t.last_hour - t.first_hour).total_seconds() / (t.rounds_hour - 1))
        tile = Tile(
            table=t,
            dealer=t.last_dealer,
            rounds_hour=t.rounds_hour or 0,
            pace_s=pace,
            approvals=(t.incidents_waiting or 0) + (t.corrections_waiting or 0),
            findings_today=t.findings_today or 0,
            shift=t.shift_status,
            shift_label=str(labels.get(t.shift_status, "")) if t.shift_status else "",
        )
        shoe = shoes.get(t.pk)
        if shoe is not None:
            tile.shoe = shoe
            tile.cards_left = shoe_cards_left(shoe=shoe, items=items[shoe.pk])
        event = live.get(t.live_id)
        if event is not None and event.kind == "table_progress" and not event.payload.get("done"):
            tile.progress = event.payload
            tile.phase = str(event_word(event.payload["phase"])) if event.payload.get("phase") else ""
            tile.halt = event.payload.get("halt") or []
            if event.payload.get("dealer"):
                tile.dealer = event.payload["dealer"]
        tiles.append(tile)
    return tiles
