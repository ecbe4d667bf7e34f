"""Every write of dealing: plain functions, keyword-only arguments, validated by the engine first.

A refused write raises `ServiceError` and stores nothing: each service runs in one transaction,
and the engine reads the whole document before anything is written.
"""

import uuid
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.errors import ServiceError
from casino.models import Table
from casino.roles import DEALER, PIT_BOSS, has_role, user_pits
from dealing import engine
from dealing.engine.base import PAY, TAKE, rules_jsonable
from dealing.engine.money import fmt, parse_amount

from . import chain
from .choices import AuditStatus, RoundStatus
from .models import Round, Shoe, Stake

User = get_user_model()


def engine_error(exc: engine.RoundError) -> ServiceError:
    """The engine's refusal as a 400: the sentence, and where (code, JSON path, event index)."""
    return ServiceError(exc.message, extra={"code": exc.code, "path": exc.path, "event": exc.event})


# --- logging a round -------------------------------------------------------------------------------

def round_log(*, document, logged_by, table: Table | None = None) -> tuple[Round, bool]:
    """Store a `round/1` document as a new round of its table. Returns (round, created).

    The table (named in the document, or given) supplies the limits and house rules in force; the
    dealer defaults to the user logging it. The same `id` sent again returns the stored round
    (created False); the same `id` with a different body is refused with status 409.
    """
    doc = _read(document)
    table = table or _table_named(doc)
    doc = complete_document(doc, table=table, logged_by=logged_by)
    dealer = _dealer(doc, table)
    _check_may_log(logged_by, table, dealer)
    try:
        outcome = engine.replay(doc)
    except engine.RoundError as exc:
        raise engine_error(exc) from None
    stored = chain.json_safe(doc)
    existing = _same_round(stored)
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            record = _append(table=table, document=stored, outcome=outcome, dealer=dealer, logged_by=logged_by)
    except IntegrityError:
        # The same id stored a moment ago by a concurrent request: answer as for a repeat.
        existing = _same_round(stored)
        if existing is None:
            raise
        return existing, False
    return record, True


def _read(document) -> dict:
    try:
        return engine.load(document)
    except engine.RoundError as exc:
        raise engine_error(exc) from None


def _table_named(doc: dict) -> Table:
    raw = doc.get("table")
    name = raw.get("name") if isinstance(raw, dict) else None
    if not isinstance(name, str) or not name:
        raise ServiceError(_("The round does not name its table: give \"table\": {\"name\": …}."),
                           extra={"code": "table_required", "path": "$.table.name", "event": None})
    table = Table.objects.select_related("pit").filter(name=name).first()
    if table is None:
        raise ServiceError(_("There is no table named \"%(name)s\".") % {"name": name},
                           extra={"code": "unknown_table", "path": "$.table.name", "event": None})
    return table


def complete_document(doc: dict, *, table: Table, logged_by) -> dict:
    """The document as it will be stored: the table's name, limits and house rules in force, the
    dealer's username and an id, filled in where the client left them out.

    Anything the client did give must agree with the stored table: a round logged against other
    limits or other house rules is refused rather than silently re-read.
    """
    doc = dict(doc)
    if doc.get("variant") != table.variant:
        raise ServiceError(
            _("Table %(table)s plays %(variant)s, but the round is %(given)s.")
            % {"table": table.name, "variant": table.variant, "given": doc.get("variant")},
            extra={"code": "variant_mismatch", "path": "$.variant", "event": None})
    given = doc.get("table") if isinstance(doc.get("table"), dict) else {}
    out_table = dict(given)
    out_table["name"] = table.name
    for key, value in (("min", table.min_bet), ("max", table.max_bet)):
        if key in given:
            try:
                sent = parse_amount(given[key], f"$.table.{key}")
            except engine.RoundError as exc:
                raise engine_error(exc) from None
            if sent != value:
                raise ServiceError(
                    _("The round gives the table %(which)s as %(sent)s; table %(table)s's is %(value)s.")
                    % {"which": _("minimum") if key == "min" else _("maximum"), "sent": fmt(sent),
                       "table": table.name, "value": fmt(value)},
                    extra={"code": "limits_mismatch", "path": f"$.table.{key}", "event": None})
        out_table[key] = value
    doc["table"] = out_table
    in_force = engine.house_rules(table.variant, table.rules)
    if "rules" in doc and doc["rules"] is not None:
        try:
            sent_rules = engine.house_rules(table.variant, doc["rules"])
        except engine.RoundError as exc:
            raise engine_error(exc) from None
        if sent_rules != in_force:
            differ = sorted(k for k in in_force if sent_rules.get(k) != in_force.get(k))
            raise ServiceError(
                _("The round's house rules differ from table %(table)s's (%(rules)s).")
                % {"table": table.name, "rules": ", ".join(differ)},
                extra={"code": "rules_mismatch", "path": "$.rules", "event": None, "rules": differ})
    doc["rules"] = dict(table.rules or {})
    if not doc.get("dealer"):
        doc["dealer"] = logged_by.get_username()
    if doc.get("id") is None:
        doc["id"] = str(uuid.uuid4())
    else:
        try:
            doc["id"] = str(uuid.UUID(str(doc["id"])))
        except ValueError:
            raise ServiceError(_("The round's id must be a UUID, such as b7e4c2d0-5a1f-4a3e-9d51-0c7f2f0a9e11."),
                               extra={"code": "bad_id", "path": "$.id", "event": None}) from None
    return doc


def _dealer(doc: dict, table: Table):
    username = doc["dealer"]
    dealer = User.objects.filter(username=username, is_active=True).first()
    if dealer is None or not has_role(dealer, DEALER) or not user_pits(dealer).filter(pk=table.pit_id).exists():
        raise ServiceError(
            _("\"%(dealer)s\" is not a dealer of pit %(pit)s, where table %(table)s stands.")
            % {"dealer": username, "pit": table.pit.name, "table": table.name},
            extra={"code": "unknown_dealer", "path": "$.dealer", "event": None})
    return dealer


def _check_may_log(user, table: Table, dealer) -> None:
    """A dealer logs the rounds he deals at tables of his pits; a pit boss logs for his pits' dealers."""
    if user.is_superuser:
        return
    in_pit = user_pits(user).filter(pk=table.pit_id).exists()
    if has_role(user, PIT_BOSS) and in_pit:
        return
    if has_role(user, DEALER) and in_pit and dealer.pk == user.pk:
        return
    raise ServiceError(_("You may not log rounds of %(dealer)s at table %(table)s.")
                       % {"dealer": dealer.get_username(), "table": table.name},
                       extra={"code": "forbidden"}, status=403)


def _same_round(stored: dict) -> Round | None:
    """The stored round with this id, when it is the same round; a different body is a conflict."""
    original = Round.objects.filter(uid=stored["id"], revision=1).first()
    if original is None:
        return None
    if chain.canonical_json(original.document) != chain.canonical_json(stored):
        raise ServiceError(
            _("A different round with the id %(id)s is already stored.") % {"id": stored["id"]},
            extra={"code": "id_conflict", "round": original.pk}, status=409)
    return original


def _append(*, table: Table, document: dict, outcome, dealer, logged_by, revision: int = 1,
            supersedes: Round | None = None, status: str = RoundStatus.RECORDED,
            amendment_reason: str = "") -> Round:
    """Write one record at the end of its table's chain (inside the caller's transaction)."""
    # Locking the table row serialises writers of one table, so two rounds never share a link.
    Table.objects.select_for_update().filter(pk=table.pk).first()
    last = Round.objects.filter(table=table).order_by("-chain_index").only("chain_index", "sha256").first()
    chain_index = 0 if last is None else last.chain_index + 1
    prev = "" if last is None else last.sha256
    shoe, position, number = _shoe_slot(table, document, supersedes)
    logged_at = timezone.now()
    house_rules = chain.json_safe(rules_jsonable(engine.house_rules(table.variant, table.rules)))
    record = Round(
        uid=document["id"], table=table, shoe=shoe, position=position, number=number, dealer=dealer,
        variant=table.variant, house_rules=house_rules, table_min=table.min_bet, table_max=table.max_bet,
        document=document, chain_index=chain_index, prev_sha256=prev, revision=revision, supersedes=supersedes,
        amendment_reason=amendment_reason, logged_by=logged_by, logged_at=logged_at, status=status,
        float_owed=outcome.float, float_logged=_logged_float(outcome),
    )
    record.sha256 = chain.round_hash(record)
    record.save(force_insert=True)
    Stake.objects.bulk_create(_stake_rows(record, document, outcome))
    if status == RoundStatus.RECORDED:
        _queue_audit(record)
    return record


def _shoe_slot(table: Table, document: dict, supersedes: Round | None):
    """The shoe a round belongs to and its place there: an amendment keeps the original's place."""
    if supersedes is not None:
        return supersedes.shoe, supersedes.position, supersedes.number
    shoe = shoe_for_round(table=table, reference=document.get("shoe"))
    if shoe is None:
        return None, None, None
    shoe = Shoe.objects.select_for_update().get(pk=shoe.pk)
    position = shoe.next_position
    number = shoe.rounds.filter(supersedes__isnull=True).count() + 1
    Shoe.objects.filter(pk=shoe.pk).update(next_position=position + 1)
    return shoe, position, number


def shoe_reference(shoe: Shoe) -> str:
    return f"{shoe.table.name}/{shoe.number}"


def shoe_for_round(*, table: Table, reference) -> Shoe | None:
    """The shoe a round names ("R-1/3"), or the table's open shoe when it names none."""
    if reference:
        name, _sep, number = str(reference).rpartition("/")
        shoe = None
        if name == table.name and number.isdigit():
            shoe = Shoe.objects.filter(table=table, number=int(number)).first()
        if shoe is None:
            raise ServiceError(_("Table %(table)s has no shoe \"%(shoe)s\" (shoes are named like %(example)s).")
                               % {"table": table.name, "shoe": reference, "example": f"{table.name}/1"},
                               extra={"code": "unknown_shoe", "path": "$.shoe", "event": None})
        return shoe
    return Shoe.objects.filter(table=table, ended_at__isnull=True).order_by("-number").first()


def _logged_float(outcome) -> Decimal:
    total = Decimal(0)
    for s in outcome.settled:
        if s.result == TAKE and s.amount is not None:
            total += s.amount
        elif s.result == PAY:
            total -= s.amount
    return total


def _stake_rows(record: Round, document: dict, outcome) -> list[Stake]:
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
    for item in document["stakes"]:
        sid = item["id"]
        ante = item.get("ante")
        dealer_bet = item.get("dealer_bet")
        rows.append(Stake(
            round=record, stake_id=sid, box=item.get("box", item.get("seat")), player=item.get("player", ""),
            ante=None if ante is None else Decimal(str(ante)),
            bet=sizes.get((sid, "bet")) if (sid, "bet") in sizes else (
                Decimal(str(item["bet"])) if item.get("bet") is not None else None),
            dealer_bet=None if dealer_bet is None else Decimal(str(dealer_bet)),
            owed_net=owed.get(sid) if outcome.wagers is not None else None,
            paid_net=paid.get(sid, Decimal(0)),
        ))
    return rows


def _queue_audit(record: Round) -> None:
    from audit.tasks import audit_round

    round_id = record.pk
    transaction.on_commit(lambda: audit_round.delay(round_id))


# --- what the audit writes back ----------------------------------------------------------------------

def round_record_audit(*, round_id: int, status: str, engine_version: str) -> None:
    """The audit's verdict on a round: the only fields of a round record that change after writing."""
    if status not in AuditStatus.values:
        raise ValueError(status)
    Round.objects.filter(pk=round_id).update(audit_status=status, engine_version=engine_version,
                                             audited_at=timezone.now())
