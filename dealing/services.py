"""Every write of dealing: plain functions, keyword-only arguments, validated by the engine first.

A refused write raises `ServiceError` (a sentence for the user; `extra` with a stable `code` and,
for a round, the JSON `path` and `event` index) and stores nothing: each service reads and checks
everything first and writes in one transaction.

    shoe_start, shoe_end, shoe_burn, shoe_dealer_change          the shoe and what happens between rounds
    round_log, round_amend, round_amendment_decide               rounds, their corrections, the pit boss's word
    incident_report, incident_decide                             incidents and the pit boss's word
    round_record_audit                                           the audit's verdict (audit.tasks)

Who may do what is checked here, so pages and the API cannot disagree (casino.roles):
a dealer logs the rounds he deals at his pits' tables; a pit boss logs and corrects for his pits;
an inspector or pit boss reports incidents; only a pit boss of the table's pit decides, never on
what he reported, dealt or amended himself (four eyes).
"""

import json
import uuid
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.dispatch import queue_round_audits
from casino.db import model_from_row
from casino.errors import ServiceError
from casino.models import Table
from casino.roles import DEALER, INSPECTOR, PIT_BOSS, has_role, user_pits
from dealing import engine
from dealing.engine import cards as engine_cards
from dealing.engine import document as engine_document
from dealing.engine.base import PAY, TAKE, rules_jsonable
from dealing.engine.money import fmt, parse_amount

from . import chain, input_limits, selectors
from .choices import (
    AuditStatus, BurnReason, Decision, IncidentKind, IncidentStatus, Resolution, RoundStatus, ShoeEventKind,
)
from .models import Approval, Incident, Round, Shoe, ShoeEvent, Stake

User = get_user_model()

# What the database columns hold (dealing.models): longer values are refused, not cut.
PLAYER_MAX = Stake._meta.get_field("player").max_length
STAKE_ID_MAX = Stake._meta.get_field("stake_id").max_length
BOX_MAX = 32767  # PositiveSmallIntegerField on every database
MONEY_LIMIT = Decimal(10) ** 12  # MONEY: 14 digits, 2 of them decimals
# A round log is a shallow document; anything nested deeper is not one.
MAX_DEPTH = 24
MAX_EXPONENT = 40


def engine_error(exc: engine.RoundError) -> ServiceError:
    """The engine's refusal as a 400: the sentence, and where (code, JSON path, event index)."""
    return ServiceError(exc.message, extra={"code": exc.code, "path": exc.path, "event": exc.event})


def _refuse(message: str, code: str, *, status: int = 400, path: str | None = None, event: int | None = None,
            **extra) -> ServiceError:
    return ServiceError(message, extra={"code": code, "path": path, "event": event, **extra}, status=status)


# --- who may do what -------------------------------------------------------------------------------

def works_at(user, table: Table) -> bool:
    """The user works in the pit of this table (superusers and auditors: every pit). The user's pits
    are read once and kept on the user object (which lives for one request); API token
    authentication reads them with the token (casino.authentication.PITS_CACHE)."""
    pits = user.__dict__.get("_dealing_pits")
    if pits is None:
        pits = user.__dict__["_dealing_pits"] = frozenset(user_pits(user).values_list("pk", flat=True))
    return table.pit_id in pits


def _staff_of(user, table: Table, *roles: str) -> bool:
    return has_role(user, *roles) and works_at(user, table)


def _require(user, table: Table, roles: tuple[str, ...], message: str) -> None:
    """403 unless the user holds one of `roles` in the table's pit. `message` may name the
    %(pit)s and the %(table)s; it is only filled in when the answer is no."""
    if not _staff_of(user, table, *roles):
        raise _refuse(message % {"pit": table.pit.name, "table": table.name}, "forbidden", status=403)


def _dealer_of(table: Table, user) -> bool:
    return user is not None and user.is_active and _staff_of(user, table, DEALER)


def _require_pit_boss(user, table: Table) -> None:
    _require(user, table, (PIT_BOSS,),
             _("Only a pit boss of pit %(pit)s decides on what happens at table %(table)s."))


# --- shoes -------------------------------------------------------------------------------------------

def shoe_decks(table: Table) -> int:
    """Packs in a new shoe of this table: ochko 8, blackjack its preset's `decks`, veintiuno `packs`."""
    rules = engine.house_rules(table.variant, table.rules)
    for key in ("decks", "packs"):
        if isinstance(rules.get(key), int):
            return rules[key]
    return engine.variant(table.variant).DECKS


def shoe_start(*, table: Table, shuffled_by, decks: int | None = None, loaded_at=None) -> Shoe:
    """Load a freshly shuffled shoe at a table: the open shoe (if any) ends, the new one records its shuffle."""
    _require(shuffled_by, table, (DEALER, PIT_BOSS),
             _("Only a dealer or pit boss of pit %(pit)s loads a shoe at table %(table)s."))
    if not table.is_active:
        raise _refuse(_("Table %(table)s is closed.") % {"table": table.name}, "table_closed")
    if decks is None:
        decks = shoe_decks(table)
    elif type(decks) is not int or not 1 <= decks <= 16:
        raise _refuse(_("A shoe holds from 1 to 16 packs."), "bad_decks", path="decks")
    now = timezone.now()
    loaded_at = loaded_at or now
    with transaction.atomic():
        Table.objects.select_for_update().filter(pk=table.pk).first()
        Shoe.objects.filter(table=table, ended_at__isnull=True).update(ended_at=max(now, loaded_at))
        number = (Shoe.objects.filter(table=table).aggregate(n=Max("number"))["n"] or 0) + 1
        shoe = Shoe.objects.create(table=table, number=number, decks=decks, loaded_at=loaded_at,
                                   shuffled_by=shuffled_by, next_position=2)
        ShoeEvent.objects.create(shoe=shoe, position=1, kind=ShoeEventKind.SHUFFLE, recorded_by=shuffled_by,
                                 recorded_at=loaded_at)
    return shoe


def shoe_end(*, shoe: Shoe, ended_by) -> Shoe:
    """End a shoe (the cut card came out, or the table closes)."""
    table = shoe.table
    _require(ended_by, table, (DEALER, PIT_BOSS),
             _("Only a dealer or pit boss of pit %(pit)s ends a shoe at table %(table)s."))
    with transaction.atomic():
        locked = _open_shoe(shoe)
        locked.ended_at = timezone.now()
        locked.save(update_fields=["ended_at"])
    shoe.ended_at = locked.ended_at
    return shoe


def _open_shoe(shoe: Shoe) -> Shoe:
    """The shoe's row, locked, while it is still open (inside the caller's transaction)."""
    locked = Shoe.objects.select_for_update().get(pk=shoe.pk)
    if locked.ended_at is not None:
        raise _shoe_ended(shoe)
    return locked


def _shoe_event(shoe: Shoe, **fields) -> ShoeEvent:
    with transaction.atomic():
        locked = _open_shoe(shoe)
        position = locked.next_position
        Shoe.objects.filter(pk=shoe.pk).update(next_position=position + 1)
        return ShoeEvent.objects.create(shoe=shoe, position=position, **fields)


def card_code(variant: str, card, *, path: str = "card") -> str:
    """A card in the engine's notation ("10h" → "TH"), refused unless the variant's pack holds it."""
    code = engine_cards.normalize(card) if isinstance(card, str) else None
    if code is None:
        raise _refuse(_("\"%(card)s\" is not a card: write rank and suit, like TS or AH.") % {"card": card},
                      "bad_card", path=path)
    if code not in engine.variant(variant).PACK:
        raise _refuse(_("%(card)s is not in the %(variant)s pack.") % {"card": engine_cards.label(code),
                                                                       "variant": variant},
                      "card_not_in_pack", path=path)
    return code


def shoe_burn(*, shoe: Shoe, card, reason: str, fee=None, recorded_by) -> ShoeEvent:
    """A card burned between rounds: after loading, on a dealer change, a paid burn (with its fee), other."""
    table = shoe.table
    _require(recorded_by, table, (DEALER, INSPECTOR, PIT_BOSS),
             _("Only the dealer, inspector or pit boss of pit %(pit)s records burns at table %(table)s."))
    code = card_code(table.variant, card)
    if reason not in BurnReason.values:
        raise _refuse(_("A burn's reason is one of: %(reasons)s.") % {"reasons": ", ".join(BurnReason.values)},
                      "bad_reason", path="reason")
    if reason == BurnReason.PAID:
        if fee is None or fee == "":
            raise _refuse(_("A paid burn needs the fee the player paid."), "fee_required", path="fee")
        try:
            fee = parse_amount(fee, "fee")
        except engine.RoundError:
            raise _refuse(_("The fee must be a positive amount with at most 2 decimals, such as 50 or \"7.50\"."),
                          "bad_fee", path="fee") from None
        if fee >= MONEY_LIMIT:
            raise _refuse(_("The fee is too large."), "bad_fee", path="fee")
    elif fee not in (None, ""):
        raise _refuse(_("Only a paid burn has a fee."), "fee_not_paid", path="fee")
    else:
        fee = None
    return _shoe_event(shoe, kind=ShoeEventKind.BURN, card=code, reason=reason, fee=fee, recorded_by=recorded_by)


def shoe_dealer_change(*, shoe: Shoe, dealer, recorded_by) -> ShoeEvent:
    """A new dealer takes the table (ochko: one card is burned before his first round)."""
    table = shoe.table
    _require(recorded_by, table, (DEALER, INSPECTOR, PIT_BOSS),
             _("Only the dealer, inspector or pit boss of pit %(pit)s records dealer changes at table "
               "%(table)s."))
    if not _dealer_of(table, dealer):
        raise _refuse(_("%(user)s is not a dealer of pit %(pit)s.") % {"user": dealer, "pit": table.pit.name},
                      "unknown_dealer", path="dealer")
    return _shoe_event(shoe, kind=ShoeEventKind.DEALER_CHANGE, dealer=dealer, recorded_by=recorded_by)


def shoe_reference(shoe: Shoe) -> str:
    """How a round names its shoe: "R-1/3"."""
    return f"{shoe.table.name}/{shoe.number}"


def shoe_for_round(*, table: Table, reference) -> Shoe | None:
    """The shoe a round names ("R-1/3"), or the table's open shoe when it names none."""
    if reference:
        shoe = Shoe.objects.filter(table=table, number=_shoe_number(table, reference)).first()
        if shoe is None:
            raise _unknown_shoe(table, reference)
        return shoe
    return Shoe.objects.filter(table=table, ended_at__isnull=True).order_by("-number").first()


def _shoe_number(table: Table, reference) -> int:
    name, _sep, number = str(reference).rpartition("/")
    if name != table.name or not (number.isascii() and number.isdigit()) or len(number) > 9:
        raise _unknown_shoe(table, reference)
    return int(number)


def _unknown_shoe(table: Table, reference) -> ServiceError:
    return _refuse(_("Table %(table)s has no shoe \"%(shoe)s\" (shoes are named like %(example)s).")
                   % {"table": table.name, "shoe": reference, "example": f"{table.name}/1"},
                   "unknown_shoe", path="$.shoe")


def _shoe_ended(shoe: Shoe) -> ServiceError:
    return _refuse(_("Shoe %(shoe)s has ended; start a new shoe first.") % {"shoe": shoe_reference(shoe)},
                   "shoe_ended", status=409)


# --- logging a round -------------------------------------------------------------------------------

@dataclass
class _Prepared:
    """A round checked from end to end and ready to be written: nothing is stored before this exists."""

    table: Table
    dealer: object
    document: dict  # JSON-safe, as stored
    outcome: engine.Outcome
    stakes: list["_StakeRow"]  # without their round yet
    # The table's columns as read when the round was checked (a looked-up table; None for one the
    # caller gave): its lock re-reads them, and the round is written only if they are unchanged.
    table_row: tuple | None = None


class _TableChanged(Exception):
    """The table's row changed between checking a round and locking it (its limits, rules, pit or
    name): the round is checked again against the table as it is now."""


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
                record = _append(prepared, logged_by=logged_by)
        except _TableChanged:
            changes += 1
            if changes == 3:
                raise _refuse(_("Table %(table)s is being changed; log the round again.")
                              % {"table": prepared.table.name}, "table_changing", status=409) from None
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


def read_document(document) -> dict:
    """A round document as a dict, read by the engine; refused when it could not be stored faithfully."""
    try:
        doc = engine.load(document)
        engine_document.header(doc, doc.get("variant"))
    except engine.RoundError as exc:
        raise engine_error(exc) from None
    _check_storable(doc)
    input_limits.check_round_input(doc)
    return dict(doc)


def _check_storable(doc: dict) -> None:
    """Refuse what the database could not keep exactly: NUL characters and unpaired surrogates in
    text, numbers too large to write out, documents nested beyond any round log.

    Every round passes through here, so a quick walk (`_plainly_storable`) first looks for
    anything to refuse; only when it finds something does the walk below, which says what and
    where, run. That walk carries where a value is as a link to its parent (`(parent's place, key
    or index)`) and spells the JSON path out only for a refusal."""
    if _plainly_storable(doc, 0):
        return
    stack = [(doc, 0, None)]
    pop, push = stack.pop, stack.append
    while stack:
        value, depth, place = pop()
        if depth > MAX_DEPTH:
            path = _json_path(place)
            raise _refuse(_("The document is nested too deeply at %(path)s.") % {"path": path}, "too_deep", path=path)
        kind = type(value)
        if kind is dict:
            for key, item in value.items():
                if "\x00" in key or not key.isascii():
                    _check_text(key, _json_path(place))
                push((item, depth + 1, (place, key)))
        elif kind is list:
            for i, item in enumerate(value):
                push((item, depth + 1, (place, i)))
        elif kind is str:
            if "\x00" in value or not value.isascii():
                _check_text(value, _json_path(place))
        elif kind is Decimal and (not value.is_finite() or abs(value.adjusted()) > MAX_EXPONENT):
            path = _json_path(place)
            raise _refuse(_("The number at %(path)s is out of range.") % {"path": path}, "bad_number", path=path)


def _plainly_storable(value, depth: int) -> bool:
    """True when `_check_storable`'s walk would refuse nothing in `value` (a dict or list at `depth`).
    False at the first doubt, which that walk then settles: a container whose items would lie
    beyond MAX_DEPTH, a key that is not plain ASCII, text with a NUL or that does not encode, a
    number out of range. Text and numbers are checked where they stand, without a call each."""
    if depth >= MAX_DEPTH:
        return False
    items = value.items() if type(value) is dict else enumerate(value)
    for key, item in items:
        if type(key) is str and ("\x00" in key or not key.isascii()):
            return False
        kind = type(item)
        if kind is str:
            if "\x00" in item or not (item.isascii() or _encodes(item)):
                return False
        elif kind is dict or kind is list:
            if not _plainly_storable(item, depth + 1):
                return False
        elif kind is Decimal and (not item.is_finite() or abs(item.adjusted()) > MAX_EXPONENT):
            return False
    return True


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _json_path(place) -> str:
    """`$.events[3].card` from the links `_check_storable` keeps."""
    steps = []
    while place is not None:
        place, step = place
        steps.append(f"[{step}]" if type(step) is int else f".{step}")
    return "$" + "".join(reversed(steps))


def _check_text(text: str, path: str) -> None:
    if "\x00" in text:
        raise _refuse(_("The text at %(path)s contains a NUL character.") % {"path": path}, "bad_text", path=path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise _refuse(_("The text at %(path)s is not valid Unicode.") % {"path": path}, "bad_text",
                      path=path) from None


def _prepare_at(doc: dict, table: Table | None, logged_by) -> _Prepared:
    """The round checked at its table (the one named in it, or `table`), by a user who works there.

    A table looked up by name may come from this process's cache (`_Link.table_named`): a round
    accepted against it is written only if the table's lock reads the same row, and a round
    refused against it (or whose check met a pit that is gone) is checked once more against the
    table as stored now, so a change to the table is never missed either way."""
    found = _table_for(doc, table)
    try:
        return _prepare_found(doc, found, logged_by)
    except (ServiceError, ObjectDoesNotExist):  # judged against a table as it no longer is?
        if found[1] is None or not _Link.forget_if_changed(found[1]):
            raise
    return _prepare_found(doc, _table_for(doc, table), logged_by)


def _prepare_found(doc: dict, found: tuple[Table, tuple | None], logged_by) -> _Prepared:
    table, row = found
    _check_may_log_at(logged_by, table)
    return _prepare(doc, table=table, logged_by=logged_by, table_row=row)


def _table_for(doc: dict, table: Table | None) -> tuple[Table, tuple | None]:
    """The table the round is logged at, and the row it was read from (None for a given table)."""
    raw = doc.get("table")
    name = raw.get("name") if isinstance(raw, dict) else None
    if table is not None:
        if name is not None and name != table.name:
            raise _refuse(_("The round names table \"%(name)s\", but it is being logged at table %(table)s.")
                          % {"name": name, "table": table.name}, "table_mismatch", path="$.table.name")
        return table, None
    if not isinstance(name, str) or not name:
        raise _refuse(_("The round does not name its table: give \"table\": {\"name\": …}."), "table_required",
                      path="$.table.name")
    found = _Link.table_named(name)
    if found is None:
        raise _refuse(_("There is no table named \"%(name)s\".") % {"name": name}, "unknown_table",
                      path="$.table.name")
    return found


def _prepare(doc: dict, *, table: Table, logged_by, supersedes: Round | None = None,
             table_row: tuple | None = None) -> _Prepared:
    """Complete, check and replay a document; compute its stake rows. Writes nothing."""
    doc = complete_document(doc, table=table, logged_by=logged_by)
    dealer = _dealer(doc, table, logged_by)
    _check_may_log_for(logged_by, table, dealer, supersedes)
    try:
        outcome = engine.replay(doc)
    except engine.RoundError as exc:
        raise engine_error(exc) from None
    stored = chain.json_safe(doc)
    return _Prepared(table=table, dealer=dealer, document=stored, outcome=outcome,
                     stakes=_stake_rows(stored, outcome), table_row=table_row)


def complete_document(doc: dict, *, table: Table, logged_by) -> dict:
    """The document as it will be stored: the table's name, limits and house rules in force, the
    dealer's username and an id, filled in where the client left them out.

    Anything the client did give must agree with the stored table: a round logged against other
    limits or other house rules is refused rather than silently re-read.
    """
    doc = dict(doc)
    if doc.get("variant") != table.variant:
        given = doc.get("variant")
        if type(given) is not str or given not in engine.VARIANTS:
            try:  # the engine's own words for a missing or unknown variant
                engine.replay(doc)
            except engine.RoundError as exc:
                raise engine_error(exc) from None
        raise _refuse(_("Table %(table)s plays %(variant)s, but the round is %(given)s.")
                      % {"table": table.name, "variant": table.variant, "given": given},
                      "variant_mismatch", path="$.variant")
    given = doc.get("table") if isinstance(doc.get("table"), dict) else {}
    out_table = dict(given)
    out_table["name"] = table.name
    out_table["min"], out_table["max"] = _limits(given, table)
    doc["table"] = out_table
    in_force = engine.house_rules(table.variant, table.rules)
    if doc.get("rules") is not None:
        try:
            sent_rules = engine.house_rules(table.variant, doc["rules"])
        except engine.RoundError as exc:
            raise engine_error(exc) from None
        if sent_rules != in_force:
            differ = sorted(k for k in in_force if sent_rules.get(k) != in_force.get(k))
            raise _refuse(_("The round's house rules differ from table %(table)s's (%(rules)s).")
                          % {"table": table.name, "rules": ", ".join(differ)},
                          "rules_mismatch", path="$.rules", rules=differ)
    doc["rules"] = dict(table.rules or {})
    if not doc.get("dealer"):
        doc["dealer"] = logged_by.get_username()
    if doc.get("id") is None:
        doc["id"] = str(uuid.uuid4())
    else:
        try:
            doc["id"] = str(uuid.UUID(str(doc["id"])))
        except ValueError:
            raise _refuse(_("The round's id must be a UUID, such as b7e4c2d0-5a1f-4a3e-9d51-0c7f2f0a9e11."),
                          "bad_id", path="$.id") from None
    return doc


def _limits(given: dict, table: Table) -> tuple[Decimal, Decimal]:
    """The limits in force for the round: the table's. At veintiuno each bank announces its own,
    which must lie within the table's."""
    limits = {"min": table.min_bet, "max": table.max_bet}
    for key in ("min", "max"):
        if key not in given:
            continue
        try:
            sent = parse_amount(given[key], f"$.table.{key}")
        except engine.RoundError as exc:
            raise engine_error(exc) from None
        if table.variant == "veintiuno":
            if not table.min_bet <= sent <= table.max_bet:
                raise _refuse(
                    _("The bank's %(which)s of %(sent)s lies outside table %(table)s's limits (%(min)s to %(max)s).")
                    % {"which": _("minimum") if key == "min" else _("maximum"), "sent": fmt(sent),
                       "table": table.name, "min": fmt(table.min_bet), "max": fmt(table.max_bet)},
                    "limits_mismatch", path=f"$.table.{key}")
        elif sent != limits[key]:
            raise _refuse(
                _("The round gives the table %(which)s as %(sent)s; table %(table)s's is %(value)s.")
                % {"which": _("minimum") if key == "min" else _("maximum"), "sent": fmt(sent),
                   "table": table.name, "value": fmt(limits[key])},
                "limits_mismatch", path=f"$.table.{key}")
        limits[key] = sent
    if limits["min"] > limits["max"]:
        raise _refuse(_("The round's minimum is above its maximum."), "limits_mismatch", path="$.table")
    return limits["min"], limits["max"]


def _dealer(doc: dict, table: Table, logged_by):
    username = doc["dealer"]
    if username == logged_by.get_username():
        dealer = logged_by
    else:
        dealer = User.objects.filter(username=username, is_active=True).first()
    if not _dealer_of(table, dealer):
        raise _refuse(_("\"%(dealer)s\" is not a dealer of pit %(pit)s, where table %(table)s stands.")
                      % {"dealer": username, "pit": table.pit.name, "table": table.name},
                      "unknown_dealer", path="$.dealer")
    return dealer


def _check_may_log_at(user, table: Table) -> None:
    """Only the dealers and pit bosses of the table's pit log its rounds (before anything is read)."""
    _require(user, table, (DEALER, PIT_BOSS),
             _("You may not log rounds at table %(table)s: only its pit's dealers and pit bosses do."))


def _check_may_log_for(user, table: Table, dealer, supersedes: Round | None) -> None:
    """A dealer logs (and corrects) only the rounds he deals himself; a pit boss those of his pits."""
    if user.is_superuser or _staff_of(user, table, PIT_BOSS):
        return
    if dealer.pk == user.pk and (supersedes is None or supersedes.dealer_id == user.pk):
        return
    if supersedes is not None:
        message = _("You may only correct rounds you dealt yourself.")
    else:
        message = _("You may not log rounds of %(dealer)s at table %(table)s.") % {
            "dealer": dealer.get_username(), "table": table.name}
    raise _refuse(message, "forbidden", status=403)


def _same_round(stored: dict, user) -> Round | None:
    """The stored round with this id, when it is the same round; a different body is a conflict.
    The conflict names the stored round only to those who may see it: ids are the sender's to choose,
    and the round holding one may be another pit's."""
    original = Round.objects.filter(uid=stored["id"], revision=1).select_related("table", "shoe", "dealer").first()
    if original is None:
        return None
    if chain.canonical_json(original.document) != chain.canonical_json(stored):
        visible = selectors.rounds_visible(user).filter(pk=original.pk).exists()
        raise _refuse(_("A different round with the id %(id)s is already stored.") % {"id": stored["id"]},
                      "id_conflict", status=409, round=original.pk if visible else None)
    return original


def _append(prepared: _Prepared, *, logged_by, revision: int = 1, supersedes: Round | None = None,
            status: str = RoundStatus.RECORDED, amendment_reason: str = "") -> Round:
    """Write one record at the end of its table's chain (inside the caller's transaction).

    From the table's lock to the commit, the writers of one table wait for each other: the work in
    between is kept to a few short statements (see `_Link`), everything else is done before.
    """
    table = prepared.table
    outcome = prepared.outcome
    record = Round(
        uid=uuid.UUID(prepared.document["id"]), table=table, dealer=prepared.dealer, variant=table.variant,
        house_rules=chain.json_safe(rules_jsonable(engine.house_rules(table.variant, table.rules))),
        table_min=Decimal(str(prepared.document["table"]["min"])),
        table_max=Decimal(str(prepared.document["table"]["max"])), document=prepared.document,
        revision=revision, supersedes=supersedes, amendment_reason=amendment_reason, logged_by=logged_by,
        status=status, float_owed=outcome.float, float_logged=_logged_float(outcome),
    )
    # A new round takes the next place in its shoe (the one it names, or the table's open one); an
    # amendment keeps the place of the round it corrects.
    reference = prepared.document.get("shoe") if supersedes is None else None
    number = _shoe_number(table, reference) if reference else None
    last, shoe = _Link.lock_table(table, take_slot=supersedes is None, shoe_number=number,
                                  expected_row=prepared.table_row)
    record.chain_index = 0 if last is None else last.chain_index + 1
    record.prev_sha256 = "" if last is None else last.sha256
    record.shoe, record.position, record.number = _shoe_slot(table, reference, number, supersedes, last, shoe)
    record.logged_at = timezone.now()
    record.sha256 = chain.round_hash(record)
    _Link.insert(record, prepared.stakes)
    if status == RoundStatus.RECORDED:
        _queue_audit(record)
    return record


# The PostgreSQL type a stake value read from the JSON parameter is cast to, by its field (`_Link.insert`).
_SQL_TYPES = {"CharField": "text", "PositiveSmallIntegerField": "smallint", "DecimalField": "numeric"}


def _decimal_text(value):
    """json.dumps' fallback for the one type a stake row holds that JSON has not: exact amounts."""
    if isinstance(value, Decimal):
        return str(value)
    raise TypeError(f"a stake row holds a {type(value).__name__}")


class _Link:
    """The statements of logging a round, in plain SQL (PostgreSQL and SQLite). Most run while the
    table is locked, so they are kept short; all of them run on every round logged, so none is
    built by the ORM anew each time (that costs more CPU than the statement itself)."""

    _TABLE, _ROUND, _SHOE = Table._meta.db_table, Round._meta.db_table, Shoe._meta.db_table
    _TABLE_FIELDS = list(Table._meta.concrete_fields)
    _TABLE_COLUMNS = ", ".join(f.column for f in _TABLE_FIELDS)
    # By name, as Table.objects.get(name=…) reads it (names are unique), without the model's ordering.
    TABLE_NAMED = f"SELECT {_TABLE_COLUMNS} FROM {_TABLE} WHERE name = %s"
    # The table's row as stored now; LOCK also locks it, where the database locks rows (SQLite
    # serialises its writers instead and reads it with TABLE_BY_ID).
    TABLE_BY_ID = f"SELECT {_TABLE_COLUMNS} FROM {_TABLE} WHERE id = %s"
    LOCK = TABLE_BY_ID + " FOR UPDATE"
    LAST = (f"SELECT chain_index, sha256, shoe_id, number, supersedes_id FROM {_ROUND} "
            "WHERE table_id = %s ORDER BY chain_index DESC LIMIT 1")
    # Take the next place in the table's open shoe (or the named one); the shoe's row comes back.
    _SHOE_FIELDS = list(Shoe._meta.concrete_fields)
    _SHOE_COLUMNS = ", ".join(f.column for f in _SHOE_FIELDS)
    TAKE_OPEN = (f"UPDATE {_SHOE} SET next_position = next_position + 1 WHERE ended_at IS NULL AND id = "
                 f"(SELECT id FROM {_SHOE} WHERE table_id = %s AND ended_at IS NULL ORDER BY number DESC LIMIT 1) "
                 f"RETURNING {_SHOE_COLUMNS}")
    TAKE_NAMED = (f"UPDATE {_SHOE} SET next_position = next_position + 1 "
                  f"WHERE table_id = %s AND number = %s AND ended_at IS NULL RETURNING {_SHOE_COLUMNS}")

    def __init__(self, chain_index, sha256, shoe_id, number, supersedes_id):
        self.chain_index, self.sha256, self.shoe_id = chain_index, sha256, shoe_id
        self.number, self.supersedes_id = number, supersedes_id

    # The tables' rows by name, as last read in this process. A round is checked against the row
    # found here, and written only if locking the table reads the very same row (`lock_table`);
    # a row that changed meanwhile (limits, rules, pit, name) replaces the one here and the round
    # is checked again. So the cache saves each round a query, and can never let one through
    # against a table as it no longer is: the check is the lock's own read.
    _rows: dict[str, tuple] = {}
    _ROWS_MAX = 10_000

    @classmethod
    def table_named(cls, name: str) -> "tuple[Table, tuple] | None":
        row = cls._rows.get(name)
        if row is None:
            with connection.cursor() as cursor:
                cursor.execute(cls.TABLE_NAMED, [name])
                row = cursor.fetchone()
            if row is None:
                return None
            cls._remember(row)
        return model_from_row(Table, cls._TABLE_FIELDS, row), row

    _NAME_AT = [f.attname for f in _TABLE_FIELDS].index("name")

    @classmethod
    def forget_if_changed(cls, row: tuple) -> bool:
        """Whether the table stored now differs from `row`, as read from the cache; if so, the
        cache forgets it (the next lookup reads the table again)."""
        with connection.cursor() as cursor:
            cursor.execute(cls.TABLE_BY_ID, [row[0]])
            stored = cursor.fetchone()
        if stored == row:
            return False
        cls._forget(row)
        return True

    @classmethod
    def _forget(cls, row: tuple) -> None:
        cls._rows.pop(row[cls._NAME_AT], None)

    @classmethod
    def _remember(cls, row: tuple) -> None:
        if len(cls._rows) >= cls._ROWS_MAX:
            cls._rows.clear()
        cls._rows[row[cls._NAME_AT]] = row

    # PostgreSQL: once the table's row is locked, its last link and the next place in the shoe in
    # one statement. Its snapshot is taken after the lock is held, so the last link it reads is the
    # one the table's previous writer committed (rounds are only ever written under that lock), as
    # when the two were statements of their own; the shoe's row is updated (and locked) as before.
    _LAST_N = 5  # LAST's columns, then the shoe's
    _BOTH = "SELECT link.*, slot.* FROM (SELECT 1) AS one LEFT JOIN link ON TRUE LEFT JOIN slot ON TRUE"
    LAST_AND_TAKE_OPEN = f"WITH link AS ({LAST}), slot AS ({TAKE_OPEN}) {_BOTH}"
    LAST_AND_TAKE_NAMED = f"WITH link AS ({LAST}), slot AS ({TAKE_NAMED}) {_BOTH}"

    @classmethod
    def lock_table(cls, table: Table, *, take_slot: bool, shoe_number: int | None = None,
                   expected_row: tuple | None = None) -> "tuple[_Link | None, Shoe | None]":
        """Lock the table's row (serialising its writers) and read its last link; with `take_slot`,
        also take the next place in the shoe numbered `shoe_number` (None: the table's open shoe).
        Returns (last link or None, the shoe after taking its place, or None). With `expected_row`
        (the row the round was checked against), raises _TableChanged unless the locked row is it."""
        db = connections[DEFAULT_DB_ALIAS]
        with db.cursor() as cursor:
            cursor.execute(cls.LOCK if db.features.has_select_for_update else cls.TABLE_BY_ID, [table.pk])
            row = cursor.fetchone()
            if expected_row is not None and row != expected_row:
                cls._forget(expected_row)
                if row is not None:
                    cls._remember(row)
                raise _TableChanged
            if take_slot and db.vendor == "postgresql":
                if shoe_number is None:
                    cursor.execute(cls.LAST_AND_TAKE_OPEN, [table.pk, table.pk])
                else:
                    cursor.execute(cls.LAST_AND_TAKE_NAMED, [table.pk, table.pk, shoe_number])
                row = cursor.fetchone()
                last_row, shoe_row = row[:cls._LAST_N], row[cls._LAST_N:]
                last = None if last_row[0] is None else cls(*last_row)  # chain_index is never NULL
                return last, None if shoe_row[0] is None else cls._shoe(table, shoe_row)  # nor a shoe's id
            cursor.execute(cls.LAST, [table.pk])
            row = cursor.fetchone()
        last = None if row is None else cls(*row)
        return last, cls.take_slot(table, shoe_number) if take_slot else None

    _ROUND_FIELDS = [f for f in Round._meta.concrete_fields if not f.primary_key]
    _ROUND_INSERT = (f"INSERT INTO {_ROUND} ({', '.join(f.column for f in _ROUND_FIELDS)}) "
                     f"VALUES ({', '.join(['%s'] * len(_ROUND_FIELDS))})")
    _STAKE_FIELDS = [f for f in Stake._meta.concrete_fields if not f.primary_key]
    _STAKE_INSERT = f"INSERT INTO {Stake._meta.db_table} ({', '.join(f.column for f in _STAKE_FIELDS)}) VALUES "
    _STAKE_ROW = f"({', '.join(['%s'] * len(_STAKE_FIELDS))})"
    # PostgreSQL: the record and its stake rows in one statement whose text never changes, however
    # many stakes the round has (so psycopg converts it once and the server prepares it once per
    # connection): the stake rows go as one JSON array of arrays (amounts as their exact decimal
    # text), which `json_array_elements` turns into rows, each value cast to its column's type.
    # One JSON text costs this process about 40% less CPU than a typed array per column.
    _STAKE_VALUES = [f for f in _STAKE_FIELDS if f.name != "round"]
    _ROUND_AND_STAKES = (
        f"WITH r AS ({_ROUND_INSERT} RETURNING {Round._meta.pk.column}), "
        f"s AS (INSERT INTO {Stake._meta.db_table} "
        f"({', '.join([Stake._meta.get_field('round').column] + [f.column for f in _STAKE_VALUES])}) "
        f"SELECT r.{Round._meta.pk.column}, "
        f"{', '.join(f'(e->>{i})::' + _SQL_TYPES[f.get_internal_type()] for i, f in enumerate(_STAKE_VALUES))} "
        f"FROM r, json_array_elements(%s::json) AS e) "
        f"SELECT {Round._meta.pk.column} FROM r")

    @classmethod
    def insert(cls, record: Round, stakes: list["_StakeRow"]) -> None:
        """INSERT the record as `record.save(force_insert=True)` would (each value prepared by its
        field; no signal handlers listen to rounds), then its stake rows; give the record its id.

        On PostgreSQL both go in one statement (`_ROUND_AND_STAKES`). A stake's values are passed
        as they are: `_stake_rows` builds them as the types their fields store (str, int or None,
        Decimal or None), which those fields' own preparation would hand on unchanged."""
        db = connections[DEFAULT_DB_ALIAS]
        params = [f.get_db_prep_save(f.pre_save(record, True), db) for f in cls._ROUND_FIELDS]
        with db.cursor() as cursor:
            if db.vendor == "postgresql":
                rows = [[getattr(stake, f.attname) for f in cls._STAKE_VALUES] for stake in stakes]
                params.append(json.dumps(rows, default=_decimal_text, ensure_ascii=False))
                cursor.execute(cls._ROUND_AND_STAKES, params)
                record.pk = cursor.fetchone()[0]
            else:
                sql = cls._ROUND_INSERT
                if db.features.can_return_columns_from_insert:
                    cursor.execute(sql + f" RETURNING {Round._meta.pk.column}", params)
                    record.pk = cursor.fetchone()[0]
                else:
                    cursor.execute(sql, params)
                    record.pk = db.ops.last_insert_id(cursor, cls._ROUND, Round._meta.pk.column)
                if stakes:
                    # One multi-row INSERT, each value adapted as Django adapts it (bulk_create
                    # costs about twice as much for a handful of rows).
                    for stake in stakes:
                        stake.round_id = record.pk
                    cursor.execute(cls._STAKE_INSERT + ", ".join([cls._STAKE_ROW] * len(stakes)),
                                   [f.get_db_prep_save(getattr(stake, f.attname), db)
                                    for stake in stakes for f in cls._STAKE_FIELDS])
        record._state.adding = False
        record._state.db = db.alias

    @classmethod
    def take_slot(cls, table: Table, number: int | None) -> Shoe | None:
        """The shoe after taking its next position (its row locked until the commit), or None."""
        with connection.cursor() as cursor:
            if number is None:
                cursor.execute(cls.TAKE_OPEN, [table.pk])
            else:
                cursor.execute(cls.TAKE_NAMED, [table.pk, number])
            row = cursor.fetchone()
        return None if row is None else cls._shoe(table, row)

    @classmethod
    def _shoe(cls, table: Table, row) -> Shoe:
        shoe = model_from_row(Shoe, cls._SHOE_FIELDS, row)
        shoe.table = table
        return shoe


def _shoe_slot(table: Table, reference, number: int | None, supersedes: Round | None, last: _Link | None,
               shoe: Shoe | None):
    """The shoe a round belongs to (locked, its place taken: `shoe`) and its place there: an
    amendment keeps the original's place. `reference` is the shoe the round names ("R-1/3", whose
    `number` is 3) or None for the table's open one; `last` is the table's last link, which
    usually tells the shoe's round count."""
    if supersedes is not None:
        return supersedes.shoe, supersedes.position, supersedes.number
    if shoe is None:
        if reference:
            named = Shoe.objects.filter(table=table, number=number).first()
            raise _unknown_shoe(table, reference) if named is None else _shoe_ended(named)
        return None, None, None
    position = shoe.next_position - 1
    if last is not None and last.shoe_id == shoe.pk and last.supersedes_id is None and last.number:
        dealt = last.number
    else:
        dealt = (Round.objects.filter(shoe=shoe, supersedes__isnull=True).order_by("-position")
                 .values_list("number", flat=True).first()) or 0
    return shoe, position, dealt + 1


def _logged_float(outcome) -> Decimal:
    total = Decimal(0)
    for s in outcome.settled:
        if s.result == TAKE and s.amount is not None:
            total += s.amount
        elif s.result == PAY:
            total -= s.amount
    return total


class _StakeRow:
    """One Stake row to be written: its columns' values by attribute name (`round_id` set when its
    round has an id). Lighter than a `Stake` instance, and every round logged makes several."""

    __slots__ = tuple(f.attname for f in Stake._meta.concrete_fields if not f.primary_key)

    def __init__(self, *, round_id=None, **values):
        self.round_id = round_id
        for name, value in values.items():
            setattr(self, name, value)


def _stake_rows(document: dict, outcome) -> list[_StakeRow]:
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
    for i, item in enumerate(document["stakes"]):
        sid = item["id"]
        path = f"$.stakes[{i}]"
        player = item.get("player") or ""
        player = player if isinstance(player, str) else str(player)
        if len(sid) > STAKE_ID_MAX:
            raise _refuse(_("A stake id has at most %(n)d characters.") % {"n": STAKE_ID_MAX}, "too_long",
                          path=f"{path}.id")
        if len(player) > PLAYER_MAX:
            raise _refuse(_("A player's name has at most %(n)d characters.") % {"n": PLAYER_MAX}, "too_long",
                          path=f"{path}.player")
        box = item.get("box", item.get("seat"))
        ante = item.get("ante")
        dealer_bet = item.get("dealer_bet")
        bet = sizes.get((sid, "bet"))
        if bet is None and item.get("bet") is not None:
            bet = Decimal(str(item["bet"]))
        row = _StakeRow(
            stake_id=sid, box=box if type(box) is int and 0 <= box <= BOX_MAX else None, player=player,
            ante=None if ante is None else Decimal(str(ante)), bet=bet,
            dealer_bet=None if dealer_bet is None else Decimal(str(dealer_bet)),
            owed_net=owed.get(sid) if outcome.wagers is not None else None,
            paid_net=paid.get(sid, Decimal(0)),
        )
        for value in (row.ante, row.bet, row.dealer_bet, row.owed_net, row.paid_net):
            if value is not None and abs(value) >= MONEY_LIMIT:
                raise _refuse(_("The amounts of stake %(stake)s are too large to be stored.") % {"stake": sid},
                              "amount_too_large", path=path)
        rows.append(row)
    for value in (outcome.float, _logged_float(outcome)):
        if value is not None and abs(value) >= MONEY_LIMIT:
            raise _refuse(_("The round's amounts are too large to be stored."), "amount_too_large", path="$")
    return rows


_batched_audits: ContextVar[list | None] = ContextVar("batched_audits", default=None)


def _queue_audit(record: Round) -> None:
    """Audit the round once its transaction commits (a Celery task; in-process without a broker)."""
    round_id = record.pk
    batch = _batched_audits.get()
    if batch is not None:
        batch.append(round_id)
    else:
        transaction.on_commit(lambda: queue_round_audits([round_id]))


@contextmanager
def audits_batched():
    """For bulk loads (the demo floor): the audits of the rounds written inside are queued together
    when the transaction commits — without a broker they then run in-process, all of them in one
    `audit_rounds` task (one transaction), instead of one task and commit each."""
    from audit.tasks import audit_rounds

    ids: list[int] = []
    token = _batched_audits.set(ids)
    try:
        yield
    finally:
        _batched_audits.reset(token)

    def run():
        if settings.CELERY_TASK_ALWAYS_EAGER:
            audit_rounds.apply(args=[ids], throw=True)
        else:
            queue_round_audits(ids)

    if ids:
        transaction.on_commit(run)


# --- correcting a round ------------------------------------------------------------------------------

def round_amend(*, round: Round, document, amended_by, reason: str) -> Round:  # noqa: A002 - the domain's word
    """A correction of a stored round: a new revision at the end of the table's chain, awaiting a
    pit boss (status pending). The round it corrects stays in force until he approves.

    Only the revision in force is amended, one pending correction at a time; the document keeps the
    round's `id` (left out, it is filled in) and its dealer (left out, the original's).
    """
    table = round.table
    _check_may_log_at(amended_by, table)
    reason = (reason or "").strip()
    if not reason:
        raise _refuse(_("Say why the round is corrected."), "reason_required", path="reason")
    doc = read_document(document)
    if doc.get("id") is None:
        doc["id"] = str(round.uid)
    else:
        try:
            same = str(uuid.UUID(str(doc["id"]))) == str(round.uid)
        except ValueError:
            same = False
        if not same:
            raise _refuse(_("A correction keeps the round's id %(id)s.") % {"id": round.uid}, "id_mismatch",
                          path="$.id")
    if not doc.get("dealer"):
        doc["dealer"] = round.dealer.get_username()
    _table_for(doc, table)  # only checks that the document names this table
    if doc.get("shoe") and round.shoe_id is not None:
        if shoe_for_round(table=table, reference=doc["shoe"]).pk != round.shoe_id:
            raise _refuse(_("A correction stays in the round's shoe %(shoe)s.") % {"shoe": shoe_reference(round.shoe)},
                          "shoe_mismatch", path="$.shoe")
    prepared = _prepare(doc, table=table, logged_by=amended_by, supersedes=round)
    with transaction.atomic():
        Table.objects.select_for_update().filter(pk=table.pk).first()
        current = Round.objects.select_related("shoe", "supersedes").get(pk=round.pk)
        if current.status != RoundStatus.RECORDED:
            raise _refuse(_("Only the revision in force of a round can be corrected; this one is %(status)s.")
                          % {"status": current.get_status_display()}, "not_in_force", status=409)
        if Round.objects.filter(supersedes=current, status=RoundStatus.PENDING).exists():
            raise _refuse(_("This round already has a correction awaiting a pit boss."), "amendment_pending",
                          status=409)
        if chain.canonical_json(prepared.document) == chain.canonical_json(current.document):
            raise _refuse(_("The correction changes nothing in the round."), "no_change")
        revision = Round.objects.filter(uid=current.uid).aggregate(r=Max("revision"))["r"] + 1
        record = _append(prepared, logged_by=amended_by, revision=revision, supersedes=current,
                         status=RoundStatus.PENDING, amendment_reason=reason)
    record.outcome = prepared.outcome
    return record


def round_amendment_decide(*, round: Round, decided_by, decision: str, comment: str = "") -> Approval:  # noqa: A002
    """A pit boss approves or rejects a pending correction. Approved, it is the round in force (and is
    audited) and the revision it corrects is superseded; rejected, the old one simply stays."""
    table = round.table
    _require_pit_boss(decided_by, table)
    decision, comment = _decision(decision, comment)
    with transaction.atomic():
        amendment = Round.objects.select_for_update().get(pk=round.pk)
        if amendment.supersedes_id is None or amendment.status != RoundStatus.PENDING:
            raise _refuse(_("This is not a correction awaiting a decision (it is %(status)s).")
                          % {"status": amendment.get_status_display()}, "not_pending", status=409)
        original = Round.objects.select_for_update().get(pk=amendment.supersedes_id)
        if decided_by.pk == amendment.logged_by_id:
            raise _refuse(_("You made this correction yourself; another pit boss decides on it."), "own_amendment",
                          status=403)
        if decided_by.pk in (amendment.dealer_id, original.dealer_id):
            raise _refuse(_("You dealt this round; another pit boss decides on its correction."), "own_round",
                          status=403)
        if decision == Decision.APPROVED:
            if original.status != RoundStatus.RECORDED:
                raise _refuse(_("The round this corrects is no longer in force."), "not_in_force", status=409)
            Round.objects.filter(pk=original.pk).update(status=RoundStatus.SUPERSEDED)
            Round.objects.filter(pk=amendment.pk).update(status=RoundStatus.RECORDED)
            _queue_audit(amendment)
            round.status = RoundStatus.RECORDED
        else:
            Round.objects.filter(pk=amendment.pk).update(status=RoundStatus.REJECTED)
            round.status = RoundStatus.REJECTED
        return Approval.objects.create(round=amendment, decided_by=decided_by, decision=decision, comment=comment)


def _decision(decision: str, comment) -> tuple[str, str]:
    if decision not in Decision.values:
        raise _refuse(_("A decision is \"approved\" or \"rejected\"."), "bad_decision", path="decision")
    comment = (comment or "").strip()
    if decision == Decision.REJECTED and not comment:
        raise _refuse(_("Say why it is rejected."), "comment_required", path="comment")
    return decision, comment


# --- incidents ---------------------------------------------------------------------------------------

def incident_report(*, table: Table, kind: str, card, exposed: bool, resolution: str, to_box: int | None = None,
                    dealer, reported_by, round: Round | None = None, shoe: Shoe | None = None,  # noqa: A002
                    evidence: str = "", note: str = "") -> Incident:
    """An inspector or pit boss reports an exposed dealer card or a misdrawn card; it awaits a pit boss."""
    _require(reported_by, table, (INSPECTOR, PIT_BOSS),
             _("Only an inspector or pit boss of pit %(pit)s reports incidents at table %(table)s."))
    if kind not in IncidentKind.values:
        raise _refuse(_("An incident is one of: %(kinds)s.") % {"kinds": ", ".join(IncidentKind.values)},
                      "bad_kind", path="kind")
    code = card_code(table.variant, card)
    if type(exposed) is not bool:
        raise _refuse(_("Say whether the card was seen (exposed: true or false)."), "bad_exposed", path="exposed")
    if resolution not in Resolution.values:
        raise _refuse(_("A resolution is one of: %(values)s.") % {"values": ", ".join(Resolution.values)},
                      "bad_resolution", path="resolution")
    if resolution == Resolution.TO_BOX:
        if type(to_box) is not int or not 1 <= to_box <= table.boxes:
            raise _refuse(_("Name the box the card was placed on (1 to %(n)d).") % {"n": table.boxes},
                          "bad_box", path="to_box")
    elif to_box is not None:
        raise _refuse(_("Only a card placed on a box names a box."), "bad_box", path="to_box")
    if not _dealer_of(table, dealer):
        raise _refuse(_("%(user)s is not a dealer of pit %(pit)s.") % {"user": dealer, "pit": table.pit.name},
                      "unknown_dealer", path="dealer")
    if round is not None and round.table_id != table.pk:
        raise _refuse(_("That round was not dealt at table %(table)s.") % {"table": table.name}, "round_mismatch",
                      path="round")
    if shoe is not None and shoe.table_id != table.pk:
        raise _refuse(_("That shoe is not table %(table)s's.") % {"table": table.name}, "shoe_mismatch", path="shoe")
    if shoe is None:
        shoe = round.shoe if round is not None else shoe_for_round(table=table, reference=None)
    for value, field, limit in ((evidence, "evidence", Incident._meta.get_field("evidence").max_length),
                                (note, "note", None)):
        if not isinstance(value, str):
            raise _refuse(_("%(field)s must be text.") % {"field": field}, "bad_text", path=field)
        _check_text(value, field)
        if limit is not None and len(value) > limit:
            raise _refuse(_("The evidence reference has at most %(n)d characters.") % {"n": limit}, "too_long",
                          path=field)
    return Incident.objects.create(
        kind=kind, card=code, exposed=exposed, table=table, shoe=shoe, round=round, dealer=dealer,
        reported_by=reported_by, resolution=resolution, to_box=to_box if resolution == Resolution.TO_BOX else None,
        evidence=evidence.strip(), note=note.strip(),
    )


def incident_decide(*, incident: Incident, decided_by, decision: str, comment: str = "") -> Approval:
    """A pit boss of the table's pit approves or rejects a reported incident — never one he reported
    or one at a round he dealt."""
    table = incident.table
    _require_pit_boss(decided_by, table)
    decision, comment = _decision(decision, comment)
    with transaction.atomic():
        locked = Incident.objects.select_for_update(of=("self",)).select_related("round").get(pk=incident.pk)
        if locked.status != IncidentStatus.REPORTED:
            raise _refuse(_("This incident was already %(status)s.") % {"status": locked.get_status_display()},
                          "already_decided", status=409)
        if decided_by.pk == locked.reported_by_id:
            raise _refuse(_("You reported this incident; another pit boss decides on it."), "own_report",
                          status=403)
        dealers = {locked.dealer_id, locked.round.dealer_id if locked.round_id else None}
        if decided_by.pk in dealers:
            raise _refuse(_("You were the dealer; another pit boss decides on this incident."), "own_round",
                          status=403)
        locked.status = decision
        locked.save(update_fields=["status"])
        incident.status = decision
        return Approval.objects.create(incident=locked, decided_by=decided_by, decision=decision, comment=comment)


# --- what the audit writes back ----------------------------------------------------------------------

def round_record_audit(*, round_id: int, status: str, engine_version: str) -> None:
    """The audit's verdict on a round: the only fields of a round record that change after writing."""
    if status not in AuditStatus.values:
        raise ValueError(status)
    Round.objects.filter(pk=round_id).update(audit_status=status, engine_version=engine_version,
                                             audited_at=timezone.now())
