"""The demo floor's weeks (`manage.py demo_floor`, development only; README "The demo floor").

settings.DEMO_FLOOR_DAYS days (0: nothing) of two shifts a day (day and swing) at three ochko tables
of Pit A (R-4, R-5, R-6), dealt by five dealers in rotation (dealer1 … dealer5), each session
DEMO_FLOOR_SESSION_ROUNDS rounds of the engine's simulator with the usual rate of mistakes
(dealing.games.demo.MISTAKE_RATE), a new shoe every SHOE_ROUNDS rounds and a break halfway. Planted:

- **the sweetheart dealer**: dealer4 also overpays player P-7 on box 3 (a payout doubled) in one of
  SWEETHEART_EVERY of his rounds, on top of the usual mistakes;
- **the short float**: today's shift of R-4 opened, signed, counted and closed through books.services,
  its closing count SHORT (5,000.00) below what its rounds say the tray should hold, explained by
  pitboss1 (a shift cannot close otherwise);
- **the card counter**: at COUNTER_TABLE, a salon blackjack table of Pit A, player COUNTER bets 1 to 8
  units by the Hi-Lo true count and makes the index plays, among honest players (flat, random and
  drifting bettors), COUNTER_SHOES shoes a day dealt to the cut card by the blackjack simulator's
  players (dealing/engine/blackjack/simulator/players.py); the daily scan's ADVANTAGE_PLAY signal
  names him, and nobody else.

Fast enough for `make run` (docs/dealer-performance.md has the timings): the rounds are simulated once
into a pool per table and repeated under fresh ids, sealed into each table's chain with their own
logged_at (the time of the demo's clock, which the chain's hash covers) and written in bulk, like
`bench.audit.load_rounds`; then audited in chunks by `audit.services.rounds_audit`, which fills the
rollups as it goes. Idempotent: nothing is done when the demo tables already have rounds.
"""

from __future__ import annotations

import datetime as dt
import random
import uuid
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from casino import services as casino_services
from casino.demo import DEMO_PASSWORD, progress
from casino.models import Pit, Table
from casino.roles import DEALER
from dealing import chain, engine, hooks
from dealing import services as dealing_services
from dealing.engine.base import rules_jsonable
from dealing.engine.blackjack.simulator import players as blackjack_players
from dealing.engine.simulators import module as simulator
from dealing.games.demo import MISTAKE_RATE
from dealing.models import Round, Shoe, ShoeEvent, Stake
from dealing.services.rounds import logged_float, round_prepare

from . import selectors, services
from .integrity.services import signals_scan_daily

SEED = 2026
PIT = "Pit A"
CHIPS = ["1", "5", "25", "100", "500", "1000", "5000"]  # small chips too: a dealer bet of 5 is counted exactly
TABLES = ["R-4", "R-5", "R-6"]
# (username, first name, last name, badge, seconds a round takes on average): dealer1 exists already.
DEALERS = [
    ("dealer1", "", "", "", 62),
    ("dealer2", "Olga", "Petrova", "D-102", 54),
    ("dealer3", "Sergei", "Ivanov", "D-103", 70),
    ("dealer4", "Nikolai", "Morozov", "D-104", 60),
    ("dealer5", "Elena", "Smirnova", "D-105", 66),
]
SWEETHEART = "dealer4"
SWEETHEART_PLAYER = "P-7"
SWEETHEART_BOX = 3
SWEETHEART_EVERY = 12  # one round in twelve: about double the floor's usual rate of errors
SHORT = Decimal("5000.00")
SHORT_TABLE = "R-4"
SHIFT_STARTS = (dt.time(8, 0), dt.time(16, 0))  # sessions in the day and swing shifts
SHOE_ROUNDS = 40
POOL = 1200
MISTAKES = (
    "wrong_amount",
    "wrong_result",
    "missing_settlement",
    "payment_order",
    "late_settlement",
    "dealer_draw_rule",
)
COUNTER_TABLE = "Escribas-2"
COUNTER = "P-31"
COUNTER_SEATS = (("P-32", "random"), ("P-33", "flat"), (COUNTER, "counter"), ("P-34", "drifting"), ("P-35", "random"))
COUNTER_SHOES = 8  # a day: about 120 rounds in an evening session
COUNTER_DEALER = "dealer5"
OPENING = {"5000": 20, "1000": 50, "500": 40, "100": 100, "25": 40, "5": 40, "1": 50}  # 181,250.00


def days() -> int:
    return int(getattr(settings, "DEMO_FLOOR_DAYS", 0) or 0)


def session_rounds() -> int:
    return int(getattr(settings, "DEMO_FLOOR_SESSION_ROUNDS", 40) or 0)


def books_demo_load() -> list[str]:
    """Load the demo weeks if DEMO_FLOOR_DAYS > 0 and they are not there; what was created, in words."""
    n_days, per_session = days(), session_rounds()
    if n_days <= 0 or per_session <= 0:
        return []
    User = get_user_model()
    boss = User.objects.filter(username="pitboss1").first()
    pit = Pit.objects.filter(name=PIT).first()
    if boss is None or pit is None:
        return []
    if Round.objects.filter(table__name__in=TABLES).exists():
        return []
    dealers = _dealers()
    tables = _tables(pit)
    rng = random.Random(SEED)
    created = []
    ids = []
    with transaction.atomic():
        progress(f"  simulating {POOL} rounds a table at {', '.join(TABLES)} (played by the game math)")
        pools = {t.name: _pool(t, dealers["dealer1"], rng) for t in tables}
        sweet = {t.name: _sweet_pool(t, dealers[SWEETHEART], rng) for t in tables}
        today = timezone.localdate()
        zone = ZoneInfo(settings.TIME_ZONE)
        plan = []
        for d in range(n_days):
            day = today - dt.timedelta(days=n_days - d)
            for s, start in enumerate(SHIFT_STARTS):
                for k, table in enumerate(tables):
                    who = DEALERS[(d * len(SHIFT_STARTS) * len(tables) + s * len(tables) + k) % len(DEALERS)]
                    begin = dt.datetime.combine(day, start, tzinfo=zone) + dt.timedelta(minutes=rng.uniform(0, 30))
                    plan.append((table, dealers[who[0]], who[4], begin))
        sessions = len(SHIFT_STARTS) * len(tables)
        for k, (table, dealer, seconds, begin) in enumerate(plan):
            if k % sessions == 0:
                progress(f"  day {k // sessions + 1}/{n_days} at {', '.join(TABLES)}: {len(ids)} rounds so far")
            ids += _session(
                table, dealer, seconds, begin, per_session, pools[table.name], sweet[table.name], rng, mistakes=True
            )
        created.append(
            f"{len(ids)} rounds of {n_days} days at {', '.join(TABLES)} by {len(DEALERS)} dealers "
            f"({SWEETHEART} favouring {SWEETHEART_PLAYER} on box {SWEETHEART_BOX})"
        )
        progress(f"  {COUNTER_TABLE}: {n_days} days of {COUNTER_SHOES} shoes ({COUNTER} counting cards)")
        counted = _counter_table(pit, dealers[COUNTER_DEALER], n_days, today, zone, rng)
        ids += counted
        created.append(f"{len(counted)} rounds at {COUNTER_TABLE} ({COUNTER} counting cards)")
    _audit(ids, say=True)
    progress(f"  the short float at {SHORT_TABLE}")
    created.append(_short_float(tables[0], dealers["dealer2"], boss, pools[tables[0].name], rng))
    # The scan the beat runs each morning, so the demo's signals page shows the sweetheart dealer at once.
    progress("  the daily integrity scan")
    scan = signals_scan_daily()
    created.append(f"{len(scan.created)} integrity signals from the daily scan of {scan.date_from} to {scan.date_to}")
    return created


# --- the floor ---------------------------------------------------------------------------------------------


def _dealers() -> dict:
    User = get_user_model()
    pits = list(Pit.objects.all())
    out = {}
    for username, first, last, badge, _seconds in DEALERS:
        user = User.objects.filter(username=username).first()
        if user is None:
            user = casino_services.user_create(
                username=username,
                password=DEMO_PASSWORD,
                first_name=first,
                last_name=last,
                email=f"{username}@casino.example",
            )
            casino_services.staff_enrol(user=user, roles=(DEALER,), pits=pits, badge=badge)
        out[username] = user
    return out


def _tables(pit) -> list[Table]:
    out = []
    for name in TABLES:
        table = Table.objects.filter(name=name).first() or casino_services.table_create(
            pit=pit, name=name, variant="ochko", min_bet=Decimal(100), max_bet=Decimal(5000), boxes=6, chips=CHIPS
        )
        out.append(table)
    return out


# --- the rounds ----------------------------------------------------------------------------------------------


class _Dealt:
    __slots__ = ("document", "stakes", "owed", "logged")

    def __init__(self, prepared):
        self.document = prepared.document
        self.stakes = [tuple(getattr(s, name) for name in chain.STAKE_FIELDS) for s in prepared.stakes]
        self.owed = chain.money_column(prepared.outcome.float)
        self.logged = chain.money_column(logged_float(prepared.outcome))


def _simulate(table, rng, mistake=None):
    """One round of the table, played optimally (the game math's decisions under the table's house
    rules, no dealer bets), so that the house's win per Ante on an honest table is the optimal edge the
    theory page compares it with, and a dealer's mistakes are what moves it away."""
    sim = simulator("ochko")
    options = dict(
        table_min=table.min_bet,
        table_max=table.max_bet,
        table_name=table.name,
        incidents=0,
        rules=dict(table.rules or {}),
        play="optimal",
    )
    if mistake is None:
        return sim.simulate_round(rng, **options).doc
    try:
        return sim.simulate_round(rng, mistake=mistake, **options).doc
    except ValueError:  # no place for that mistake in this round
        return sim.simulate_round(rng, **options).doc


def _pool(table, dealer, rng) -> list[tuple[_Dealt, _Dealt]]:
    """POOL rounds of the table, each as (dealt correctly, dealt with one of the usual mistakes) — one in
    twenty of the demo's rounds takes the second (MISTAKE_RATE)."""
    out = []
    for _ in range(POOL):
        honest = _simulate(table, rng)
        mistaken = _simulate(table, rng, rng.choice(MISTAKES))
        out.append(
            tuple(
                _Dealt(round_prepare(dict(doc, dealer=dealer.username), table=table, logged_by=dealer))
                for doc in (honest, mistaken)
            )
        )
    return out


def _sweet_pool(table, dealer, rng) -> list[_Dealt]:
    """Rounds in which the dealer paid P-7, on box 3, twice what the rules owed him on one payout."""
    out = []
    while len(out) < POOL // 3:
        doc = _simulate(table, rng)
        stakes = {s["id"]: s for s in doc["stakes"]}
        pays = [
            k
            for k, ev in enumerate(doc["events"])
            if ev.get("e") == "pay" and stakes.get(ev.get("stake"), {}).get("box") == SWEETHEART_BOX
        ]
        if not pays:
            continue
        k = pays[0]
        favoured = doc["events"][k]["stake"]
        for s in doc["stakes"]:
            if s["player"] == SWEETHEART_PLAYER:
                s["player"] = "P-25"  # the simulator's players are P-1 … P-24
        stakes[favoured]["player"] = SWEETHEART_PLAYER
        doc["events"][k] = {**doc["events"][k], "amount": doc["events"][k]["amount"] * 2}
        out.append(_Dealt(round_prepare(dict(doc, dealer=dealer.username), table=table, logged_by=dealer)))
    return out


def _session(table, dealer, seconds, begin, n, pool, sweet, rng, *, mistakes: bool) -> list[int]:
    """One dealer's session at a table: n rounds from `begin`, a new shoe every SHOE_ROUNDS rounds (a few
    minutes' shuffle), a break of about twenty minutes halfway. Returns the rounds' ids."""
    plan = []
    at = begin
    for k in range(n):
        if k and k % SHOE_ROUNDS == 0:
            at += dt.timedelta(seconds=rng.uniform(180, 300))
        elif k == n // 2:
            at += dt.timedelta(minutes=rng.uniform(15, 25))
        elif k:
            at += dt.timedelta(seconds=seconds * rng.uniform(0.7, 1.3))
        if sweet is not None and dealer.username == SWEETHEART and rng.randrange(SWEETHEART_EVERY) == 0:
            dealt = rng.choice(sweet)
        else:
            dealt = rng.choice(pool)[1 if mistakes and rng.random() < MISTAKE_RATE else 0]
        plan.append((at, dealt))
    return _write(table, dealer, plan)


def _counter_table(pit, dealer, n_days: int, today: dt.date, zone, rng) -> list[int]:
    """The blackjack table where COUNTER counts: an evening session a day of COUNTER_SHOES shoes, each
    dealt to its cut card to the seated players (the shoes as dealt: the count runs through them)."""
    table = Table.objects.filter(name=COUNTER_TABLE).first() or casino_services.table_create(
        pit=pit,
        name=COUNTER_TABLE,
        variant="blackjack",
        min_bet=Decimal(100),
        max_bet=Decimal(5000),
        boxes=5,
        chips=CHIPS,
        rules={"preset": "salon"},
    )
    seated = [blackjack_players.Player(name, kind) for name, kind in COUNTER_SEATS]
    ids = []
    for d in range(n_days):
        day = today - dt.timedelta(days=n_days - d)
        at = dt.datetime.combine(day, dt.time(19, 0), tzinfo=zone) + dt.timedelta(minutes=rng.uniform(0, 30))
        shoes = blackjack_players.simulate_table(
            rng, players=seated, shoes=COUNTER_SHOES, table_name=table.name, dealer=dealer.username
        )
        plan, starts = [], set()
        for dealt in shoes:
            starts.add(len(plan))
            at += dt.timedelta(seconds=rng.uniform(180, 300))  # the shuffle
            for d_round in dealt:
                at += dt.timedelta(seconds=rng.uniform(45, 75))
                prepared = round_prepare(dict(d_round.doc, dealer=dealer.username), table=table, logged_by=dealer)
                plan.append((at, _Dealt(prepared)))
        ids += _write(table, dealer, plan, decks=6, shoe_starts=starts)
    return ids


def _write(table, dealer, plan, *, decks: int = 8, shoe_starts: set[int] | None = None) -> list[int]:
    """Seal the rounds as the next links of the table's chain (with their own logged_at) and store them
    with their stake rows and shoes, in bulk; their pending audit rows as round_log writes them. A new
    shoe of `decks` packs starts at each index of `shoe_starts` (every SHOE_ROUNDS rounds when None)."""
    Table.objects.select_for_update(no_key=True).filter(pk=table.pk).first()
    last = Round.objects.filter(table=table).order_by("-chain_index").only("chain_index", "sha256").first()
    index = 0 if last is None else last.chain_index + 1
    prev = "" if last is None else last.sha256
    number = (
        Round.objects.filter(table=table).order_by("-table_round").values_list("table_round", flat=True).first() or 0
    ) + 1
    house_rules = chain.json_safe(rules_jsonable(engine.house_rules(table.variant, table.rules)))
    shoe_number = Shoe.objects.filter(table=table).order_by("-number").values_list("number", flat=True).first() or 0
    rows, stakes = [], []
    shoe, in_shoe = None, 0
    for k, (at, dealt) in enumerate(plan):
        if (k % SHOE_ROUNDS == 0) if shoe_starts is None else (k in shoe_starts):
            if shoe is not None:
                Shoe.objects.filter(pk=shoe.pk).update(ended_at=rows[-1].logged_at, next_position=in_shoe + 2)
            shoe_number += 1
            shoe = Shoe.objects.create(
                table=table,
                number=shoe_number,
                decks=decks,
                loaded_at=at - dt.timedelta(minutes=2),
                shuffled_by=dealer,
                next_position=2,
            )
            ShoeEvent.objects.create(
                shoe=shoe, position=1, kind="shuffle", recorded_by=dealer, recorded_at=shoe.loaded_at
            )
            in_shoe = 0
        in_shoe += 1
        document = dict(dealt.document, id=str(uuid.uuid4()), dealer=dealer.username)
        record = Round(
            uid=document["id"],
            table=table,
            dealer=dealer,
            variant=table.variant,
            house_rules=house_rules,
            table_min=table.min_bet,
            table_max=table.max_bet,
            document=document,
            chain_index=index,
            table_round=number,
            prev_sha256=prev,
            logged_by=dealer,
            logged_at=at,
            played_at=at,
            float_owed=dealt.owed,
            float_logged=dealt.logged,
            shoe=shoe,
            position=in_shoe + 1,
            number=in_shoe,
        )
        chain.seal_round(record, dealt.stakes)
        prev, index, number = record.sha256, index + 1, number + 1
        rows.append(record)
        stakes.append(dealt.stakes)
    if shoe is not None:
        Shoe.objects.filter(pk=shoe.pk).update(ended_at=rows[-1].logged_at, next_position=in_shoe + 2)
    first = rows[0].chain_index
    Round.objects.bulk_create(rows, batch_size=500)
    ids = list(
        Round.objects.filter(table=table, chain_index__gte=first).order_by("chain_index").values_list("pk", flat=True)
    )
    hooks.rounds_written(ids)
    Stake.objects.bulk_create(
        [Stake(round_id=pk, **dict(zip(chain.STAKE_FIELDS, s))) for pk, these in zip(ids, stakes) for s in these],
        batch_size=2000,
    )
    return ids


def _audit(ids: list[int], *, say: bool = False) -> None:
    from audit.services import rounds_audit

    for k in range(0, len(ids), 500):
        if say:
            progress(f"  auditing rounds {k + 1}–{min(k + 500, len(ids))} of {len(ids)}")
        rounds_audit(round_ids=ids[k : k + 500])


# --- the short float -------------------------------------------------------------------------------------------


def _chips(amount: Decimal) -> dict[str, int]:
    """An amount in the table's chips, largest first (the small chips make any whole amount)."""
    left, out = amount, {}
    for chip in sorted(CHIPS, key=Decimal, reverse=True):
        out[chip], left = int(left // Decimal(chip)), left % Decimal(chip)
    if left:
        raise ValueError(f"{amount} is not a whole number of chips")
    return out


def _short_float(table, dealer, boss, pool, rng) -> str:
    """Today's shift of the table, through books.services: opened by the dealer, signed by pitboss1, about
    hour of honest rounds, a closing count SHORT below the expected float, explained and closed."""
    shift = services.shift_open(table=table, counted_by=dealer, counts=OPENING)
    shift = services.shift_open_sign(shift=shift, signed_by=boss)
    # The services stamp the opening now; the demo's hour of dealing lies before now, so the opening is
    # moved back two hours (a new link of the shifts' chain).
    began = timezone.now() - dt.timedelta(hours=2)
    type(shift).objects.filter(pk=shift.pk).update(opened_at=began, opening_signed_at=began)
    dealing_services.records_touched(type(shift), [shift.pk])  # the shift's new state, a link of its chain
    shift.refresh_from_db()
    with transaction.atomic():
        ids = _session(table, dealer, 60, began + dt.timedelta(minutes=5), 50, pool, None, rng, mistakes=False)
    _audit(ids)
    expected = selectors.shift_books(shift).expected
    cents = expected % 1
    if cents:
        # A 3:2 payout of a small dealer bet leaves cents no chip counts: a player bought them for cash.
        services.cash_record(shift=shift, kind="chips_sold", amount=f"{cents:.2f}", recorded_by=dealer)
        expected = selectors.shift_books(shift).expected
    counts = _chips(expected - SHORT)
    shift = services.shift_count_closing(shift=shift, counted_by=dealer, counts=counts)
    shift = services.shift_explain(
        shift=shift,
        explained_by=boss,
        text=f"Closing count {SHORT:,.2f} short of the rounds' float; tray sealed, surveillance review requested.",
    )
    shift = services.shift_close(shift=shift, closed_by=boss)
    return f"a closed shift of {table.name} {SHORT:,.2f} short (explained by {boss.username})"
