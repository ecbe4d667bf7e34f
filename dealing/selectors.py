"""Reads of dealing, restricted by role — the one place pages and the API ask what a user may see.

Who sees what:
    superuser, auditor      everything
    pit boss, inspector     the shoes, rounds, stakes and incidents of their pits' tables
    dealer                  the rounds he dealt (and their stakes), the incidents where he was the
                            dealer, the shoes of his pits' tables
    trainee                 nothing here (drills only)
A user with several roles sees the union. The rows are scoped by the one mechanism: `casino.scope.restrict`
with each model's `row_scope` (dealing/models.py).
"""

import functools
import heapq
from dataclasses import dataclass
from datetime import UTC

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import Count, QuerySet
from django.http import Http404

from casino import selectors as floor_selectors
from casino.db import model_from_row
from casino.finding_words import finding_text
from casino.models import Pit, Table
from casino.roles import DEALER, has_role, user_pits
from casino.scope import CHANGE, restrict
from dealing import engine
from dealing.engine import games as engine_games

from . import chain
from .choices import IncidentStatus, RoundStatus, ShoeEventKind
from .filters import IncidentFilter, RoundFilter, ShoeFilter, StakeFilter
from .models import (
    HaltOverride,
    Incident,
    IncidentAttachment,
    IncidentReview,
    Round,
    Shoe,
    Stake,
    TerminalDraft,
    in_force_q,
    status_q,
)


def _filtered(filterset_class, queryset: QuerySet, filters) -> QuerySet:
    filterset = filterset_class(filters or {}, queryset)
    if not filterset.is_valid():
        raise ValidationError({name: errors.as_data() for name, errors in filterset.errors.items()})
    return filterset.qs


def _get(queryset: QuerySet, pk):
    try:
        return queryset.get(pk=int(pk))
    except (ValueError, TypeError, OverflowError, queryset.model.DoesNotExist):
        raise Http404 from None


# --- rounds --------------------------------------------------------------------------------------------


def rounds_visible(user) -> QuerySet:
    return restrict(Round.objects, user)


def round_list(*, user, filters=None) -> QuerySet:
    """Round records the user may see, newest first, narrowed by `RoundFilter` (table, shoe, dealer,
    from/to, audit_status, status, …). The documents are left out (`round_get` has them)."""
    rounds = (
        rounds_visible(user)
        .select_related("table", "shoe__table", "dealer", "logged_by")
        .defer("document", "house_rules")
    )
    return _filtered(RoundFilter, rounds, filters)


def round_get(*, user, pk) -> Round:
    """One round record the user may see (Http404 otherwise), with its document."""
    return _get(
        rounds_visible(user).select_related("table__pit", "shoe__table", "dealer", "logged_by", "supersedes"), pk
    )


def round_settlement(*, round: Round) -> dict:  # noqa: A002 - the domain's word
    """The engine's `settlement/1` for a stored round: what each wager was owed, and the findings."""
    try:
        return engine.settle(round.document)
    except engine.RoundError as exc:  # a round the engine of today cannot read any more
        return {
            "format": "settlement/1",
            "variant": round.variant,
            "wagers": None,
            "float": None,
            "findings": [],
            "error": exc.to_dict(),
        }


def round_revisions(*, round: Round) -> QuerySet:  # noqa: A002
    """Every record of the same round (the same document id): the original and its corrections."""
    return (
        Round.objects.filter(uid=round.uid)
        .select_related("logged_by", "dealer")
        .defer("document", "house_rules")
        .order_by("revision")
    )


def halt_overrides_of_round(*, round: Round) -> QuerySet:  # noqa: A002
    """The halts of the table terminal a pit boss overrode in this round (the entry, who, why)."""
    return HaltOverride.objects.filter(round=round).select_related("overridden_by").order_by("event")


# --- stakes --------------------------------------------------------------------------------------------


def stake_list(*, user, filters=None) -> QuerySet:
    """Stakes of the rounds the user may see, narrowed by `StakeFilter`; without a `round` or
    `round_status` filter, only the rounds in force."""
    stakes = restrict(Stake.objects, user).select_related("round__table")
    filters = filters or {}
    if not filters.get("round") and not filters.get("round_status"):
        stakes = stakes.filter(in_force_q("round"))
    # The newest round's first, each round's in the order they were written (its boxes in order):
    # what the keyset pages walk (casino.keyset.pair_page), from the index on (round, stake_id).
    return _filtered(StakeFilter, stakes.order_by("-round_id", "pk"), filters)


# --- incidents -----------------------------------------------------------------------------------------


def incidents_visible(user) -> QuerySet:
    return restrict(Incident.objects, user)


def incident_list(*, user, filters=None) -> QuerySet:
    incidents = incidents_visible(user).select_related(
        "table", "shoe__table", "dealer", "reported_by", "round", "review__reviewed_by", "review__second_by"
    )
    return _filtered(IncidentFilter, incidents, filters)


def incident_get(*, user, pk) -> Incident:
    return _get(
        incidents_visible(user).select_related("table__pit", "shoe__table", "dealer", "reported_by", "round"), pk
    )


def incident_review_of(incident: Incident) -> IncidentReview | None:
    """The incident's review (classification, money, both reviewers), if it has one."""
    return IncidentReview.objects.select_related("reviewed_by", "second_by").filter(incident=incident).first()


def incident_attachments(incident: Incident) -> QuerySet:
    return incident.attachments.select_related("added_by").order_by("added_at", "id")


def incident_attachment_get(*, user, pk) -> IncidentAttachment:
    """An attachment of an incident the user may see (Http404 otherwise): the one scope of rows."""
    return _get(restrict(IncidentAttachment.objects.select_related("incident"), user), pk)


# --- the pit boss's queue --------------------------------------------------------------------------------


def pending_incidents(*, user) -> QuerySet:
    """Reported incidents this pit boss may decide: his pits, not his report, not his dealing."""
    return (
        restrict(Incident.objects.filter(status=IncidentStatus.REPORTED), user, CHANGE)
        .exclude(reported_by=user)
        .exclude(dealer=user)
        .exclude(round__dealer=user)
        .select_related("table", "dealer", "reported_by", "round")
        .order_by("reported_at", "id")
    )


def pending_amendments(*, user) -> QuerySet:
    """Corrections of rounds awaiting this pit boss: his pits, not made by him, not of his dealing."""
    return (
        restrict(Round.objects.filter(status_q(RoundStatus.PENDING)), user, CHANGE)
        .exclude(logged_by=user)
        .exclude(dealer=user)
        .exclude(supersedes__dealer=user)
        .select_related("table", "dealer", "logged_by", "supersedes")
        .order_by("logged_at", "id")
    )


# --- shoes ---------------------------------------------------------------------------------------------


def shoes_visible(user) -> QuerySet:
    return restrict(Shoe.objects, user)


def shoe_list(*, user, filters=None) -> QuerySet:
    shoes = shoes_visible(user).select_related("table", "shuffled_by").order_by("-loaded_at", "-id")
    return _filtered(ShoeFilter, shoes, filters)


def shoe_get(*, user, pk) -> Shoe:
    return _get(shoes_visible(user).select_related("table__pit", "shuffled_by"), pk)


def shoe_items(*, shoe: Shoe) -> list:
    """What happened at a shoe, in order: its events (ShoeEvent) and its rounds in force (Round)."""
    events = shoe.events.select_related("dealer", "recorded_by").order_by("position")
    rounds = shoe.rounds.filter(in_force_q()).select_related("dealer").order_by("position")
    return list(heapq.merge(events, rounds, key=lambda item: item.position))


# A page of a shoe's timeline; and the most rounds its page checks as a whole (the engine's shoe check
# and the cards left read every round of the shoe): beyond it the page is bounded by what it shows,
# and the whole shoe is judged by its audit.
SHOE_PAGE = 100
SHOE_CHECK_LIMIT = 500
# Every round deals at least two cards (a box's and the dealer's): a shoe whose rounds alone would
# take every card it holds has none left, known without reading them.
MIN_CARDS_PER_ROUND = 2


@dataclass
class ShoePage:
    """A window of a shoe's timeline, in order, and the positions to go on from (None: no more)."""

    items: list
    earlier: int | None  # pass as `?before=` for the items before these
    later: int | None  # pass as `?after=` for the items after these


def shoe_items_page(*, shoe: Shoe, before: int | None = None, after: int | None = None, size: int = SHOE_PAGE):
    """At most `size` of a shoe's items (`shoe_items`), cut at a position rather than counted from
    the start: the latest ones, those before position `before` or those after `after`. Each read
    is an index range (round_shoe_position, the events' own) of size + 1 rows at most."""
    events = shoe.events.select_related("dealer", "recorded_by")
    rounds = shoe.rounds.filter(in_force_q()).select_related("dealer")
    if after is not None:
        picked = sorted(
            [*events.filter(position__gt=after).order_by("position")[: size + 1]]
            + [*rounds.filter(position__gt=after).order_by("position")[: size + 1]],
            key=lambda item: item.position,
        )
        more_later, items = len(picked) > size, picked[:size]
        more_earlier = True
    else:
        if before is not None:
            events, rounds = events.filter(position__lt=before), rounds.filter(position__lt=before)
        picked = sorted(
            [*events.order_by("-position")[: size + 1]] + [*rounds.order_by("-position")[: size + 1]],
            key=lambda item: -item.position,
        )
        more_earlier, items = len(picked) > size, picked[:size][::-1]
        more_later = before is not None
    return ShoePage(
        items,
        earlier=items[0].position if items and more_earlier else None,
        later=items[-1].position if items and more_later else None,
    )


def shoe_round_limit(shoe: Shoe) -> int | None:
    """The most rounds a shoe's cards can deal (MIN_CARDS_PER_ROUND each); None where the pack is
    gathered again and dealt on (veintiuno), so no number of rounds is too many."""
    game = engine_games.get(shoe.table.variant)
    if game is None or not game.shoe_counted:
        return None
    return shoe.decks * len(engine.variant(shoe.table.variant).PACK) // MIN_CARDS_PER_ROUND


def shoe_round_count(*, shoe: Shoe) -> int:
    """The rounds dealt from a shoe: the shoe number of its last round (one index read, no count)."""
    return (
        Round.objects.filter(shoe=shoe, supersedes__isnull=True)
        .order_by("-position")
        .values_list("number", flat=True)
        .first()
    ) or 0


def shoe_event_counts(*, shoe: Shoe) -> dict:
    """How many events of each kind a shoe has (a few: its loading, burns, dealer changes)."""
    return dict(shoe.events.order_by().values("kind").annotate(n=Count("id")).values_list("kind", "n"))


def shoe_document(*, shoe: Shoe, items: list | None = None) -> dict:
    """The engine's `shoe/1` document of a stored shoe: its events and rounds in force, in order
    (`engine.check_shoe(shoe_document(shoe=...))` judges burns, fees, card counts, reshuffles).
    `items`: the shoe's `shoe_items`, when the caller has read them already (a shoe's round logs
    are most of what its page reads: each reading decodes every one of them)."""
    table = shoe.table
    entries = shoe_items(shoe=shoe) if items is None else items
    items = []
    rules = None
    for item in entries:
        if isinstance(item, Round):
            rules = item.document.get("rules", {}) if rules is None else rules
            items.append({"e": "round", "round": item.document})
            continue
        at = item.recorded_at.astimezone(UTC).isoformat().replace("+00:00", "Z")
        if item.kind == ShoeEventKind.SHUFFLE:
            items.append({"e": "shuffle", "by": item.recorded_by.get_username(), "at": at})
        elif item.kind == ShoeEventKind.BURN:
            burn = {"e": "burn", "card": item.card, "reason": item.reason, "at": at}
            if item.fee is not None:
                burn["fee"] = chain.json_safe(item.fee)
            items.append(burn)
        else:
            items.append(
                {"e": "dealer_change", "dealer": item.dealer.get_username() if item.dealer_id else None, "at": at}
            )
    return {
        "format": "shoe/1",
        "variant": str(table.variant),
        "table": {"name": table.name, "min": chain.json_safe(table.min_bet), "max": chain.json_safe(table.max_bet)},
        "rules": dict(table.rules or {}) if rules is None else rules,
        "items": items,
    }


def shoe_cards_left(*, shoe: Shoe, items: list | None = None) -> int | None:
    """Cards still in the shoe (burns and every card the rounds in force dealt are out); None for
    veintiuno, whose pack is dealt to the end and gathered again. `items`: the shoe's `shoe_items`,
    when the caller has read them already."""
    module = engine.variant(shoe.table.variant)
    game = engine_games.get(shoe.table.variant)
    if game is None or not game.shoe_counted:
        return None
    if items is None:
        if shoe_round_count(shoe=shoe) * MIN_CARDS_PER_ROUND >= shoe.decks * len(module.PACK):
            return 0
        out = shoe.events.filter(kind=ShoeEventKind.BURN).count()
        documents = shoe.rounds.filter(in_force_q()).values_list("document", flat=True)
    else:
        out = sum(1 for item in items if not isinstance(item, Round) and item.kind == ShoeEventKind.BURN)
        documents = [item.document for item in items if isinstance(item, Round)]
    for document in documents:
        try:
            out += len(engine.replay(document).cards)
        except engine.RoundError:
            continue
    return max(0, shoe.decks * len(module.PACK) - out)


# --- what the pages of dealing read (dealing/views) ------------------------------------------------------


def table_list_by_pit(*, user) -> QuerySet:
    """The tables of the user's pits: by pit, open ones first, by game, by stakes (the salon's tiers
    in order), then by name."""
    return floor_selectors.table_list(user=user).order_by("pit__name", "-is_active", "variant", "min_bet", "name")


def table_list_open(*, user, order: tuple[str, ...] = ("name",)) -> QuerySet:
    """The open tables of the user's pits, in `order`."""
    return floor_selectors.table_list(user=user).filter(is_active=True).order_by(*order)


def shoe_open_by_table(*, user, tables) -> dict:
    """{table id: its open shoe} among `tables`, of the shoes the user may see."""
    return {
        s.table_id: s
        for s in shoes_visible(user).filter(ended_at__isnull=True, table__in=tables).order_by("table_id", "number")
    }


def shoe_rounds_count(*, shoe: Shoe) -> int:
    """The rounds in force dealt from a shoe."""
    return shoe.rounds.filter(in_force_q()).count()


def shoe_list_of_table(*, user, table) -> QuerySet:
    """The shoes of a table the user may see."""
    return shoes_visible(user).filter(table=table).select_related("table", "shuffled_by")


def shoe_pick(*, shoes: QuerySet, number: int | None) -> Shoe | None:
    """Of `shoes` (shoe_list_of_table), the one numbered `number` (Http404 if none); without a
    number, the open one, or else the latest."""
    if number is not None:
        try:
            return shoes.get(number=number)
        except Shoe.DoesNotExist:
            raise Http404 from None
    return shoes.filter(ended_at__isnull=True).order_by("-number").first() or shoes.order_by("-number").first()


def shoe_list_others(*, shoes: QuerySet, shoe: Shoe | None) -> QuerySet:
    """Of `shoes`, the latest 12 other than `shoe`."""
    return shoes.exclude(pk=shoe.pk if shoe else None).order_by("-number")[:12]


def round_ids_visible_in_shoe(*, user, shoe: Shoe, among=None) -> set:
    """The ids of the rounds of a shoe the user may see (a dealer: those he dealt); of `among` (ids)
    only, when given (a page of the shoe)."""
    rounds = rounds_visible(user).filter(shoe=shoe)
    if among is not None:
        rounds = rounds.filter(pk__in=list(among))
    return set(rounds.values_list("pk", flat=True))


def round_find(*, user, pk: int) -> Round | None:
    """A round the user may see, with its table and dealer; None when there is none."""
    return rounds_visible(user).filter(pk=pk).select_related("table", "dealer").first()


def round_pending_correction(*, round: Round) -> Round | None:  # noqa: A002
    """The correction of a round awaiting a pit boss, if any (there is at most one)."""
    return Round.objects.filter(status_q(RoundStatus.PENDING), supersedes=round).first()


def round_has_pending_correction(*, round: Round) -> bool:  # noqa: A002
    return Round.objects.filter(status_q(RoundStatus.PENDING), supersedes=round).exists()


def round_list_pending_in_pits(*, user) -> QuerySet:
    """Every correction awaiting a pit boss in the user's pits (his own too: the queue shows them
    as waiting for another pit boss)."""
    return restrict(Round.objects.filter(status_q(RoundStatus.PENDING)), user, CHANGE).select_related(
        "table", "dealer", "logged_by", "supersedes"
    )


def round_get_in_pits(*, user, pk) -> Round:
    """A round of the user's pits (Http404 otherwise), for the pit boss's decision on it."""
    return _get(
        restrict(Round.objects.select_related("table__pit", "dealer", "logged_by", "supersedes"), user, CHANGE), pk
    )


def incident_pending_count_by_table(*, user, tables) -> dict:
    """{table id: how many reported incidents await a decision} among `tables`, of those the user may see."""
    pending: dict = {}
    for incident in incidents_visible(user).filter(status=IncidentStatus.REPORTED, table__in=tables):
        pending[incident.table_id] = pending.get(incident.table_id, 0) + 1
    return pending


def incident_list_of_round(*, user, round: Round) -> QuerySet:  # noqa: A002
    """The incidents of a round the user may see, with who reported them."""
    return incidents_visible(user).filter(round=round).select_related("reported_by")


def incident_list_reported_in_pits(*, user) -> QuerySet:
    """Every reported incident of the user's pits awaiting a decision (his own reports too)."""
    return restrict(Incident.objects.filter(status=IncidentStatus.REPORTED), user, CHANGE).select_related(
        "table", "dealer", "reported_by", "round"
    )


def incident_get_in_pits(*, user, pk) -> Incident:
    """An incident of the user's pits (Http404 otherwise), for the pit boss's decision on it."""
    return _get(
        restrict(Incident.objects.select_related("table__pit", "dealer", "reported_by", "round"), user, CHANGE), pk
    )


def dealer_list_of_pits(*, user) -> list:
    """The active dealers of the user's pits, by username."""
    users = (
        get_user_model().objects.filter(is_active=True, staff__pits__in=user_pits(user)).distinct().order_by("username")
    )
    return [u for u in users if has_role(u, DEALER)]


def incident_approvers(table_ids) -> dict[int, frozenset[str]]:
    """The usernames that may approve an incident at each table: active users in the pit boss
    group on the staff of its pit (a superuser only when he is one). The engine compares a log's `approved_by` with them."""
    from casino.models import Table
    from casino.roles import PIT_BOSS

    pits = dict(Table.objects.filter(pk__in=list(set(table_ids))).values_list("pk", "pit_id"))
    names: dict[int, set[str]] = {}
    wanted = set(pits.values())
    for pit_id, username in (
        get_user_model()
        .objects.filter(is_active=True, groups__name=PIT_BOSS, staff__pits__in=wanted)
        .values_list("staff__pits", "username")
        .distinct()
    ):
        if pit_id in wanted:
            names.setdefault(pit_id, set()).add(username)
    return {pk: frozenset(names.get(pit_id, ())) for pk, pit_id in pits.items()}


def incident_procedure(incident: Incident) -> list[dict]:
    """The incident record's departures from its game's procedure (seed 004 for ochko), each with its
    code, severity, sentence in the reader's language, params and the rules page's line it breaks."""
    variant = incident.table.variant
    resolution = {"to": incident.to_box} if incident.resolution == "to_box" else incident.resolution
    lines = engine.incident_rule_lines(variant)
    return [
        {
            "code": f.code,
            "severity": f.severity,
            "message": finding_text(f),
            "params": f.params,
            "rule_line": lines.get(f.params.get("rule"), ""),
        }
        for f in engine.incident_findings(variant, incident.kind, incident.exposed, resolution)
    ]


def terminal_draft_held(table) -> TerminalDraft | None:
    """The round in progress at the table's terminal (dealing/draft_models.py), if any."""
    return (
        TerminalDraft.objects.select_related("held_by")
        .filter(table=table, left_behind_at__isnull=True, voided_at__isnull=True)
        .first()
    )


def terminal_drafts_left_behind(table) -> list[TerminalDraft]:
    """Rounds the terminal was following when a new shoe came or the shift closed, not yet voided:
    the pit boss's to decide on (never dropped)."""
    return list(
        TerminalDraft.objects.select_related("held_by")
        .filter(table=table, left_behind_at__isnull=False, voided_at__isnull=True)
        .order_by("left_behind_at")
    )


def table_with_pit(name: str) -> Table | None:
    """`Table.objects.select_related("pit").filter(name=name).first()` in SQL of its own: the terminal
    asks at every entry, and the ORM's building of the query cost more CPU than the query."""
    table_fields, pit_fields, sql = _table_with_pit_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql, [name])
        row = cursor.fetchone()
    if row is None:
        return None
    table = model_from_row(Table, table_fields, row[: len(table_fields)])
    Table._meta.get_field("pit").set_cached_value(table, model_from_row(Pit, pit_fields, row[len(table_fields) :]))
    return table


@functools.cache
def _table_with_pit_sql() -> tuple[list, list, str]:
    table_fields, pit_fields = list(Table._meta.concrete_fields), list(Pit._meta.concrete_fields)
    q = connection.ops.quote_name
    columns = [f"t.{q(f.column)}" for f in table_fields] + [f"p.{q(f.column)}" for f in pit_fields]
    sql = (
        f"SELECT {', '.join(columns)} FROM {q(Table._meta.db_table)} t "
        f"JOIN {q(Pit._meta.db_table)} p ON p.{q(Pit._meta.pk.column)} = t.{q(Table._meta.get_field('pit').column)} "
        f"WHERE t.{q(Table._meta.get_field('name').column)} = %s"
    )
    return table_fields, pit_fields, sql
