"""Writes of the ledger: start a night, record the draw for the first bank, add a round, end it.

Plain functions with keyword-only arguments; a refusal raises `ServiceError` and stores nothing.
A round of the night is stored by `dealing.services.round_log` — validated by the engine, put on
the table's hash chain and queued for the audit like any round — and the ledger keeps its place.

The bank's limits and the table's
---------------------------------
In veintiuno the limits of a round are the bank's (round-format.md: `table.min`/`max` are the
bank's limits); the bank announces them for its term and may change them by announcing it. The
table's own limits (Casa-21: 5–100) are the widest a bank may announce there: `round_log` accepts
a veintiuno round whose limits lie within the table's, stores them on the record (`table_min`,
`table_max`, covered by the hash chain) and the engine — at logging, and again in the audit, which
replays the stored document — judges every bet against them (`BET_LIMITS`). Casino tables keep
their exact-limits check. The ledger adds what the night knows: which limits are in force (the
current bank's latest announcement in its term), that they go in multiples of the betting unit,
and the record of each announcement with the round it takes effect.
"""

import random
import uuid
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.errors import ServiceError
from casino.models import Table
from casino.roles import DEALER, PIT_BOSS, has_role
from casino.scope import works_at
from casino.validators import player_name_problem
from dealing import engine, games
from dealing.engine.money import fmt, parse_amount
from dealing.services import complete_document, engine_error, round_log

from . import selectors
from .access import may_run, may_start_at
from .choices import EndReason, SessionStatus
from .draw import DrawError, deal_pass, draw_state
from .models import NAME_LENGTH, BankDraw, GameSession, LimitAnnouncement, SessionPlayer, SessionRound
from .tally import gains_of

User = get_user_model()
MIN_PLAYERS = 2


def _refuse(message: str, code: str, status: int = 400, **extra) -> ServiceError:
    return ServiceError(message, extra={"code": code, **extra}, status=status)


def _amount(value, field: str, label: str) -> Decimal:
    try:
        return parse_amount(value, field)
    except engine.RoundError:
        raise _refuse(
            _("%(label)s must be a positive amount with at most 2 decimals, such as 5 or 2.50.") % {"label": label},
            "bad_amount",
            field=field,
        ) from None


def _check_multiple(amount: Decimal, unit: Decimal, label: str, code: str = "unit", **extra) -> None:
    if amount % unit:
        raise _refuse(
            _("%(label)s (%(amount)s) is not a multiple of the night's betting unit, %(unit)s.")
            % {"label": label, "amount": fmt(amount), "unit": fmt(unit)},
            code,
            **extra,
        )


def _require_runner(user, session: GameSession) -> None:
    if not may_run(user, session):
        raise _refuse(_("Only a pit boss of this pit or the night's own dealer may do that."), "forbidden", 403)


# --- starting a night -------------------------------------------------------------------------------


def clean_players(names: list[str], *, seats: int) -> list[str]:
    """The players' names as given, trimmed; refused when empty, too long, repeated, too few or too many."""
    players = [" ".join(str(n).split()) for n in names]
    players = [p for p in players if p]
    if len(players) < MIN_PLAYERS:
        raise _refuse(
            _("A night needs at least two players: one holds the bank, the others play against it."),
            "players",
            field="players",
        )
    if len(players) > seats + 1:
        raise _refuse(
            _("This table seats %(seats)d players besides the bank: at most %(most)d players.")
            % {"seats": seats, "most": seats + 1},
            "players",
            field="players",
        )
    seen: dict[str, str] = {}
    for p in players:
        if len(p) > NAME_LENGTH:
            raise _refuse(
                _("“%(name)s” is too long for a name (at most %(n)d characters).") % {"name": p, "n": NAME_LENGTH},
                "players",
                field="players",
            )
        problem = player_name_problem(p)
        if problem is not None:
            raise _refuse(problem, "players", field="players")
        if p.casefold() in seen:
            raise _refuse(
                _("“%(name)s” is at the table twice; give each player a name of his own.") % {"name": p},
                "players",
                field="players",
            )
        seen[p.casefold()] = p
    return players


def session_create(
    *, table: Table, players: list[str], unit, created_by, dealer=None, name: str = "", buy_in=None
) -> GameSession:
    """Start a night at a veintiuno table: its players in the order they sit (the deal goes from the
    bank to the next player in this order), the betting unit, and optionally the chips each starts
    with. The first bank is then drawn (`session_draw`)."""
    if games.slot_of(table.variant, "nights") is None:
        raise _refuse(
            _("Table %(table)s plays %(variant)s; game nights are kept at veintiuno tables.")
            % {"table": table.name, "variant": table.get_variant_display()},
            "not_veintiuno",
            field="table",
        )
    if not may_start_at(created_by, table):
        raise _refuse(
            _("Only a dealer or pit boss of pit %(pit)s may start a night at table %(table)s.")
            % {"pit": table.pit.name, "table": table.name},
            "forbidden",
            status=403,
        )
    if not table.is_active:
        raise _refuse(_("Table %(table)s is closed.") % {"table": table.name}, "table_closed", field="table")
    players = clean_players(players, seats=table.boxes)
    unit = _amount(unit, "unit", _("The betting unit"))
    if unit > table.max_bet:
        raise _refuse(
            _("The betting unit %(unit)s is above the table's maximum bet %(max)s.")
            % {"unit": fmt(unit), "max": fmt(table.max_bet)},
            "unit",
            field="unit",
        )
    if buy_in not in (None, ""):
        buy_in = _amount(buy_in, "buy_in", _("The chips each player starts with"))
        _check_multiple(buy_in, unit, _("The chips each player starts with"), field="buy_in")
    else:
        buy_in = None
    dealer = _session_dealer(table, created_by, dealer)
    name = " ".join(str(name or "").split())[:80]
    with transaction.atomic():
        session = GameSession.objects.create(
            table=table, name=name, dealer=dealer, created_by=created_by, unit=unit, buy_in=buy_in
        )
        SessionPlayer.objects.bulk_create(
            [SessionPlayer(session=session, seat=k, name=p) for k, p in enumerate(players, start=1)]
        )
    return session


def session_start(
    *,
    table: Table,
    players: list[str],
    unit,
    created_by,
    dealer=None,
    name: str = "",
    buy_in=None,
    draw: list[dict] | None = None,
    rng=None,
) -> GameSession:
    """Start a night and draw for its first bank in one go (the API): `session_create`, then
    `session_draw_record` with the passes as drawn (or dealt here). Nothing is stored if either fails."""
    with transaction.atomic():
        session = session_create(
            table=table, players=players, unit=unit, created_by=created_by, dealer=dealer, name=name, buy_in=buy_in
        )
        session_draw_record(session=session, by=created_by, passes=draw, rng=rng)
    session.refresh_from_db()
    return session


def _session_dealer(table: Table, created_by, dealer):
    """The dealer a night's rounds are logged in the name of: a dealer of the table's pit. A dealer
    starts nights in his own name; a pit boss names one of his pit's dealers."""
    if dealer in (None, ""):
        if not _is_pit_dealer(created_by, table):
            raise _refuse(_("Name the dealer in whose name the rounds are logged."), "dealer_required", field="dealer")
        return created_by
    if isinstance(dealer, str):
        dealer = User.objects.filter(username=dealer).first() or dealer
    if not isinstance(dealer, User) or not _is_pit_dealer(dealer, table):
        raise _refuse(
            _("“%(dealer)s” is not a dealer of pit %(pit)s.") % {"dealer": dealer, "pit": table.pit.name},
            "unknown_dealer",
            field="dealer",
        )
    if dealer.pk != created_by.pk and not has_role(created_by, PIT_BOSS):
        raise _refuse(
            _("A dealer starts nights in his own name; a pit boss may name another dealer."),
            "forbidden",
            status=403,
            field="dealer",
        )
    return dealer


def _is_pit_dealer(user, table: Table) -> bool:
    return user.is_active and has_role(user, DEALER) and works_at(user, table)


# --- the draw for the first bank ---------------------------------------------------------------------


def session_draw(*, session: GameSession, by, cards: dict | None = None, rng=None):
    """Record one pass of the draw for the first bank: a card for each player still drawing (all in
    the first pass, only those tied for the highest card after that). Without `cards` the pass is
    dealt from a freshly shuffled 40-card pack. When one player holds the highest card he holds the
    first bank and the night begins. Returns the draw's state (`draw.DrawState`)."""
    _require_runner(by, session)
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        if session.status != SessionStatus.DRAWING:
            raise _refuse(
                _("The first bank has already been drawn: %(bank)s.") % {"bank": session.first_bank},
                "draw_done",
                status=409,
            )
        players = selectors.player_names(session)
        passes = selectors.draw_passes(session)
        before = draw_state(players, passes)
        if cards is None:
            cards = deal_pass(rng or random.SystemRandom(), before.contenders)
        try:
            state = draw_state(players, passes + [cards])
        except DrawError as exc:
            raise _refuse(exc.message, "bad_draw", field="draw", player=exc.player) from None
        pass_no = len(state.passes)
        BankDraw.objects.bulk_create(
            [BankDraw(session=session, pass_no=pass_no, player=p, card=c) for p, c in state.passes[-1].items()]
        )
        if state.decided:
            session.first_bank = state.winner
            session.status = SessionStatus.PLAYING
            session.save(update_fields=["first_bank", "status"])
    return state


def session_draw_record(*, session: GameSession, by, passes: list[dict] | None, rng=None):
    """The whole draw at once (the API): the passes as they were drawn, which must end with one
    player highest; or, without passes, dealt here from a shuffled pack until one is."""
    with transaction.atomic():
        if passes is None:
            state = session_draw(session=session, by=by, rng=rng)
            while not state.decided:
                state = session_draw(session=session, by=by, rng=rng)
            return state
        if not isinstance(passes, list) or not passes:
            raise _refuse(_("The draw is a list of passes, each {player: card}."), "bad_draw", field="draw")
        state = None
        for cards in passes:
            state = session_draw(session=session, by=by, cards=cards)
        if not state.decided:
            raise _refuse(
                _("The draw is not decided: %(players)s tie for the highest card and draw again.")
                % {"players": ", ".join(state.contenders)},
                "draw_undecided",
                field="draw",
                contenders=state.contenders,
            )
        return state


# --- a round of the night -------------------------------------------------------------------------------


@dataclass
class PreparedRound:
    """A round checked against the night, as it would be stored."""

    document: dict
    number: int
    bank: str
    limits: tuple[Decimal, Decimal]
    announce: bool  # the limits are a new announcement of the bank
    outcome: engine.Outcome


def session_round_add(*, session: GameSession, document, logged_by) -> tuple[SessionRound, bool]:
    """Add the next round of the night: a `round/1` document of veintiuno dealt by the bank in
    turn, with the players in their places counted from the bank's right, bets in multiples of the
    unit. `table.min`/`max` are the bank's limits: left out, the limits the bank announced for its
    term; given and different (or a new bank's first round), they are recorded as the bank's
    announcement, in force from this round. Sending the same round id again returns the stored
    round (created False). When one player holds every chip the night ends."""
    doc = _load(session, document, logged_by)
    with transaction.atomic():
        session = GameSession.objects.select_for_update().select_related("table__pit", "dealer").get(pk=session.pk)
        repeat = _repeat(session, doc, logged_by)
        if repeat is not None:
            return repeat, False
        state = selectors.session_state(session)
        prepared = _prepare(session, doc, state, logged_by)
        record, created = round_log(document=prepared.document, logged_by=logged_by, table=session.table)
        if not created:
            raise _refuse(
                _("A round with this id is already stored, outside this night."),
                "round_elsewhere",
                status=409,
                round=record.pk,
            )
        if prepared.announce:
            LimitAnnouncement.objects.create(
                session=session,
                from_round=prepared.number,
                bank=prepared.bank,
                min_bet=prepared.limits[0],
                max_bet=prepared.limits[1],
                announced_by=logged_by,
            )
        entry = SessionRound.objects.create(session=session, number=prepared.number, round=record)
        _end_when_one_holds_every_chip(session, state, prepared, logged_by)
    return entry, True


def session_round_preview(*, session: GameSession, document, by) -> PreparedRound:
    """Everything `session_round_add` checks, without storing: the document as it would be stored
    and the engine's replay of it (findings, what each hand is owed, who takes the bank)."""
    doc = _load(session, document, by)
    return _prepare(session, doc, selectors.session_state(session), by)


def _load(session: GameSession, document, by) -> dict:
    _require_runner(by, session)
    try:
        return dict(engine.load(document))
    except engine.RoundError as exc:
        raise engine_error(exc) from None


def _prepare(session: GameSession, doc: dict, state, by) -> PreparedRound:
    if session.status != SessionStatus.PLAYING:
        raise _refuse(
            _("This night is over; no more rounds.")
            if session.status == SessionStatus.ENDED
            else _("Draw for the first bank before the first round."),
            "not_playing",
            status=409,
        )
    if doc.get("variant") != session.table.variant:
        raise _refuse(
            _('A round of the night is a veintiuno round ("variant": "veintiuno").'),
            "variant_mismatch",
            path="$.variant",
            event=None,
        )
    bank = state.tally.bank
    if doc.get("bank") != bank:
        raise _refuse(
            _("The bank is %(bank)s's this round, not %(given)s's.") % {"bank": bank, "given": doc.get("bank")},
            "bank_mismatch",
            path="$.bank",
            event=None,
            expected=bank,
        )
    limits, announce = _round_limits(session, doc, state)
    doc["table"] = {**(doc["table"] if isinstance(doc.get("table"), dict) else {}), "min": limits[0], "max": limits[1]}
    dealer = session.dealer.get_username()
    if doc.get("dealer") not in (None, "", dealer):
        raise _refuse(
            _("The night's rounds are logged in the name of its dealer, %(dealer)s.") % {"dealer": dealer},
            "dealer_mismatch",
            path="$.dealer",
            event=None,
        )
    doc["dealer"] = dealer
    # The table's name, house rules and an id, and round_log's own check that the bank's limits
    # lie within the table's: the document exactly as it will be stored.
    doc = complete_document(doc, table=session.table, logged_by=by)
    try:
        outcome = engine.replay(doc)
    except engine.RoundError as exc:
        raise engine_error(exc) from None
    _check_places(doc, state.players, bank)
    _check_bets(doc, session.unit)
    if outcome.wagers is None:
        raise _refuse(
            _(
                "The engine cannot settle this round (a card not in the 40-card pack), so the ledger "
                "cannot count it. Correct the card and log it again."
            ),
            "unsettled",
            findings=[f.to_dict() for f in outcome.findings],
        )
    return PreparedRound(doc, state.next_number, bank, limits, announce, outcome)


def _repeat(session: GameSession, doc: dict, logged_by) -> SessionRound | None:
    """A round of this night sent again with the same id: the stored one (a different body: 409)."""
    try:
        uid = uuid.UUID(str(doc["id"]))
    except (KeyError, ValueError):
        return None  # no id, or not a UUID (which `complete_document` refuses in its words)
    entry = SessionRound.objects.select_related("round").filter(session=session, round__uid=uid).first()
    if entry is None:
        return None
    sent = dict(doc)
    sent.setdefault("table", {})
    if isinstance(sent["table"], dict) and "min" not in sent["table"]:
        sent["table"] = {**sent["table"], "min": entry.round.table_min, "max": entry.round.table_max}
    sent.setdefault("dealer", session.dealer.get_username())
    round_log(document=sent, logged_by=logged_by, table=session.table)  # 409 when it differs
    return entry


def _round_limits(session: GameSession, doc: dict, state) -> tuple[tuple[Decimal, Decimal], bool]:
    """The bank's limits for this round, and whether they are a new announcement."""
    given = doc.get("table") if isinstance(doc.get("table"), dict) else {}
    in_force = state.limits
    if "min" not in given and "max" not in given:
        if in_force is None:
            raise _refuse(
                _("%(bank)s takes the bank: announce the limits (table.min and table.max).")
                % {"bank": state.tally.bank},
                "limits_required",
                path="$.table",
                event=None,
            )
        return in_force, False
    low = _amount(given.get("min"), "$.table.min", _("The bank's minimum bet"))
    high = _amount(given.get("max"), "$.table.max", _("The bank's maximum bet"))
    if low > high:
        raise _refuse(
            _("The bank's minimum bet %(min)s is above its maximum %(max)s.") % {"min": fmt(low), "max": fmt(high)},
            "limits",
            path="$.table",
            event=None,
        )
    _check_multiple(low, session.unit, _("The bank's minimum bet"), "limits", path="$.table.min", event=None)
    _check_multiple(high, session.unit, _("The bank's maximum bet"), "limits", path="$.table.max", event=None)
    return (low, high), (low, high) != in_force


def _check_places(doc: dict, players: list[str], bank: str) -> None:
    """Each stake's player sits at his place counted from the bank's right: seat k is the k-th
    player after the bank in the night's order (players who sit a round out leave their seat empty)."""
    b = players.index(bank)
    places = {players[(b + k) % len(players)]: k for k in range(1, len(players))}
    for k, stake in enumerate(doc["stakes"]):
        player, seat = stake["player"], stake["seat"]
        if player not in places:
            raise _refuse(
                _("%(player)s is not a player of this night.") % {"player": player},
                "unknown_player",
                path=f"$.stakes[{k}].player",
                event=None,
            )
        if places[player] != seat:
            raise _refuse(
                _("%(player)s sits at place %(place)d from the bank's right, not %(seat)d.")
                % {"player": player, "place": places[player], "seat": seat},
                "wrong_seat",
                path=f"$.stakes[{k}].seat",
                event=None,
            )


def _check_bets(doc: dict, unit: Decimal) -> None:
    for i, ev in enumerate(doc["events"]):
        if ev.get("e") in ("bet", "split"):
            amount = parse_amount(ev["amount"], f"$.events[{i}].amount", event=i)
            label = (
                _("Event %(i)d: the bet") % {"i": i}
                if ev["e"] == "bet"
                else _("Event %(i)d: the amount opened") % {"i": i}
            )
            _check_multiple(amount, unit, label, path=f"$.events[{i}].amount", event=i)


def _end_when_one_holds_every_chip(session: GameSession, state, prepared: PreparedRound, by) -> None:
    if session.buy_in is None:
        return
    gains = gains_of(prepared.document, prepared.outcome, state.players)
    everything = session.buy_in * len(state.players)
    for player in state.players:
        if session.buy_in + state.tally.balances.get(player, 0) + gains.get(player, 0) >= everything:
            _end(session, by, EndReason.ALL_CHIPS, _("%(player)s holds every chip.") % {"player": player})
            return


# --- the end of the night -----------------------------------------------------------------------------


def session_end(*, session: GameSession, by, reason: str = EndReason.AGREEMENT, note: str = "") -> GameSession:
    """End the night by agreement (the balances are settled by who pays whom), or record that one
    player holds every chip (only when it is so)."""
    _require_runner(by, session)
    if reason not in EndReason.values:
        raise _refuse(_("A night ends by agreement or when one player holds every chip."), "bad_reason", field="reason")
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        if session.status == SessionStatus.ENDED:
            raise _refuse(_("This night is already over."), "ended", status=409)
        if reason == EndReason.ALL_CHIPS:
            state = selectors.session_state(session)
            everything = (session.buy_in or 0) * len(state.players)
            if session.buy_in is None or max(session.buy_in + b for b in state.tally.balances.values()) < everything:
                raise _refuse(
                    _("Nobody holds every chip yet; end the night by agreement."), "bad_reason", field="reason"
                )
        _end(session, by, reason, note)
    return session


def _end(session: GameSession, by, reason: str, note: str) -> None:
    session.status = SessionStatus.ENDED
    session.ended_at = timezone.now()
    session.ended_by = by
    session.end_reason = reason
    session.end_note = str(note or "")[:2000]
    session.save(update_fields=["status", "ended_at", "ended_by", "end_reason", "end_note"])
