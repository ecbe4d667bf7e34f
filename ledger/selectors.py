"""Reads of the ledger: a night's state (players, the draw, the bank, the limits in force) and its
ledger — balances after every round, who held the bank, the findings, who pays whom.

Nothing here is stored: balances come from the engine's settlement of each round in force
(`tally`), findings from the audit once it has looked at a round, otherwise from the engine.
"""

import math
from dataclasses import dataclass, field
from decimal import Decimal

from django.apps import apps
from django.db.models import Count, Prefetch, QuerySet

from casino.choices import Variant
from casino.models import Table
from casino.roles import has_role
from casino.scope import restrict
from dealing import engine
from dealing.choices import AuditStatus, RoundStatus
from dealing.engine.money import ZERO, fmt
from dealing.models import Round, in_force_q

from .access import RUN_ROLES, visible_sessions
from .choices import SessionStatus
from .models import BankDraw, GameSession, LimitAnnouncement, SessionPlayer, SessionRound
from .payments import Payment, settle_up
from .tally import Tally, pack_findings, tally


def session_list(*, user, status: str | None = None) -> QuerySet:
    """The nights a user may read, newest first, with their number of rounds."""
    sessions = visible_sessions(user).select_related("table", "dealer").annotate(round_count=Count("rounds"))
    if status in SessionStatus.values:
        sessions = sessions.filter(status=status)
    return sessions.prefetch_related("players")


def startable_tables(*, user) -> QuerySet:
    """The open veintiuno tables where the user may start a night (a dealer or pit boss of the pit)."""
    if not has_role(user, *RUN_ROLES):
        return Table.objects.none()
    return restrict(Table.objects.filter(variant=Variant.VEINTIUNO, is_active=True), user).select_related("pit")


def player_names(session: GameSession) -> list[str]:
    """The players in the order they sit around the table."""
    return list(SessionPlayer.objects.filter(session=session).order_by("seat").values_list("name", flat=True))


def draw_passes(session: GameSession) -> list[dict[str, str]]:
    """The draw for the first bank as recorded: one {player: card} per pass."""
    passes: dict[int, dict[str, str]] = {}
    for d in BankDraw.objects.filter(session=session).order_by("pass_no", "id"):
        passes.setdefault(d.pass_no, {})[d.player] = d.card
    return [passes[k] for k in sorted(passes)]


def rounds_in_force(session: GameSession) -> list[tuple[SessionRound, Round]]:
    """The night's rounds in order, each with the revision of its record now in force (a correction
    approved by a pit boss replaces the original's document; the original keeps its place)."""
    # The records through Round.objects, so each comes with its derived status and audit status.
    entries = list(
        SessionRound.objects.filter(session=session)
        .prefetch_related(Prefetch("round", queryset=Round.objects.all()))
        .order_by("number")
    )
    superseded = [e.round.uid for e in entries if e.round.status != RoundStatus.RECORDED]
    latest: dict = {}
    if superseded:
        for r in Round.objects.filter(in_force_q(), uid__in=superseded).order_by("revision"):
            latest[r.uid] = r
    return [(e, latest.get(e.round.uid, e.round)) for e in entries]


@dataclass
class SessionState:
    """What the next round needs: the players, the night so far, the bank's limits in force."""

    session: GameSession
    players: list[str]
    entries: list[tuple[SessionRound, Round]]
    tally: Tally
    announcements: list[LimitAnnouncement]
    limits: tuple[Decimal, Decimal] | None  # the bank's limits for the next round (None: to announce)

    @property
    def bank(self) -> str:
        return self.tally.bank

    @property
    def next_number(self) -> int:
        return len(self.tally.lines) + 1

    def seated(self) -> list[tuple[int, str]]:
        """(place, player) for the next round: place 1 at the bank's right (pie de banco)."""
        return seat_order(self.players, self.bank)


def seat_order(players: list[str], bank: str) -> list[tuple[int, str]]:
    b = players.index(bank)
    return [(k, players[(b + k) % len(players)]) for k in range(1, len(players))]


def session_state(session: GameSession) -> SessionState:
    players = player_names(session)
    entries = rounds_in_force(session) if session.first_bank else []
    t = tally(players, session.first_bank, [r.document for _e, r in entries])
    announcements = list(LimitAnnouncement.objects.filter(session=session).order_by("from_round"))
    return SessionState(session, players, entries, t, announcements, limits_in_force(t, announcements))


def limits_in_force(t: Tally, announcements: list[LimitAnnouncement]) -> tuple[Decimal, Decimal] | None:
    """The limits the bank of the next round announced in its current term, if any. A term is the
    run of rounds one player holds the bank; a new bank announces its own limits."""
    number = len(t.lines) + 1
    bank = t.bank
    start = number
    for line in reversed(t.lines):
        if line.bank != bank:
            break
        start = line.number
    said = [a for a in announcements if a.bank == bank and start <= a.from_round <= number]
    return (said[-1].min_bet, said[-1].max_bet) if said else None


# --- the ledger -----------------------------------------------------------------------------------


@dataclass
class LedgerRound:
    number: int
    entry: SessionRound
    record: Round
    bank: str
    bank_next: str
    limits: tuple[Decimal, Decimal]
    gains: dict[str, Decimal]
    balances: dict[str, Decimal]
    findings: list[dict]
    findings_from: str  # "audit" | "engine"
    announced: bool  # the bank announced (new) limits for this round

    @property
    def passes_bank(self) -> bool:
        return self.bank_next != self.bank


@dataclass
class Ledger:
    session: GameSession
    players: list[str]
    draw: list[dict[str, str]]
    rounds: list[LedgerRound]
    balances: dict[str, Decimal]
    bank: str | None  # for the next round
    limits: tuple[Decimal, Decimal] | None
    payments: list[Payment]
    bank_terms: list[dict] = field(default_factory=list)

    @property
    def total(self) -> Decimal:
        return sum(self.balances.values(), ZERO)

    @property
    def finding_count(self) -> int:
        return sum(len(r.findings) for r in self.rounds)

    def chips(self) -> dict[str, Decimal] | None:
        buy_in = self.session.buy_in
        if buy_in is None:
            return None
        return {p: buy_in + b for p, b in self.balances.items()}

    def as_dict(self) -> dict:
        """The ledger as the API gives it (amounts as decimal strings)."""
        s = self.session
        return {
            "id": s.pk,
            "name": s.name,
            "table": s.table.name,
            "dealer": s.dealer.get_username(),
            "status": s.status,
            "unit": fmt(s.unit),
            "buy_in": None if s.buy_in is None else fmt(s.buy_in),
            "players": [{"place": k, "name": p} for k, p in enumerate(self.players, start=1)],
            "draw": [{"pass": k, "cards": cards} for k, cards in enumerate(self.draw, start=1)],
            "first_bank": s.first_bank or None,
            "bank": self.bank,
            "limits": None if self.limits is None else {"min": fmt(self.limits[0]), "max": fmt(self.limits[1])},
            "rounds": [
                {
                    "number": r.number,
                    "round": r.record.pk,
                    "uid": str(r.record.uid),
                    "bank": r.bank,
                    "bank_next": r.bank_next,
                    "limits": {"min": fmt(r.limits[0]), "max": fmt(r.limits[1])},
                    "gains": {p: fmt(v) for p, v in r.gains.items()},
                    "balances": {p: fmt(v) for p, v in r.balances.items()},
                    "audit_status": r.record.audit_status,
                    "findings_from": r.findings_from,
                    "findings": r.findings,
                }
                for r in self.rounds
            ],
            "balances": {p: fmt(v) for p, v in self.balances.items()},
            "total": fmt(self.total),
            "payments": [p.as_dict() for p in self.payments],
            "started_at": s.created_at.isoformat(),
            "ended_at": s.ended_at.isoformat() if s.ended_at else None,
            "end_reason": s.end_reason or None,
        }

    def chart(self) -> dict:
        """Balances over the night for Chart.js: round 0 (the start) to the last round, as decimal
        strings (the page's script turns them into numbers only to draw them)."""
        labels = [0] + [r.number for r in self.rounds]
        series = []
        for p in self.players:
            series.append({"label": p, "data": ["0"] + [fmt(r.balances.get(p, ZERO)) for r in self.rounds]})
        banks = [r.bank for r in self.rounds]
        return {"labels": labels, "series": series, "banks": banks}


def session_ledger(session: GameSession) -> Ledger:
    state = session_state(session)
    lines = state.tally.lines
    records = [r for _e, r in state.entries]
    audited = _audit_findings(records)
    pack = pack_findings([line.doc for line in lines], rules=session.table.rules) if lines else {}
    announced_at = {a.from_round for a in state.announcements}
    rounds = []
    for (entry, record), line in zip(state.entries, lines):
        # The ledger's own findings follow the engine's in `line.findings`; the pack's are the night's.
        own = line.findings[len(line.outcome.findings) :] + pack.get(line.number, [])
        if record.pk in audited:
            findings, source = audited[record.pk], "audit"
        else:
            findings, source = [f.to_dict() for f in line.outcome.findings], "engine"
        findings = findings + [f.to_dict() for f in own]
        rounds.append(
            LedgerRound(
                line.number,
                entry,
                record,
                line.bank,
                line.bank_next,
                line.limits,
                line.gains,
                line.balances,
                findings,
                source,
                line.number in announced_at,
            )
        )
    payments = settle_up(state.tally.balances) if lines else []
    bank = state.bank if session.status == SessionStatus.PLAYING else None
    return Ledger(
        session,
        state.players,
        draw_passes(session),
        rounds,
        dict(state.tally.balances),
        bank,
        state.limits if bank else None,
        payments,
        _bank_terms(rounds),
    )


def _bank_terms(rounds: list[LedgerRound]) -> list[dict]:
    """Who held the bank when: runs of rounds with the same bank, and how each term ended."""
    terms: list[dict] = []
    for r in rounds:
        if terms and terms[-1]["bank"] == r.bank:
            terms[-1]["to"] = r.number
        else:
            terms.append({"bank": r.bank, "from": r.number, "to": r.number, "gain": ZERO})
        terms[-1]["gain"] += r.gains.get(r.bank, ZERO)
        terms[-1]["passed_to"] = r.bank_next if r.passes_bank else None
    return terms


def _audit_findings(records: list[Round]) -> dict[int, list[dict]]:
    """The audit's findings of the rounds it has audited, by round id (none while the audit app
    keeps no findings). A round not audited yet shows the engine's findings instead."""
    done = [r.pk for r in records if r.audit_status in (AuditStatus.CLEAN, AuditStatus.FINDINGS)]
    if not done:
        return {}
    try:
        Finding = apps.get_model("audit", "Finding")
    except LookupError:
        return {}
    out: dict[int, list[dict]] = {pk: [] for pk in done}
    rows = Finding.objects.filter(round_id__in=done).order_by("round_id", "event", "id")
    for f in rows:
        out[f.round_id].append(
            {
                "code": f.code,
                "severity": f.severity,
                "event": f.event,
                "stake": f.stake or None,
                "hand": f.hand or None,
                "wager": f.wager or None,
                "expected": f.expected,
                "actual": f.actual,
                "player_delta": None if f.player_delta is None else fmt(f.player_delta),
                "message": f.message,
                "params": f.params,
                "review": getattr(f, "status", "") or None,
            }
        )
    return out


# --- drawing the table ----------------------------------------------------------------------------


def places_around(n: int, *, first_angle: float = 90.0) -> list[tuple[float, float]]:
    """Positions (left %, top %) of n places around an oval table, the first at the top and the rest
    going counter-clockwise, as the deal goes to the right of whoever deals."""
    out = []
    for k in range(n):
        angle = math.radians(first_angle + 360.0 * k / n)
        out.append((round(50 + 41 * math.cos(angle), 2), round(50 - 40 * math.sin(angle), 2)))
    return out


def round_view(doc: dict, outcome: engine.Outcome | None = None) -> dict:
    """A round drawn on the table: the bank at the top, the seats from its right; each hand's cards
    (the tapo card marked), its bet, what it was owed and what was paid."""
    outcome = outcome or engine.replay(doc)
    stakes = sorted(doc["stakes"], key=lambda s: s["seat"])
    hands: dict[str, dict] = {}
    order: list[str] = []
    bank_cards: list[dict] = []
    bets: dict[str, Decimal] = {}
    by_stake = {s["id"]: s for s in stakes}
    puje = False

    def hand(name: str) -> dict:
        if name not in hands:
            hands[name] = {"name": name, "cards": [], "bet": None, "marks": []}
            order.append(name)
        return hands[name]

    for s in stakes:
        hand(str(s["seat"]))
    for ev in doc["events"]:
        e = ev.get("e")
        if e == "deal":
            if ev["to"] == "bank":
                bank_cards.append({"code": ev["card"]})
            else:
                hand(str(ev["to"]))["cards"].append({"code": ev["card"]})
        elif e == "bet":
            seat = str(by_stake[ev["stake"]]["seat"])
            hand(seat)["bet"] = bets[seat] = Decimal(str(ev["amount"]))
        elif e in ("hit", "tapo"):
            hand(ev["hand"])["cards"].append({"code": ev["card"], "hidden": e == "tapo"})
            if e == "tapo":
                hand(ev["hand"])["marks"].append("tapo")
        elif e == "split":
            parent = hand(ev["hand"])
            first, second = hand(ev["hand"] + ".1"), hand(ev["hand"] + ".2")
            first["cards"], second["cards"] = parent["cards"][:1], parent["cards"][1:2]
            first["bet"] = parent["bet"]
            second["bet"] = Decimal(str(ev["amount"]))
            parent["split"] = True
        elif e == "draw":
            bank_cards.append({"code": ev["card"], "drawn": True})
        elif e in ("declare", "withdraw", "void", "stand"):
            hand(ev["hand"])["marks"].append(e)
        elif e == "puje":
            puje = True
    owed = {(w.stake, w.hand): w for w in outcome.wagers or []}
    paid = {(s.stake, s.hand): s for s in outcome.settled}
    seats = []
    for s in stakes:
        seat_hands = [hands[n] for n in order if n.split(".")[0] == str(s["seat"]) and not hands[n].get("split")]
        for h in seat_hands:
            w = owed.get((s["id"], h["name"]))
            h["owed"] = (
                None
                if w is None
                else {
                    "result": w.result,
                    "amount": w.amount if w.result == "pay" else w.size,
                    "why": w.why,
                    "verdict": w.verdict,
                    "delta": w.delta,
                }
            )
            p = paid.get((s["id"], h["name"]))
            h["paid"] = None if p is None else {"result": p.result, "amount": p.amount}
            h["paid_wrong"] = (
                p is not None
                and w is not None
                and (
                    p.result != w.result
                    or (p.amount is not None and p.amount != (w.amount if w.result == "pay" else w.size))
                )
            )
        seats.append({"seat": s["seat"], "player": s["player"], "stake": s["id"], "hands": seat_hands})
    return {
        "bank": doc["bank"],
        "bank_cards": bank_cards,
        "seats": seats,
        "puje": puje,
        "bank_next": outcome.extra.get("bank_next"),
        "float": outcome.float,
    }
