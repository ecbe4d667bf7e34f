"""The table terminal: a dealer's (or inspector's) tablet follows the round as it is dealt.

    GET  /tables/<name>/terminal/        the page (stakes carried from the table's previous round)
    POST /tables/<name>/terminal/next    JSON {stakes, events, timeout?} -> what may happen next, owed,
                                          findings, the clock that runs (terminal_clock.py)
    POST /tables/<name>/terminal/save    JSON {id, dealer?, stakes, events, overrides?} -> the stored round
                                          (409 while a halt is neither taken back nor overridden)
    POST /tables/<name>/terminal/override  JSON {stakes, events, dealer?, username, password, reason}
                                          -> a pit boss's override of the halt at the last entry

The page writes the round's log event by event; each event is one POST of the log so far, answered
by the engine (dealing.games.terminal.follow). The round is stored through the same service as the
round form and the API (services.round_log), with the header the form writes.
"""

import json
import uuid

from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from casino.errors import ServiceError
from casino.finding_labels import severity_label
from casino.finding_text import VALUE_OF_FIELD, event_field, event_word
from casino.finding_words import finding_text
from casino.models import Table
from casino.roles import DEALER, PIT_BOSS, has_role, role_required
from dealing import hooks, selectors, services
from dealing.access import TERMINAL_USERS, check_may_use_terminal, staff_of
from dealing.engine.money import fmt
from dealing.forms.fields import dealer_label
from dealing.forms.rounds import pit_dealers
from dealing.games import terminal as term
from dealing.games.building import amount_json
from dealing.models import Round

from .terminal_clock import timeout_asked, with_clock
from .terminal_drafts import draft_config, keep_draft

MAX_BODY = 256 * 1024  # a round's log is a few kilobytes


def _table(request, name: str) -> Table:
    """The table of the address, 404 when there is none; 403 unless the user may use its terminal
    (one query for the table, one for the user's pits: every event of a round asks)."""
    table = selectors.table_with_pit(name)
    if table is None:
        raise Http404(f"No {Table._meta.object_name} matches the given query.")  # as get_object_or_404 says
    try:
        check_may_use_terminal(request.user, table)
    except ServiceError as exc:
        raise PermissionDenied(exc.message) from None
    return table


def _header(table: Table, round_id: str, dealer: str, data: dict | None = None) -> dict:
    """The round's header as the round form writes it (RoundForm.header), with the fields the game's
    terminal asks before the deal (veintiuno's bank) as the page sent them."""
    return {
        "format": "round/1",
        "id": round_id,
        "variant": table.variant,
        "table": {"name": table.name, "min": amount_json(table.min_bet), "max": amount_json(table.max_bet)},
        "rules": dict(table.rules or {}),
        "dealer": dealer,
        **term.header_fields(table.variant, (data or {}).get("header")),
    }


def _previous(table: Table) -> dict | None:
    last = Round.objects.filter(table=table).order_by("-chain_index").only("document").first()
    return last.document if last is not None else None


@require_http_methods(["GET"])
@role_required(*TERMINAL_USERS)
def table_terminal(request, name: str):
    table = _table(request, name)
    user = request.user
    game = term.game_of(table.variant)
    may_store = user.is_superuser or has_role(user, DEALER, PIT_BOSS)
    picks_dealer = user.is_superuser or has_role(user, PIT_BOSS)
    dealers = [(u.get_username(), dealer_label(u)) for u in pit_dealers(table)] if picks_dealer else []
    config = None
    extra = term.extras(table.variant, table.rules or {})
    if game is not None:
        previous = _previous(table)
        carried = term.carried_header(table.variant, previous)
        config = {
            "variant": table.variant,
            "wager": game.wager,
            "wagerLabel": game.wager_word(game.wager) or "",
            "perBox": game.per_box,
            "extra": list(extra),
            "letters": game.letters,
            "boxes": table.boxes,
            "suited": term.suited(table.variant, table.rules or {}),
            "clocks": term.has_clocks(table.variant, table.rules or {}),
            "min": fmt(table.min_bet),
            "max": fmt(table.max_bet),
            "roundId": str(uuid.uuid4()),
            # A player the header names (who holds the bank now) plays no seat: his last one is not carried.
            "stakes": [
                s
                for s in term.carried_stakes(table.variant, previous, boxes=table.boxes, extra=extra)
                if s.get("player") not in carried.values()
            ],
            "place": game.place,
            "stakeWager": game.stake_wager,
            "idPrefix": game.id_prefix,
            "ranks": game.ranks,
            "dealerTo": game.dealer_to,
            "header": [
                {"name": k, "label": str(label), "value": carried.get(k, "")} for k, label in game.header.items()
            ],
            "actions": [{"key": key, "event": e, "help": str(help_)} for key, e, help_ in game.actions],
            "next": reverse("dealing:terminal_next", kwargs={"name": table.name}),
            "save": reverse("dealing:terminal_save", kwargs={"name": table.name}),
            "override": reverse("dealing:terminal_override", kwargs={"name": table.name}),
            "takeover": reverse("dealing:terminal_takeover", kwargs={"name": table.name}),
            "draft": draft_config(table),
            "mayStore": may_store,
            "picksDealer": picks_dealer,
            "user": user.get_username(),
            "words": terminal_words(game),
        }
    return render(
        request,
        "dealing/terminal.html",
        {
            "table": table,
            "config": config,
            "dealers": dealers,
            "may_store": may_store,
            "extra": extra,
            "keys_template": game.keys_template if game is not None else "",
            "dealer_word": (game.dealer_word if game is not None else None) or _("Dealer"),
            "place_word": _place_word(game),
            "add_word": _("Add a player at seat") if _seats(game) else _("Add a stake on box"),
            # A seat round a player's bank is its player's (round/1 needs the name); a box's name is optional.
            "player_word": _("Player") if _seats(game) else _("Player (optional)"),
            "form_url": reverse("dealing:round_new", kwargs={"name": table.name}),
            "boxes_range": range(1, (table.boxes or 0) + 1),
            "left_behind": selectors.terminal_drafts_left_behind(table) if game is not None else [],
            "voids": user.is_superuser or staff_of(user, table, PIT_BOSS),
        },
    )


def _seats(game) -> bool:
    """Do the game's stakes sit at seats round a player's bank (not at the boxes of a casino's felt)?"""
    return game is not None and game.place == "seat"


def _place_word(game) -> str:
    return _("Seat") if _seats(game) else _("Box")


def terminal_words(game=None) -> dict:
    """What the script shows, in the reader's language (the script itself holds no English); a
    wager by the game's own word for it."""
    words = _shared_words()
    words["box"] = _place_word(game)
    if _seats(game):
        words["fields"]["player"] = _("Player")
    if game is not None and game.dealer_word:
        words["dealer"] = str(game.dealer_word)
    for wager in ("ante", "bet"):
        own = game.wager_word(wager) if game is not None else None
        if own:
            words["fields"][wager] = own
    return words


def _shared_words() -> dict:
    return {
        "box": _("Box"),
        "dealer": _("Dealer"),
        "owed": _("Owed"),
        "halt": _("HALT"),
        "next": _("Next"),
        "typed": _("Typed"),
        "done": _("The round is complete."),
        "doneFollow": _("The round is complete: a dealer or pit boss of the pit stores it."),
        "saving": _("Storing the round…"),
        "error": _("The engine cannot follow this"),
        "stakesLocked": _("Stakes are fixed once the deal begins."),
        "player": _("Player"),
        "stake": _("Stake"),
        "fields": {
            "ante": _("Ante"),
            "bet": _("Bet"),
            "dealer_bet": _("Dealer bet"),
            "jackpot": _("Jackpot bet"),
            "player": _("Player (optional)"),
        },
        "prompts": {
            "halted": _("HALT: the round stops here"),
            "error": _("The engine cannot follow the last entry"),
        },
        # What each key does now, shown under the prompt as "key — what it does".
        "keys": {
            "card": _("2–9, 0 or T, J, Q, K, A — the card"),
            "cardSuit": _("rank, then suit S H D C — the card"),
            "enterSettle": _("Enter — %(what)s, as owed"),
            "amountPaid": _("digits, Enter — the amount really paid"),
            "enterBet": _("Enter — places the Bet: %(amount)s"),
            "amountBet": _("digits, Enter — another Bet"),
            "enterGo": _("Enter — %(what)s"),
            "store": _("Enter — stores the round"),
            "stand": _("S — stand"),
            "fold": _("F — fold"),
            "dark": _("D, card — the dark card"),
            "tapo": _("D, card — tapo y quedo (one hidden card)"),
            "double": _("D, card — double"),
            "split": _("P — split"),
            "insurance": _("I, amount, Enter — insurance"),
            "insuranceAmount": _("digits, Enter — the insurance"),
            "even": _("E — even money"),
            "take": _("X — took the wager"),
            "leave": _("L — left the wager"),
            "undo": _("⌫ — takes back the last entry"),
            "undoEntry": _("⌫ — takes the entry back"),
            "override": _("a pit boss — overrides it below, with his own login and a reason"),
            "clear": _("Esc — clears what is typed"),
            "reset": _("R — clears every stake carried over"),
            "multiple": _("Bet %(k)s × Ante: %(amount)s"),
        },
        # What a key that means nothing now says instead (it does nothing else).
        "hints": {
            "halted": _("No key passes a halt: ⌫ takes the entry back, or a pit boss overrides it."),
            "error": _("⌫ takes back the entry the engine cannot follow."),
            "nothingToUndo": _("Nothing to take back."),
            "suit": _("Now the suit: S, H, D or C."),
            "ten": _("A ten is 0 or T."),
            "noAmount": _("A card is asked now, not an amount."),
            "noCard": _("An amount is asked now, not a card: digits 0–9."),
            "noKey": _("%(key)s does nothing now."),
            "insurance": _("Type the insurance, then Enter."),
            "darkCard": _("Now the card."),
            "noRank": _("%(key)s is not in this game's pack."),
            "typeBet": _("Type the bet, then Enter."),
            "amountUnused": _("Nothing takes an amount now: Esc clears it."),
            "enterCard": _("Enter does nothing now: type the card."),
            "mayNotStore": _("A dealer or pit boss of the pit stores the round."),
            "heldElsewhere": _("Another terminal holds this round: take it over here first."),
        },
        "noDealer": _("Choose the dealer first."),
        "nextToAct": _("next"),
        "paid": _("%(stake)s is owed %(amount)s"),
        "clearBox": _("Clear box %(box)s"),
        "heldElsewhere": _(
            "Another terminal holds the round in progress at this table (%(user)s, %(n)s entries, last at "
            "%(when)s). Take it over here to go on; until then nothing is written here."
        ),
        "anon": _("anonymous"),
        # The clocks (terminal_clock.js): what runs, the seconds left, what its end did.
        "clock": {
            "bet": _("Bets close in"),
            "betOver": _("Bets are closed: the deal may start."),
            "insurance": _("Insurance and even money close in"),
            "action": _("Hand %(hand)s acts within"),
            "seconds": _("%(s)s s"),
            "start": _("%(what)s %(s)s seconds."),
            "left": _("%(what)s %(s)s seconds."),
            "paused": _("The clock is stopped while the HALT is up."),
            "stood": _("Time ran out: hand %(hand)s stands."),
            "closed": _("Time ran out: insurance and even money are closed."),
            "timedOut": _("time ran out"),
            "already": _("The clock has just stood that hand: look at the next one, then press S again."),
        },
        "events": {
            e: event_word(e)
            for e in (
                "bet",
                "fold",
                "stand",
                "split",
                "dark",
                "double",
                "insurance",
                "even_money",
                "tapo",
                "declare",
                "withdraw",
                "void",
                "puje",
                "bank_to",
                "pay",
                "take",
                "leave",
            )
        },
    }


def _read(request):
    if len(request.body) > MAX_BODY:
        return None
    try:
        data = json.loads(request.body)
    except ValueError:
        return None
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("stakes"), list)
        or not isinstance(data.get("events", []), list)
    ):
        return None
    return data


def _bad(message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": {"message": message}}, status=status)


def _move_label(move: dict, game=None) -> str:
    ev = move["event"]
    own = game.wager_word if game is not None else (lambda wager: None)
    # A Bet is named by the game's own word for it; a wager by its name alone ("pay · stake 1a · Bet"),
    # never "wager bet", which some languages say with one word twice.
    parts = [own("bet") if ev["e"] == "bet" and own("bet") else event_word(ev["e"])]
    for k, v in ev.items():
        if k in ("e", "amount"):
            continue
        if k == "wager":
            parts.append(own(v) or VALUE_OF_FIELD["wager"].get(v, v))
        else:
            parts.append(event_field(k, v))
    if "amount" in ev:
        parts.append(str(ev["amount"]))
    return " · ".join(str(p) for p in parts)


@require_http_methods(["POST"])
@role_required(*TERMINAL_USERS)
def terminal_next(request, name: str):
    """What may happen next in the round so far: one walk of its log by the engine."""
    table = _table(request, name)
    data = _read(request)
    if data is None:
        return _bad(_('Send the round so far as JSON: {"stakes": [...], "events": [...]}.'))
    doc = {
        **_header(table, str(data.get("id") or ""), request.user.get_username(), data),
        "stakes": data["stakes"],
        "events": data.get("events", []),
    }
    doc.pop("id")
    timeout, refused = timeout_asked(data, doc)  # an entry a clock's end logged (a timed-out stand)
    if refused is not None:
        return refused
    out = term.follow(doc)
    refused, draft = keep_draft(request, table, data, out, timeout)  # the round so far, kept on the server
    if refused is not None:
        return refused
    overrides = data.get("overrides") if isinstance(data.get("overrides"), dict) else {}
    with_clock(out, table, draft, overrides, len(doc["events"]), str(data.get("id") or ""))
    hooks.halted(table_id=table.pk, round_uid=str(data.get("id") or ""), halts=out["halt"], by_id=request.user.pk)
    game = term.game_of(table.variant)
    for move in out["moves"]:
        move["label"] = _move_label(move, game)
    wagers = VALUE_OF_FIELD["wager"]
    said: dict[tuple[str, object], str] = {}  # each wager and result said once, however many stakes owe them
    for w in out["owed"]:
        wager, result = w["wager"], w["result"]
        if ("wager", wager) not in said:
            said["wager", wager] = (game and game.wager_word(wager)) or str(wagers.get(wager, wager))
        if ("result", result) not in said:
            said["result", result] = event_word(result)
        w["label"], w["result_label"] = said["wager", wager], said["result", result]
    for f in out["findings"]:
        f["text"] = finding_text(f)
        f["severity_label"] = severity_label(f["severity"])
    if out["error"]:
        out["error"]["text"] = finding_text({"code": out["error"]["code"], "message": out["error"]["message"]})
    # The round in progress and its halt, for whoever watches the pit (the live floor).
    hooks.table_progress(table, dealer=request.user, doc=doc, followed=out)
    return JsonResponse(out)


@require_http_methods(["POST"])
@role_required(*TERMINAL_USERS)
def terminal_save(request, name: str):
    """Store the round the terminal followed, through the round form's and the API's service."""
    table = _table(request, name)
    data = _read(request)
    if data is None:
        return _bad(_('Send the round as JSON: {"id": ..., "stakes": [...], "events": [...]}.'))
    try:
        round_id = str(uuid.UUID(str(data.get("id"))))
    except ValueError:
        return _bad(_("The round needs its id (a UUID)."))
    user = request.user
    dealer = user.get_username()
    if user.is_superuser or has_role(user, PIT_BOSS):
        dealer = str(data.get("dealer") or "")
        if not dealer:
            return _bad(_("Choose the dealer who dealt this round."))
    doc = {**_header(table, round_id, dealer, data), "stakes": data["stakes"], "events": data.get("events", [])}
    try:
        record, created = services.terminal_round_store(
            document=doc,
            halts=term.halts(doc),
            logged_by=user,
            table=table,
            overrides=data.get("overrides") or [],
            terminal=data.get("terminal"),
        )
    except ServiceError as exc:
        return JsonResponse({"error": {"message": exc.message, **exc.extra}}, status=exc.status)
    message = (_("Round saved: %(round)s.") if created else _("This round was already saved: %(round)s.")) % {
        "round": record
    }
    return JsonResponse(
        {"url": reverse("dealing:round_detail", args=[record.pk]), "message": message, "created": created},
        status=201 if created else 200,
    )


@require_http_methods(["POST"])
@role_required(*TERMINAL_USERS)
def terminal_override(request, name: str):
    """A pit boss, at this terminal, keeps the entry it halted at: his credentials and a reason."""
    table = _table(request, name)
    data = _read(request)
    if data is None:
        return _bad(_('Send the round so far as JSON: {"stakes": [...], "events": [...]}.'))
    user = request.user
    picks = user.is_superuser or has_role(user, PIT_BOSS)
    dealer = str(data.get("dealer") or "") if picks else user.get_username()
    doc = {**_header(table, "", dealer, data), "stakes": data["stakes"], "events": data.get("events", [])}
    doc.pop("id")
    try:
        granted = services.halt_override_grant(
            request=request,
            table=table,
            doc=doc,
            halts=term.halts(doc),
            dealer=dealer,
            username=str(data.get("username") or ""),
            password=str(data.get("password") or ""),
            reason=str(data.get("reason") or ""),
        )
    except ServiceError as exc:
        return JsonResponse({"error": {"message": exc.message, **exc.extra}}, status=exc.status)
    granted["message"] = _("Overridden by %(user)s: the entry stays, with its finding.") % {"user": granted["by"]}
    return JsonResponse(granted)
