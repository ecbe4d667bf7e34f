"""Logging a round: checked from end to end (the table, who logs it, the engine's replay, what
fits the columns), then written at the end of its table's chain in one short locked transaction."""

import uuid
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.errors import ServiceError
from casino.finding_words import finding_text
from casino.models import Table
from dealing import chain, engine, hooks, selectors
from dealing.access import check_may_log_at, check_may_log_for, dealer_of
from dealing.engine.base import PAY, TAKE, rules_jsonable
from dealing.errors import engine_error, refuse

from ..choices import RoundStatus
from ..models import Round, Shoe, Stake
from .chain_link import Link, TableChanged
from .documents import MONEY_LIMIT, complete_document, played_at_of, read_document
from .shoes import shoe_ended_error, shoe_number_of, unknown_shoe_error

User = get_user_model()

# What the database columns hold (dealing.models): longer values are refused, not cut.
PLAYER_MAX = Stake._meta.get_field("player").max_length
STAKE_ID_MAX = Stake._meta.get_field("stake_id").max_length
BOX_MAX = 32767  # PositiveSmallIntegerField on every database


@dataclass
class _Prepared:
    """A round checked from end to end and ready to be written: nothing is stored before this exists."""

    table: Table
    dealer: object
    document: dict  # JSON-safe, as stored
    outcome: engine.Outcome
    stakes: list["StakeRow"]  # without their round yet
    # The table's columns as read when the round was checked (a looked-up table; None for one the
    # caller gave): its lock re-reads them, and the round is written only if they are unchanged.
    table_row: tuple | None = None
    played_at: object = None  # the document's `played_at`, read; None: dealt when logged


def round_log(*, document, logged_by, table: Table | None = None) -> tuple[Round, bool]:
    """Store a `round/1` document as a new round of its table. Returns (round, created).

    `document` is a dict or the raw JSON text/bytes (read exactly: amounts never pass through a
    float). The table (named in the document, or given) supplies the limits and house rules in
    force; the dealer defaults to the user logging it. The same `id` sent again returns the stored
    round (created False); the same `id` with a different body is refused with status 409.

    A new record carries the engine's replay as `record.outcome` (not stored), so a caller showing
    the findings need not replay the round again.
    """
    doc = read_document(document)
    prepared = _prepare_at(doc, table, logged_by)
    attempt = changes = 0
    while True:
        try:
            with transaction.atomic():
                record = round_append(prepared, logged_by=logged_by)
        except TableChanged:
            changes += 1
            if changes == 3:
                raise refuse(
                    _("Table %(table)s is being changed; log the round again.") % {"table": prepared.table.name},
                    "table_changing",
                    status=409,
                ) from None
            prepared = _prepare_at(doc, table, logged_by)
            continue
        except (IntegrityError, ServiceError) as exc:
            # Most often the same round sent again (its id is taken, by an earlier or a concurrent
            # request; or its shoe has ended since): answer with the stored round. Checking after
            # a failed write rather than before every write saves new rounds a query.
            existing = _same_round(prepared.document, logged_by)
            if existing is not None:
                return existing, False
            attempt += 1
            if attempt == 3 or not isinstance(exc, IntegrityError):
                raise
            # SQLite has no row locks: a concurrent writer may have taken the link; try again.
            continue
        record.outcome = prepared.outcome
        return record, True


def _prepare_at(doc: dict, table: Table | None, logged_by) -> _Prepared:
    """The round checked at its table (the one named in it, or `table`), by a user who works there.

    A table looked up by name may come from this process's cache (`Link.table_named`): a round
    accepted against it is written only if the table's lock reads the same row, and a round
    refused against it (or whose check met a pit that is gone) is checked once more against the
    table as stored now, so a change to the table is never missed either way."""
    found = table_of_document(doc, table)
    try:
        return _prepare_found(doc, found, logged_by)
    except (ServiceError, ObjectDoesNotExist):  # judged against a table as it no longer is?
        if found[1] is None or not Link.forget_if_changed(found[1]):
            raise
    return _prepare_found(doc, table_of_document(doc, table), logged_by)


def _prepare_found(doc: dict, found: tuple[Table, tuple | None], logged_by) -> _Prepared:
    table, row = found
    check_may_log_at(logged_by, table)
    return round_prepare(doc, table=table, logged_by=logged_by, table_row=row)


def table_of_document(doc: dict, table: Table | None) -> tuple[Table, tuple | None]:
    """The table the round is logged at, and the row it was read from (None for a given table)."""
    raw = doc.get("table")
    name = raw.get("name") if isinstance(raw, dict) else None
    if table is not None:
        if name is not None and name != table.name:
            raise refuse(
                _('The round names table "%(name)s", but it is being logged at table %(table)s.')
                % {"name": name, "table": table.name},
                "table_mismatch",
                path="$.table.name",
            )
        return table, None
    if not isinstance(name, str) or not name:
        raise refuse(
            _('The round does not name its table: give "table": {"name": …}.'), "table_required", path="$.table.name"
        )
    found = Link.table_named(name)
    if found is None:
        raise refuse(_('There is no table named "%(name)s".') % {"name": name}, "unknown_table", path="$.table.name")
    return found


def round_prepare(
    doc: dict, *, table: Table, logged_by, supersedes: Round | None = None, table_row: tuple | None = None
) -> _Prepared:
    """Complete, check and replay a document; compute its stake rows. Writes nothing."""
    doc = complete_document(doc, table=table, logged_by=logged_by)
    played_at = played_at_of(doc, table)
    dealer = _dealer(doc, table, logged_by)
    check_may_log_for(logged_by, table, dealer, supersedes)
    try:
        outcome = engine.replay(doc, approvers=_approvers(doc, table))
    except engine.RoundError as exc:
        raise engine_error(exc) from None
    refuse_impossible(outcome)
    stored = chain.json_safe(doc)
    return _Prepared(
        table=table,
        dealer=dealer,
        document=stored,
        outcome=outcome,
        stakes=stake_rows(stored, outcome),
        table_row=table_row,
        played_at=played_at,
    )


def _approvers(doc: dict, table: Table):
    """Who may approve the log's incidents (read only when it has one): the audit asks the same."""
    events = doc.get("events")
    if isinstance(events, list) and any(isinstance(ev, dict) and ev.get("e") == "incident" for ev in events):
        return selectors.incident_approvers([table.pk]).get(table.pk, frozenset())
    return None


def refuse_impossible(outcome) -> None:
    """A round that cannot have happened (the engine's IMPOSSIBLE findings) is refused with the
    engine's reason and stored nowhere; a dealer's mistakes are stored with the round."""
    found = engine.impossible(outcome.findings)
    if found:
        first = found[0]
        raise refuse(
            _("This round cannot have happened, so it is not stored: %(reason)s") % {"reason": finding_text(first)},
            "impossible_round",
            status=422,
            event=first.event,
            findings=[f.to_dict() for f in found],
        )


def _dealer(doc: dict, table: Table, logged_by):
    username = doc["dealer"]
    if username == logged_by.get_username():
        dealer = logged_by
    else:
        dealer = User.objects.filter(username=username, is_active=True).first()
    if not dealer_of(table, dealer):
        raise refuse(
            _('"%(dealer)s" is not a dealer of pit %(pit)s, where table %(table)s stands.')
            % {"dealer": username, "pit": table.pit.name, "table": table.name},
            "unknown_dealer",
            path="$.dealer",
        )
    return dealer


def _same_round(stored: dict, user) -> Round | None:
    """The stored round with this id, when it is the same round; a different body is a conflict.
    The conflict names the stored round only to those who may see it: ids are the sender's to choose,
    and the round holding one may be another pit's."""
    original = Round.objects.filter(uid=stored["id"], revision=1).select_related("table", "shoe", "dealer").first()
    if original is None:
        return None
    if chain.canonical_json(original.document) != chain.canonical_json(stored):
        visible = selectors.rounds_visible(user).filter(pk=original.pk).exists()
        raise refuse(
            _("A different round with the id %(id)s is already stored.") % {"id": stored["id"]},
            "id_conflict",
            status=409,
            round=original.pk if visible else None,
        )
    return original


def round_append(
    prepared: _Prepared,
    *,
    logged_by,
    revision: int = 1,
    supersedes: Round | None = None,
    status: str = RoundStatus.RECORDED,
    amendment_reason: str = "",
) -> Round:
    """Write one record at the end of its table's chain (inside the caller's transaction).

    From the table's lock to the commit, the writers of one table wait for each other: the work in
    between is kept to a few short statements (see `Link`), everything else is done before.
    """
    table = prepared.table
    outcome = prepared.outcome
    record = Round(
        uid=uuid.UUID(prepared.document["id"]),
        table=table,
        dealer=prepared.dealer,
        variant=table.variant,
        house_rules=chain.json_safe(rules_jsonable(engine.house_rules(table.variant, table.rules))),
        table_min=Decimal(str(prepared.document["table"]["min"])),
        table_max=Decimal(str(prepared.document["table"]["max"])),
        document=prepared.document,
        revision=revision,
        supersedes=supersedes,
        amendment_reason=amendment_reason,
        logged_by=logged_by,
        float_owed=chain.money_column(outcome.float),
        float_logged=chain.money_column(logged_float(outcome)),
    )
    # A new round takes the next place in its shoe (the one it names, or the table's open one); an
    # amendment keeps the place of the round it corrects.
    reference = prepared.document.get("shoe") if supersedes is None else None
    number = shoe_number_of(table, reference) if reference else None
    last, shoe = Link.lock_table(
        table, take_slot=supersedes is None, shoe_number=number, expected_row=prepared.table_row
    )
    record.chain_index = 0 if last is None else last.chain_index + 1
    record.prev_sha256 = "" if last is None else last.sha256
    record.shoe, record.position, record.number = _shoe_slot(table, reference, number, supersedes, last, shoe)
    # The round's number at its table: a correction keeps the number of the round it corrects.
    record.table_round = supersedes.table_round if supersedes is not None else Link.next_table_round(table, last)
    if supersedes is None and record.shoe is not None:
        limit = selectors.shoe_round_limit(record.shoe)
        if limit is not None and record.number == limit + 1:  # the round that overfills it, said once
            hooks.shoe_overfull(record.shoe.pk)
    record.logged_at = timezone.now()
    # A correction was dealt when the round it corrects was, unless it says otherwise.
    if prepared.played_at is not None:
        record.played_at = prepared.played_at
    else:
        record.played_at = supersedes.played_at if supersedes is not None else record.logged_at
    chain.seal_round(record, prepared.stakes, supersedes_sha256=None if supersedes is None else supersedes.sha256)
    Link.insert(record, prepared.stakes)
    record.status = status  # derived from the facts beside it; a new record has none yet
    hooks.round_written(record.pk)
    if status == RoundStatus.RECORDED:
        hooks.round_recorded(record.pk)
    return record


def _shoe_slot(
    table: Table, reference, number: int | None, supersedes: Round | None, last: Link | None, shoe: Shoe | None
):
    """The shoe a round belongs to (locked, its place taken: `shoe`) and its place there: an
    amendment keeps the original's place. `reference` is the shoe the round names ("R-1/3", whose
    `number` is 3) or None for the table's open one; `last` is the table's last link, which
    usually tells the shoe's round count."""
    if supersedes is not None:
        return supersedes.shoe, supersedes.position, supersedes.number
    if shoe is None:
        if reference:
            named = Shoe.objects.filter(table=table, number=number).first()
            raise unknown_shoe_error(table, reference) if named is None else shoe_ended_error(named)
        return None, None, None
    position = shoe.next_position - 1
    if last is not None and last.shoe_id == shoe.pk and last.supersedes_id is None and last.number:
        dealt = last.number
    else:
        dealt = (
            Round.objects.filter(shoe=shoe, supersedes__isnull=True)
            .order_by("-position")
            .values_list("number", flat=True)
            .first()
        ) or 0
    return shoe, position, dealt + 1


def logged_float(outcome) -> Decimal:
    total = Decimal(0)
    for s in outcome.settled:
        if s.result == TAKE and s.amount is not None:
            total += s.amount
        elif s.result == PAY:
            total -= s.amount
    return total


class StakeRow:
    """One Stake row to be written: its columns' values by attribute name (`round_id` set when its
    round has an id). Lighter than a `Stake` instance, and every round logged makes several."""

    __slots__ = tuple(f.attname for f in Stake._meta.concrete_fields if not f.primary_key)

    def __init__(self, *, round_id=None, **values):
        self.round_id = round_id
        for name, value in values.items():
            setattr(self, name, value)


def stake_rows(document: dict, outcome) -> list[StakeRow]:
    """The Stake rows of a round (not saved, no round yet); refused when a value would not fit its column."""
    owed: dict[str, Decimal] = {}
    sizes: dict[tuple, Decimal] = {}
    if outcome.wagers is not None:
        for w in outcome.wagers:
            owed[w.stake] = owed.get(w.stake, Decimal(0)) + w.delta
            sizes[(w.stake, w.wager)] = sizes.get((w.stake, w.wager), Decimal(0)) + w.size
    paid: dict[str, Decimal] = {}
    for s in outcome.settled:
        size = sizes.get((s.stake, s.wager))
        paid[s.stake] = paid.get(s.stake, Decimal(0)) + s.delta(size)
    rows = []
    money = chain.money_column
    for i, item in enumerate(document["stakes"]):
        sid = item["id"]
        path = f"$.stakes[{i}]"
        player = item.get("player") or ""
        player = player if isinstance(player, str) else str(player)
        if len(sid) > STAKE_ID_MAX:
            raise refuse(
                _("A stake id has at most %(n)d characters.") % {"n": STAKE_ID_MAX}, "too_long", path=f"{path}.id"
            )
        if len(player) > PLAYER_MAX:
            raise refuse(
                _("A player's name has at most %(n)d characters.") % {"n": PLAYER_MAX},
                "too_long",
                path=f"{path}.player",
            )
        box = item.get("box", item.get("seat"))
        ante = item.get("ante")
        dealer_bet = item.get("dealer_bet")
        bet = sizes.get((sid, "bet"))
        if bet is None and item.get("bet") is not None:
            bet = Decimal(str(item["bet"]))
        # Each amount as its column stores it (chain.money_column), so the link covers what is stored.
        row = StakeRow(
            stake_id=sid,
            box=box if type(box) is int and 0 <= box <= BOX_MAX else None,
            player=player,
            ante=money(ante),
            bet=money(bet),
            dealer_bet=money(dealer_bet),
            owed_net=money(owed.get(sid)) if outcome.wagers is not None else None,
            paid_net=money(paid.get(sid, Decimal(0))),
        )
        for value in (row.ante, row.bet, row.dealer_bet, row.owed_net, row.paid_net):
            if value is not None and abs(value) >= MONEY_LIMIT:
                raise refuse(
                    _("The amounts of stake %(stake)s are too large to be stored.") % {"stake": sid},
                    "amount_too_large",
                    path=path,
                )
        rows.append(row)
    for value in (outcome.float, logged_float(outcome)):
        if value is not None and abs(value) >= MONEY_LIMIT:
            raise refuse(_("The round's amounts are too large to be stored."), "amount_too_large", path="$")
    return rows
