"""The procedure drill: a round played step by step, the trainee choosing the dealer's next move.

A script is built from a simulated (correct) round. Players' decisions — a fold, a Bet, a stand —
are told as they happen; at every dealer action the trainee picks from a short list:

  * the right move: the next events of the simulated round, which the engine's "what may happen
    next" (`engine.next_events`) lists for the round so far;
  * plausible wrong moves, each a *mutation* of the log (deal to the wrong box, draw on 17, settle
    box 1 before box 6, pay the dealer bet before the Bet, burn the exposed card without the pit
    boss, …). A wrong move is offered only when the engine's audit of the round played that way
    flags it with the expected finding code: the explanation the trainee reads is that finding,
    in the dealer's words.

Incidents (ochko, rules/ochko.md "Incidents" and "The shoe") are woven in: the dealer's card flips
during the deal, a card drawn by mistake (seen or not), and between rounds a player demanding a new
shuffle, asking for a paid burn, or a new dealer taking over. Between-round moves are checked with
the engine's shoe checks (`engine.check_shoe`: burns after loading and after a dealer change, the
paid-burn fee); the few wrong moves no log can show (refusing a paid burn, agreeing to a shuffle
mid-shoe, keeping an exposed card) are explained from the procedure itself and carry a drill code.

After a wrong choice the round goes on from the right state: the right events are applied.
"""

from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _

from dealing import engine
from dealing.engine.errors import RoundError
from dealing.games.drills import DARK_CARDS, DEAL_PAIRED, DEAL_TWICE, DEALER_DRAWS, SETTLE_ORDER

from . import table as tbl
from .incidents import DRILL_CODES, INSPECTOR, PIT_BOSS, IncidentSteps
from .moves import SETTLE, Candidate, Words, plain
from .setups import game

__all__ = ["DRILL_CODES", "INSPECTOR", "PIT_BOSS", "Builder", "Candidate", "Script", "Words", "build_script", "plain"]

DRAWING = {"hit", "stand", "dark", "draw", "reveal", "double", "tapo", "split"}
MAX_WRONG = 3


@dataclass
class Script:
    log: list[dict] = field(default_factory=list)
    steps: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"log": self.log, "steps": self.steps}


# --- the builder -------------------------------------------------------------------------------------


class Builder(IncidentSteps):
    def __init__(self, doc: dict, rng, *, incident: str | None = None):
        self.doc = doc
        self.variant = doc["variant"]
        self.game = game(self.variant)  # its words, pack and mistakes (dealing/games/<variant>/drills.py)
        self.rng = rng
        self.incident = incident
        self.log = list(doc["events"])
        self.steps: list[dict] = []
        self.between: dict | None = None

    # -- helpers --

    def replay(self, events: list[dict]):
        return engine.replay({**self.doc, "events": events})

    def spot_of_event(self, ev: dict):
        if ev["e"] in SETTLE:
            return self.words.spot_of.get(str(ev["stake"]))
        return None

    def random_card(self) -> str:
        return self.rng.choice(self.game.ranks) + self.rng.choice("SHDC")

    def totals_after(self, events: list[dict]) -> tuple[dict, int | None]:
        view = tbl.build(self.doc, events)
        totals = {}
        for spot in view.spots:
            for hand in spot.hands:
                codes = [c.code for c in hand.cards]
                if codes:
                    totals[hand.name] = tbl.total_of(self.variant, codes)
        dealer = [c.code for c in view.dealer.cards]
        return totals, (tbl.total_of(self.variant, dealer) if dealer else None)

    def verify(self, prefix: list[dict], cand: Candidate, right: list[dict], after: list[dict]):
        """The engine's finding for a wrong move, or None when the engine sees nothing wrong."""
        rest = cand.rest if cand.rest is not None else right + after
        try:
            outcome = self.replay(prefix + cand.wrong + rest)
        except RoundError:
            return None
        lo = len(prefix)
        for f in outcome.findings:
            if f.code == cand.code and (f.event is None or f.event >= lo):
                return f
        return None

    # -- the script --

    def build(self) -> Script:
        self._insert_incident()
        outcome = self.replay(self.log)
        if outcome.findings:  # the simulated round is correct; an inserted incident must keep it so
            raise AssertionError(f"procedure log not clean: {[f.message for f in outcome.findings]}")
        self.sizes = {(o.stake, o.hand, o.wager): o.size for o in outcome.wagers or []}
        self.words = Words(self.doc, self.sizes)
        if self.between is not None:
            self.steps.append(self._between_step())
        log = self.log
        i = 0
        narration: list[str] = []
        while i < len(log):
            ev = log[i]
            if ev["e"] in self.game.narrated and not self._starts_block(i):
                totals, _dealer = self.totals_after(log[:i])
                narration.append(self.words.narrate(ev, totals))
                i += 1
                continue
            end = self._block_end(i)
            step = self._step(i, end, narration)
            if step is None:  # nothing plausible to get wrong: the move is told, not asked
                narration.append(self._told(log[i:end]))
            else:
                self.steps.append(step)
                narration = []
            i = end
        if narration and self.steps:
            self.steps[-1].setdefault("after", []).extend(narration)
        return Script(self.log, self.steps)

    def _told(self, events: list[dict]) -> str:
        return _("You: %(move)s") % {"move": self.words.move(events)}

    def _starts_block(self, i: int) -> bool:
        return False

    def _block_end(self, i: int) -> int:
        log = self.log
        ev = log[i]
        e = ev["e"]
        j = i + 1
        if e == "deal":
            while j < len(log) and log[j]["e"] == "deal":
                j += 1
            return j
        if e in SETTLE:
            spot = self.spot_of_event(ev)
            while j < len(log) and log[j]["e"] in SETTLE and self.spot_of_event(log[j]) == spot:
                j += 1
            return j
        if e == "incident":
            while j < len(log) and log[j]["e"] == "burn":
                j += 1
            if (
                ev.get("kind") == "dealer_card_exposed"
                and j < len(log)
                and log[j]["e"] == "deal"
                and log[j]["to"] == "dealer"
            ):
                j += 1
            return j
        return j

    def _dealer_deals_before(self, i: int) -> int:
        return sum(1 for ev in self.log[:i] if ev["e"] == "deal" and ev["to"] in ("dealer", "bank"))

    def _step(self, i: int, end: int, narration: list[str]) -> dict | None:
        log = self.log
        prefix, right, after = log[:i], log[i:end], log[end:]
        totals, dealer_total = self.totals_after(prefix)
        kind = "incident" if right[0]["e"] == "incident" else "action"
        if kind == "incident":
            prompt, right_label, then, candidates = self._incident_step(prefix, right, after)
        else:
            prompt = self._prompt(prefix, right, totals)
            right_label = self.words.move(right, self._dealer_deals_before(i), dealer_total)
            then = ""
            candidates = self._candidates(prefix, right, after, totals, dealer_total)
        choices = [{"label": right_label, "correct": True, "code": None, "explain": "", "engine": True}]
        seen = {right_label}
        wrong = []
        for cand in candidates:
            if cand.label in seen:
                continue
            if cand.explain:
                wrong.append(
                    {"label": cand.label, "correct": False, "code": cand.code, "explain": cand.explain, "engine": False}
                )
                seen.add(cand.label)
                continue
            finding = self.verify(prefix, cand, right, after)
            if finding is None:
                continue
            seen.add(cand.label)
            explain, params = plain(finding)
            wrong.append(
                {
                    "label": cand.label,
                    "correct": False,
                    "code": finding.code,
                    "explain": explain,
                    "params": params,
                    "engine": True,
                }
            )
        if not wrong:
            return None
        self.rng.shuffle(wrong)
        choices.extend(wrong[:MAX_WRONG])
        self.rng.shuffle(choices)
        for k, choice in enumerate(choices, start=1):
            choice["key"] = str(k)
        return {
            "kind": kind,
            "at": i,
            "end": end,
            "narration": list(narration),
            "prompt": prompt,
            "right": right_label,
            "then": then,
            "choices": choices,
            "listed": self._listed(prefix, right),
        }

    def _listed(self, prefix: list[dict], right: list[dict]) -> bool:
        """Whether the engine's "what may happen next" lists the right move's first event."""
        try:
            moves = engine.next_events({**self.doc, "events": prefix})
        except RoundError:
            return False
        first = right[0]
        for move in moves:
            if move["e"] != first["e"]:
                continue
            if all(move.get(k) == first.get(k) for k in ("to", "box", "hand", "stake", "wager", "player") if k in move):
                return True
        return False

    def _prompt(self, prefix, right, totals) -> str:
        ev = right[0]
        e = ev["e"]
        if e == "deal":
            return self.game.deal_prompt(self.doc, prefix)
        if e in ("hit", "dark", "double", "tapo"):
            where = ev.get("box", ev.get("hand"))
            total = totals.get(str(where))
            hand = self.words.hand(where).capitalize()
            if e == "dark":
                return _("%(box)s (%(total)s) asks for a dark card.") % {"box": hand, "total": total}
            if e == "double":
                return _("%(hand)s doubles.") % {"hand": hand}
            if e == "tapo":
                return _("%(hand)s asks for tapo y quedo.") % {"hand": hand}
            return _("%(hand)s (%(total)s) asks for a card.") % {"hand": hand, "total": total}
        return _("What do you do next?")

    # -- wrong moves --

    def _candidates(self, prefix, right, after, totals, dealer_total) -> list[Candidate]:
        ev = right[0]
        e = ev["e"]
        w = self.words
        out: list[Candidate] = []
        mistakes = self.game.mistakes
        after_draws = bool(prefix) and prefix[-1]["e"] == "draw" and e != "draw"
        if after_draws and DEALER_DRAWS in mistakes:
            draw = {"e": "draw", "card": self.random_card()}
            out.append(
                Candidate(
                    _("Deal yourself another card (you have %(total)s).") % {"total": dealer_total},
                    [draw],
                    "DEALER_DRAW_RULE",
                )
            )
        if e == "deal":
            out += self._deal_candidates(prefix, right, after)
        elif e in SETTLE:
            out += self._settle_candidates(prefix, right, after)
        elif e == "open":
            box_ev = next((a for a in after if a["e"] in ("hit", "dark", "stand")), None)
            if box_ev is not None:
                hit = {"e": "hit", "box": box_ev["box"], "card": self.random_card()}
                out.append(
                    Candidate(
                        _("Deal %(box)s a card first, then open your card.") % {"box": w.spot(box_ev["box"])},
                        [hit],
                        "ILLEGAL_ACTION",
                    )
                )
            out.append(
                Candidate(
                    _("Deal yourself a second card, then open."),
                    [{"e": "draw", "card": self.random_card()}],
                    "ILLEGAL_ACTION",
                )
            )
        elif e in ("hit", "dark", "double", "tapo"):
            where_key = self.game.where
            where = ev[where_key]
            nxt = next(
                (
                    a
                    for a in after
                    if a["e"] in ("hit", "dark", "stand", "double", "tapo", "split") and a.get(where_key) != where
                ),
                None,
            )
            if nxt is not None:
                other = {"e": "hit", where_key: nxt[where_key], "card": ev["card"]}
                out.append(
                    Candidate(_("Give the card to %(hand)s.") % {"hand": w.hand(nxt[where_key])}, [other], "DRAW_ORDER")
                )
            if DEALER_DRAWS in mistakes:
                out.append(
                    Candidate(_("Deal the card to yourself."), [{"e": "draw", "card": ev["card"]}], "DRAW_ORDER")
                )
            if e == "dark":
                out.append(
                    Candidate(
                        w.move([ev, {"e": "reveal", "box": where}]),
                        [ev, {"e": "reveal", "box": where}],
                        "ILLEGAL_ACTION",
                        rest=[a for a in after if not (a["e"] == "reveal" and a.get("box") == where)],
                    )
                )
            if e == "hit" and DARK_CARDS in mistakes and nxt is None:
                out.append(
                    Candidate(
                        w.move([{"e": "dark", "box": where, "card": ev["card"]}, {"e": "reveal", "box": where}]),
                        [{"e": "dark", "box": where, "card": ev["card"]}, {"e": "reveal", "box": where}],
                        "ILLEGAL_ACTION",
                        rest=after,
                    )
                )
        elif e == "draw":
            draws = 0
            for a in right + after:
                if a["e"] != "draw":
                    break
                draws += 1
            skipped = (right + after)[draws:]
            out.append(
                Candidate(
                    _("Stand on %(total)s and settle.") % {"total": dealer_total}, [], "DEALER_DRAW_RULE", rest=skipped
                )
            )
            if SETTLE_ORDER in mistakes:
                # Settle before drawing: the first box of the final settlement, paid too early.
                finals = [a for a in skipped if a["e"] in SETTLE]
                if finals:
                    spot = self.spot_of_event(finals[0])
                    block = [a for a in finals if self.spot_of_event(a) == spot]
                    rest = right + [a for a in after if not any(a is b for b in block)]
                    out.append(
                        Candidate(
                            _("Settle now, then draw. %(moves)s") % {"moves": w.settlement(block)},
                            block,
                            "PAYMENT_ORDER",
                            rest=rest,
                        )
                    )
            dark = next((a for a in after if a["e"] == "reveal"), None)
            if dark is not None:
                out.append(
                    Candidate(
                        _("Turn %(box)s's dark card first.") % {"box": w.spot(dark["box"])},
                        [dark],
                        "ILLEGAL_ACTION",
                        rest=right + [a for a in after if a is not dark],
                    )
                )
        elif e == "peek":
            out.append(Candidate(_("Play on without looking at your hole card."), [], "ILLEGAL_ACTION", rest=after))
        elif e == "bank_to":
            others = [s["player"] for s in self.doc["stakes"] if s["player"] != ev["player"]]
            if ev["player"] != self.doc.get("bank"):
                others.append(self.doc.get("bank"))
            for player in others[:2]:
                out.append(
                    Candidate(
                        w.move([{"e": "bank_to", "player": player}]),
                        [{"e": "bank_to", "player": player}],
                        "BANK_SUCCESSION",
                        rest=after,
                    )
                )
        return out

    def _deal_candidates(self, prefix, right, after) -> list[Candidate]:
        w = self.words
        before = self._dealer_deals_before(len(prefix))
        dealer = [ev for ev in right if ev["to"] in ("dealer", "bank")]
        boxes = [ev for ev in right if ev["to"] not in ("dealer", "bank")]
        out = []
        if dealer and boxes:
            order = dealer + boxes
            out.append(Candidate(w.deal_order(order, before), order, "DEAL_ORDER", rest=after))
        if len({ev["to"] for ev in boxes}) > 1:
            order = list(reversed(boxes)) + dealer
            out.append(Candidate(w.deal_order(order, before), order, "DEAL_ORDER", rest=after))
        if DEAL_PAIRED in self.game.mistakes and len(boxes) >= 2:
            # Each box its two cards at once, then the dealer's two.
            half = len(boxes) // 2
            paired = [card for pair in zip(boxes[:half], boxes[half:]) for card in pair] + dealer
            out.append(Candidate(w.deal_order(paired, before), paired, "DEAL_ORDER", rest=after))
        if boxes and len({ev["to"] for ev in boxes}) == 1 and DEAL_TWICE in self.game.mistakes:
            twice = [boxes[0], {"e": "deal", "to": boxes[0]["to"], "card": self.random_card()}] + dealer
            out.append(Candidate(w.deal_order(twice, before), twice, "DEAL_ORDER", rest=after))
        return out

    def _settle_candidates(self, prefix, right, after) -> list[Candidate]:
        w = self.words
        out = []
        flipped = [self._flip(ev) for ev in right]
        out.append(Candidate(w.settlement(flipped), flipped, "WRONG_RESULT", rest=after))
        underpaid = [self._one_to_one(ev) for ev in right]
        if underpaid != right:
            out.append(Candidate(w.settlement(underpaid), underpaid, "WRONG_AMOUNT", rest=after))
        if SETTLE_ORDER in self.game.mistakes:
            extra = [ev for ev in right if ev["wager"] == "dealer_bet"]
            main = [ev for ev in right if ev["wager"] != "dealer_bet"]
            if extra and main:
                order = extra + main
                out.append(Candidate(w.settlement(order), order, "PAYMENT_ORDER", rest=after))
            if extra:
                changed = main + [self._flip(ev) for ev in extra]
                out.append(Candidate(w.settlement(changed), changed, "WRONG_RESULT", rest=after))
            # Another box first: the lowest box still to be settled at the end.
            spot = self.spot_of_event(right[0])
            later = [ev for ev in after if ev["e"] in SETTLE]
            lower = (
                sorted({self.spot_of_event(ev) for ev in later if self.spot_of_event(ev) < spot})
                if self._final(prefix)
                else []
            )
            if lower:
                box = lower[0]
                block = [ev for ev in later if self.spot_of_event(ev) == box]
                rest = right + [ev for ev in after if not any(ev is b for b in block)]
                out.append(Candidate(w.settlement(block), block, "PAYMENT_ORDER", rest=rest))
            # An instant settled late: after the next drawing action.
            if after and after[0]["e"] in DRAWING and not self._final(prefix):
                out.append(
                    Candidate(
                        _("Carry on with the round; settle %(box)s at the end with the others.")
                        % {"box": w.spot(spot)},
                        [],
                        "LATE_SETTLEMENT",
                        rest=[after[0]] + right + after[1:],
                    )
                )
        return out

    def _final(self, prefix: list[dict]) -> bool:
        """Whether the round has reached its final settlement (the dealer has drawn)."""
        return any(ev["e"] == "draw" for ev in prefix)

    def _flip(self, ev: dict) -> dict:
        size = self.sizes.get((str(ev["stake"]), ev.get("hand"), ev["wager"]))
        out = {k: v for k, v in ev.items() if k != "amount"}
        if ev["e"] == "pay":
            out["e"] = "take"
        elif ev["e"] == "take" or ev["wager"] == "dealer_bet":
            out["e"] = "pay" if ev["e"] == "take" else "take"
        else:
            out["e"] = "pay"
        if out["e"] != "leave" and size is not None:
            out["amount"] = size
        return out

    def _one_to_one(self, ev: dict) -> dict:
        size = self.sizes.get((str(ev["stake"]), ev.get("hand"), ev["wager"]))
        if ev["e"] == "pay" and size is not None and Decimal(str(ev["amount"])) != size:
            return {**ev, "amount": size}
        return ev


def build_script(doc: dict, rng, *, incident: str | None = None) -> dict:
    """The steps of a procedure round (see the module docstring)."""
    return Builder(doc, rng, incident=incident).build().as_dict()
