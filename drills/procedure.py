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

import re
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _

from casino.templatetags.casino_tags import money
from dealing import engine
from dealing.engine.errors import RoundError

from . import table as tbl

SETTLE = ("pay", "take", "leave")
# Players' decisions: told to the trainee, never asked.
NARRATED = {
    "ochko": {"fold", "bet", "stand", "burn"},
    "blackjack": {"insurance", "even_money", "stand", "split"},
    "veintiuno": {"bet", "declare", "withdraw", "void", "puje", "stand", "split", "draw"},
}
DRAWING = {"hit", "stand", "dark", "draw", "reveal", "double", "tapo", "split"}
# Mistakes no log can show: codes of the drill's own (engine codes are used wherever a log can).
DRILL_CODES = {
    "SHUFFLE_DEMAND": "a player's demand for a new shuffle handled against the procedure",
    "PAID_BURN": "a player's paid burn refused",
    "INCIDENT_HANDLING": "an exposed card kept in play instead of stopping the game",
}
INSPECTOR, PIT_BOSS = "I-1", "PB-1"
_EVENT_PREFIX = re.compile(r"^(Event|Shoe item) \d+: ")
MAX_WRONG = 3


def plain(message: str) -> str:
    """An engine finding without its event number (meaningless to a trainee), capitalised."""
    text = _EVENT_PREFIX.sub("", message)
    return text[:1].upper() + text[1:]


@dataclass
class Candidate:
    label: str
    wrong: list[dict]  # events the wrong move logs
    code: str
    rest: list[dict] | None = None  # what follows it (default: the right events, then the round)
    shoe: list[dict] | None = None  # between rounds: the shoe items of this move
    explain: str = ""  # for moves no log can show


@dataclass
class Script:
    log: list[dict] = field(default_factory=list)
    steps: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"log": self.log, "steps": self.steps}


# --- words -----------------------------------------------------------------------------------------

def _amount(value) -> str:
    """An amount as the floor reads it (5,000 / 7.50)."""
    return money(Decimal(str(value)))


class Words:
    """How moves, players' decisions and situations are said to the trainee."""

    def __init__(self, doc: dict, sizes: dict[tuple, Decimal]):
        self.doc = doc
        self.variant = doc["variant"]
        self.sizes = sizes
        self.spot_of = {s["id"]: s.get("box", s.get("seat")) for s in doc["stakes"]}
        self.player_of = {s["id"]: s.get("player", "") for s in doc["stakes"]}

    def spot(self, number) -> str:
        if self.variant == "veintiuno":
            return _("seat %(n)s") % {"n": number}
        return _("box %(n)s") % {"n": number}

    def hand(self, name) -> str:
        name = str(name)
        if self.variant == "ochko":
            return self.spot(name)
        if self.variant == "veintiuno" and "." not in name:
            return self.spot(name)
        return _("hand %(name)s") % {"name": name}

    def wager(self, name: str) -> str:
        return tbl.wager_label(name)

    def size(self, ev: dict) -> str:
        if ev.get("amount") is not None:
            return _amount(ev["amount"])
        size = self.sizes.get((str(ev["stake"]), ev.get("hand"), ev["wager"]))
        return _amount(size) if size is not None else ""

    def deal_order(self, events: list[dict], dealt_before: int = 0) -> str:
        """The order of a deal, runs through every box in play said once ("every box, 1 → 5")."""
        in_play = sorted({s.get("box", s.get("seat")) for s in self.doc["stakes"]})
        targets = []
        dealer_cards = dealt_before
        k = 0
        while k < len(events):
            to = events[k]["to"]
            if to in ("dealer", "bank"):
                if self.variant == "ochko":
                    targets.append(_("your own card (face down)"))
                elif self.variant == "blackjack":
                    targets.append(_("your up card") if dealer_cards % 2 == 0 else _("your hole card (face down)"))
                else:
                    targets.append(_("the bank"))
                dealer_cards += 1
                k += 1
                continue
            run = [ev["to"] for ev in events[k:k + 2 * len(in_play)]]
            n = len(in_play)
            if n >= 3 and run[:n] in (in_play, in_play[::-1]):
                first, last = run[0], run[n - 1]
                targets.append(_("every %(what)s from %(first)s to %(last)s") % {
                    "what": self.spot("").strip(), "first": first, "last": last})
                k += n
            elif n >= 2 and run == [b for b in in_play for _twice in (1, 2)]:
                targets.append(_("two cards to each %(what)s in turn, from %(first)s to %(last)s") % {
                    "what": self.spot("").strip(), "first": in_play[0], "last": in_play[-1]})
                k += 2 * n
            else:
                targets.append(self.spot(to))
                k += 1
        return _("Deal in this order: %(order)s.") % {"order": " → ".join(targets)}

    def settlement(self, events: list[dict]) -> str:
        verbs = {"pay": _("pay"), "take": _("take"), "leave": _("leave")}
        phrases: list[list] = []
        for ev in events:
            key = (ev["e"], str(ev["stake"]), ev.get("hand"))
            what = _("%(wager)s %(amount)s") % {"wager": self.wager(ev["wager"]), "amount": self.size(ev)}
            if phrases and phrases[-1][0] == key:
                phrases[-1][1].append(what)
            else:
                phrases.append([key, [what]])
        parts = []
        for (verb, stake, hand), whats in phrases:
            joined = whats[0] if len(whats) == 1 else _("%(first)s and %(last)s") % {
                "first": ", ".join(whats[:-1]), "last": whats[-1]}
            if self.variant == "ochko":
                parts.append(_("%(verb)s %(what)s of stake %(stake)s") % {"verb": verbs[verb], "what": joined,
                                                                          "stake": stake})
            elif hand is None or "." not in str(hand):
                parts.append(_("%(verb)s %(what)s") % {"verb": verbs[verb], "what": joined})
            else:
                parts.append(_("%(verb)s %(what)s of %(hand)s") % {"verb": verbs[verb], "what": joined,
                                                                   "hand": self.hand(hand)})
        spot = self.spot_of.get(str(events[0]["stake"]), "")
        text = _(", then ").join(parts)
        return _("%(spot)s: %(moves)s.") % {"spot": self.spot(spot).capitalize(), "moves": text}

    def move(self, events: list[dict], dealt_before: int = 0, dealer_total: int | None = None) -> str:
        """A move, in the same words whether it is the right one or a wrong one."""
        if all(ev["e"] == "deal" for ev in events):
            return self.deal_order(events, dealt_before)
        if all(ev["e"] in SETTLE for ev in events):
            return self.settlement(events)
        ev = events[0]
        e = ev["e"]
        if e == "open":
            return _("Close the Bets and open your card.")
        if e == "hit":
            if self.variant == "ochko":
                return _("Deal %(box)s a card face up.") % {"box": self.spot(ev["box"])}
            return _("Deal %(hand)s a card face up.") % {"hand": self.hand(ev["hand"])}
        if e == "dark":
            if len(events) > 1 and events[1]["e"] == "reveal":
                return _("Deal %(box)s one card face down, across the box, and turn it so the player sees it.") % {
                    "box": self.spot(ev["box"])}
            return _("Deal %(box)s one card face down, across the box.") % {"box": self.spot(ev["box"])}
        if e == "double":
            return _("Deal %(hand)s one card for the double.") % {"hand": self.hand(ev["hand"])}
        if e == "tapo":
            return _("Deal %(hand)s one card face down, seen by nobody.") % {"hand": self.hand(ev["hand"])}
        if e == "draw":
            if dealer_total is not None:
                return _("Deal yourself a card (you have %(total)s).") % {"total": dealer_total}
            return _("Deal the card to yourself.")
        if e == "reveal":
            return _("Turn %(box)s's dark card over and announce its total.") % {"box": self.spot(ev["box"])}
        if e == "peek":
            return _("Check your hole card for blackjack.")
        if e == "bank_to":
            if ev["player"] == self.doc.get("bank"):
                return _("The bank stays with %(player)s.") % {"player": ev["player"]}
            return _("Pass the bank to %(player)s.") % {"player": ev["player"]}
        return e

    def narrate(self, ev: dict, totals: dict) -> str:
        e = ev["e"]
        if e == "fold":
            return _("Stake %(stake)s (%(box)s) folds.") % {"stake": ev["stake"],
                                                           "box": self.spot(self.spot_of.get(ev["stake"]))}
        if e == "bet":
            if self.variant == "veintiuno":
                return _("%(player)s (%(seat)s) bets %(amount)s.") % {
                    "player": self.player_of.get(ev["stake"]), "seat": self.spot(self.spot_of.get(ev["stake"])),
                    "amount": _amount(ev["amount"])}
            return _("Stake %(stake)s (%(box)s) places a Bet of %(amount)s.") % {
                "stake": ev["stake"], "box": self.spot(self.spot_of.get(ev["stake"])), "amount": _amount(ev["amount"])}
        if e == "stand":
            where = ev.get("box", ev.get("hand"))
            total = totals.get(str(where))
            if total is not None:
                return _("%(hand)s stands on %(total)s.") % {"hand": self.hand(where).capitalize(), "total": total}
            return _("%(hand)s stands.") % {"hand": self.hand(where).capitalize()}
        if e == "burn":
            return _("The card is burned.")
        if e == "insurance":
            return _("%(box)s insures for %(amount)s.") % {"box": self.spot(self.spot_of.get(ev["stake"])).capitalize(),
                                                           "amount": _amount(ev["amount"])}
        if e == "even_money":
            return _("%(box)s takes even money.") % {"box": self.spot(self.spot_of.get(ev["stake"])).capitalize()}
        if e == "split":
            if ev.get("amount") is not None:
                return _("%(hand)s opens the pair with %(amount)s.") % {"hand": self.hand(ev["hand"]).capitalize(),
                                                                        "amount": _amount(ev["amount"])}
            return _("%(hand)s splits the pair.") % {"hand": self.hand(ev["hand"]).capitalize()}
        if e == "declare":
            return _("%(hand)s declares a natural.") % {"hand": self.hand(ev["hand"]).capitalize()}
        if e == "withdraw":
            return _("%(hand)s withdraws on 13.") % {"hand": self.hand(ev["hand"]).capitalize()}
        if e == "void":
            return _("%(hand)s, pie de banco, voids the hand.") % {"hand": self.hand(ev["hand"]).capitalize()}
        if e == "puje":
            return _("The bank holds 20 and sends the table al puje.")
        if e == "draw":
            return _("The bank draws %(card)s.") % {"card": tbl.card_label(ev["card"])}
        return e


# --- the builder -------------------------------------------------------------------------------------

class Builder:
    def __init__(self, doc: dict, rng, *, incident: str | None = None):
        self.doc = doc
        self.variant = doc["variant"]
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
        ranks = {"ochko": "6789TJQKA", "blackjack": "23456789TJQKA", "veintiuno": "A234567JQK"}[self.variant]
        return self.rng.choice(ranks) + self.rng.choice("SHDC")

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
            if ev["e"] in NARRATED[self.variant] and not self._starts_block(i):
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
            if ev.get("kind") == "dealer_card_exposed" and j < len(log) and log[j]["e"] == "deal" \
                    and log[j]["to"] == "dealer":
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
                wrong.append({"label": cand.label, "correct": False, "code": cand.code, "explain": cand.explain,
                              "engine": False})
                seen.add(cand.label)
                continue
            finding = self.verify(prefix, cand, right, after)
            if finding is None:
                continue
            seen.add(cand.label)
            wrong.append({"label": cand.label, "correct": False, "code": finding.code,
                          "explain": plain(finding.message), "engine": True})
        if not wrong:
            return None
        self.rng.shuffle(wrong)
        choices.extend(wrong[:MAX_WRONG])
        self.rng.shuffle(choices)
        for k, choice in enumerate(choices, start=1):
            choice["key"] = str(k)
        return {"kind": kind, "at": i, "end": end, "narration": list(narration), "prompt": prompt,
                "right": right_label, "then": then, "choices": choices, "listed": self._listed(prefix, right)}

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
            if all(move.get(k) == first.get(k) for k in ("to", "box", "hand", "stake", "wager", "player")
                   if k in move):
                return True
        return False

    def _prompt(self, prefix, right, totals) -> str:
        ev = right[0]
        e = ev["e"]
        if e == "deal":
            if self.variant == "veintiuno":
                if any(p["e"] == "bet" for p in prefix):
                    return _("The bets are in.")
                return _("The players are seated; the bank is %(bank)s.") % {"bank": self.doc.get("bank", "")}
            boxes = sorted({s.get("box") for s in self.doc["stakes"]})
            words = ", ".join(str(b) for b in boxes)
            if self.variant == "ochko":
                return _("Antes are on boxes %(boxes)s.") % {"boxes": words}
            return _("Bets are on boxes %(boxes)s.") % {"boxes": words}
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
        after_draws = bool(prefix) and prefix[-1]["e"] == "draw" and e != "draw"
        if after_draws and self.variant in ("ochko", "blackjack"):
            draw = {"e": "draw", "card": self.random_card()}
            out.append(Candidate(_("Deal yourself another card (you have %(total)s).") % {"total": dealer_total},
                                 [draw], "DEALER_DRAW_RULE"))
        if e == "deal":
            out += self._deal_candidates(prefix, right, after)
        elif e in SETTLE:
            out += self._settle_candidates(prefix, right, after)
        elif e == "open":
            box_ev = next((a for a in after if a["e"] in ("hit", "dark", "stand")), None)
            if box_ev is not None:
                hit = {"e": "hit", "box": box_ev["box"], "card": self.random_card()}
                out.append(Candidate(_("Deal %(box)s a card first, then open your card.") % {
                    "box": w.spot(box_ev["box"])}, [hit], "ILLEGAL_ACTION"))
            out.append(Candidate(_("Deal yourself a second card, then open."),
                                 [{"e": "draw", "card": self.random_card()}], "ILLEGAL_ACTION"))
        elif e in ("hit", "dark", "double", "tapo"):
            where_key = "box" if self.variant == "ochko" else "hand"
            where = ev[where_key]
            nxt = next((a for a in after if a["e"] in ("hit", "dark", "stand", "double", "tapo", "split")
                        and a.get(where_key) != where), None)
            if nxt is not None:
                other = {"e": "hit", where_key: nxt[where_key], "card": ev["card"]}
                out.append(Candidate(_("Give the card to %(hand)s.") % {"hand": w.hand(nxt[where_key])}, [other],
                                     "DRAW_ORDER"))
            if self.variant in ("ochko", "blackjack"):
                out.append(Candidate(_("Deal the card to yourself."), [{"e": "draw", "card": ev["card"]}],
                                     "DRAW_ORDER"))
            if e == "dark":
                out.append(Candidate(w.move([ev, {"e": "reveal", "box": where}]),
                                     [ev, {"e": "reveal", "box": where}], "ILLEGAL_ACTION",
                                     rest=[a for a in after if not (a["e"] == "reveal" and a.get("box") == where)]))
            if e == "hit" and self.variant == "ochko" and nxt is None:
                out.append(Candidate(w.move([{"e": "dark", "box": where, "card": ev["card"]},
                                             {"e": "reveal", "box": where}]),
                                     [{"e": "dark", "box": where, "card": ev["card"]}, {"e": "reveal", "box": where}],
                                     "ILLEGAL_ACTION", rest=after))
        elif e == "draw":
            draws = 0
            for a in right + after:
                if a["e"] != "draw":
                    break
                draws += 1
            skipped = (right + after)[draws:]
            out.append(Candidate(_("Stand on %(total)s and settle.") % {"total": dealer_total}, [],
                                 "DEALER_DRAW_RULE", rest=skipped))
            if self.variant == "ochko":
                # Settle before drawing: the first box of the final settlement, paid too early.
                finals = [a for a in skipped if a["e"] in SETTLE]
                if finals:
                    spot = self.spot_of_event(finals[0])
                    block = [a for a in finals if self.spot_of_event(a) == spot]
                    rest = right + [a for a in after if not any(a is b for b in block)]
                    out.append(Candidate(_("Settle now, then draw. %(moves)s") % {"moves": w.settlement(block)}, block,
                                         "PAYMENT_ORDER", rest=rest))
            dark = next((a for a in after if a["e"] == "reveal"), None)
            if dark is not None:
                out.append(Candidate(_("Turn %(box)s's dark card first.") % {"box": w.spot(dark["box"])},
                                     [dark], "ILLEGAL_ACTION",
                                     rest=right + [a for a in after if a is not dark]))
        elif e == "peek":
            out.append(Candidate(_("Play on without looking at your hole card."), [], "ILLEGAL_ACTION", rest=after))
        elif e == "bank_to":
            others = [s["player"] for s in self.doc["stakes"] if s["player"] != ev["player"]]
            if ev["player"] != self.doc.get("bank"):
                others.append(self.doc.get("bank"))
            for player in others[:2]:
                out.append(Candidate(w.move([{"e": "bank_to", "player": player}]),
                                     [{"e": "bank_to", "player": player}], "BANK_SUCCESSION", rest=after))
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
        if self.variant == "blackjack" and len(boxes) >= 2:
            # Each box its two cards at once, then the dealer's two.
            half = len(boxes) // 2
            paired = [card for pair in zip(boxes[:half], boxes[half:]) for card in pair] + dealer
            out.append(Candidate(w.deal_order(paired, before), paired, "DEAL_ORDER", rest=after))
        if boxes and len({ev["to"] for ev in boxes}) == 1 and self.variant == "ochko":
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
        if self.variant == "ochko":
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
            lower = sorted({self.spot_of_event(ev) for ev in later if self.spot_of_event(ev) < spot}) \
                if self._final(prefix) else []
            if lower:
                box = lower[0]
                block = [ev for ev in later if self.spot_of_event(ev) == box]
                rest = right + [ev for ev in after if not any(ev is b for b in block)]
                out.append(Candidate(w.settlement(block), block, "PAYMENT_ORDER", rest=rest))
            # An instant settled late: after the next drawing action.
            if after and after[0]["e"] in DRAWING and not self._final(prefix):
                out.append(Candidate(_("Carry on with the round; settle %(box)s at the end with the others.") % {
                    "box": w.spot(spot)}, [], "LATE_SETTLEMENT", rest=[after[0]] + right + after[1:]))
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

    # -- incidents --

    def _insert_incident(self) -> None:
        kind = self.incident
        if kind in ("misdrawn_hidden", "misdrawn_exposed"):
            hits = [k for k, ev in enumerate(self.log) if ev["e"] == "hit"]
            if not hits:
                self.incident = None
                return
            at = self.rng.choice(hits)
            card = self.random_card()
            exposed = kind == "misdrawn_exposed"
            incident = {"e": "incident", "kind": "misdrawn_card", "card": card, "exposed": exposed,
                        "resolution": "burned" if exposed else "under_shoe", "reported_by": INSPECTOR,
                        "approved_by": PIT_BOSS}
            self.log.insert(at, incident)
            self.misdrawn_box = self.log[at + 1]["box"]
        elif kind in ("shuffle_demand", "paid_burn", "dealer_change"):
            self.between = {"kind": kind}

    def _incident_step(self, prefix, right, after):
        ev = right[0]
        w = self.words
        card = tbl.card_label(ev["card"])
        unapproved = {**ev, "approved_by": None}
        if ev["kind"] == "dealer_card_exposed":
            prompt = _("As you deal your own card it flips face up: %(card)s. The inspector has seen it.") % {
                "card": card}
            right_label = _("Stop the game and call the pit boss; burn the %(card)s in his presence and deal "
                            "yourself a new card face down.") % {"card": card}
            then = _("The pit boss approves; the %(card)s is burned and you take a new card.") % {"card": card}
            new_card = right[2:]
            candidates = [
                Candidate(_("Burn the %(card)s yourself and deal yourself a new card; no need to call anyone.") % {
                    "card": card}, [unapproved] + right[1:], "INCIDENT_UNAPPROVED", rest=after),
                Candidate(_("Put the %(card)s under the shoe and deal yourself a new card.") % {"card": card},
                          [{**ev, "resolution": "under_shoe"}] + new_card, "INCIDENT_RESOLUTION", rest=after),
                Candidate(_("Turn the %(card)s face down again and carry on.") % {"card": card}, [],
                          "INCIDENT_HANDLING",
                          explain=_("An exposed dealer's card never stays in play: the inspector reports it, "
                                    "and in the pit boss's presence it is burned and replaced by a new card.")),
            ]
            return prompt, right_label, then, candidates
        box = getattr(self, "misdrawn_box", None)
        spot = w.spot(box)
        if not ev["exposed"]:
            prompt = _("Reaching for %(box)s's card you pull two cards from the shoe. The extra card is still face "
                       "down: nobody has seen it.") % {"box": spot}
            right_label = _("Put the extra card under the shoe (it is burned) and carry on; the inspector records "
                            "it for the pit boss.")
            then = _("The card goes under the shoe; the pit boss signs the record.")
            candidates = [
                Candidate(_("Give the extra card to %(box)s: it was his card anyway.") % {"box": spot},
                          [{**unapproved, "resolution": {"to": box}}], "INCIDENT_RESOLUTION", rest=after),
                Candidate(_("Put it under the shoe and carry on; there is nothing to record."),
                          [unapproved], "INCIDENT_UNAPPROVED", rest=after),
                Candidate(_("Turn it face up for the table to see, then burn it."),
                          [{**ev, "resolution": "burned"}], "INCIDENT_RESOLUTION", rest=after),
            ]
            return prompt, right_label, then, candidates
        prompt = _("Reaching for %(box)s's card you pull two cards from the shoe; the extra one lands face up: "
                   "%(card)s.") % {"box": spot, "card": card}
        right_label = _("Leave the %(card)s on the table and call the pit boss: he decides which box gets it or "
                        "has it burned.") % {"card": card}
        then = _("The pit boss has the %(card)s burned; the decision is recorded with his name.") % {"card": card}
        candidates = [
            Candidate(_("Put the %(card)s under the shoe and carry on.") % {"card": card},
                      [{**unapproved, "resolution": "under_shoe"}], "INCIDENT_RESOLUTION", rest=after),
            Candidate(_("Give the %(card)s to %(box)s, who asked for a card.") % {"card": card, "box": spot},
                      [{**unapproved, "resolution": {"to": box}}], "INCIDENT_UNAPPROVED", rest=after),
            Candidate(_("Burn the %(card)s yourself and carry on.") % {"card": card},
                      [unapproved], "INCIDENT_UNAPPROVED", rest=after),
        ]
        return prompt, right_label, then, candidates

    # -- between rounds (the shoe) --

    def _between_step(self) -> dict:
        kind = self.between["kind"]
        table = self.doc["table"]
        low = Decimal(str(table["min"]))
        fee = low / 2
        player = self.rng.choice(["P-3", "P-7", "P-11", "P-15", "P-19"])
        rnd = {"e": "round", "round": self.doc}
        loaded = [{"e": "shuffle", "by": "D-1"}] + [self._burn("load") for _k in range(6)]
        if kind == "shuffle_demand":
            idle = self.rng.random() < 0.5
            if idle:
                prompt = _("Your table is not in play and its shoe is unfinished. %(player)s sits down and asks "
                           "for a new shuffle.") % {"player": player}
                right = Candidate(_("Shuffle a new shoe for him: load it and burn 6 cards, then deal."),
                                  [], "", shoe=loaded + [rnd])
                wrong = [
                    Candidate(_("Refuse: a player may never demand a new shuffle."), [], "SHUFFLE_DEMAND",
                              explain=_("A player who arrives at a table that is not in play, with its shoe "
                                        "unfinished, may have a new shuffle.")),
                    Candidate(_("Shuffle a new shoe for him and deal at once."), [], "BURN_COUNT",
                              shoe=[{"e": "shuffle", "by": "D-1"}, rnd]),
                ]
            else:
                prompt = _("Half the shoe is dealt. %(player)s, who has been playing all along, demands a new "
                           "shuffle.") % {"player": player}
                right = Candidate(_("Refuse politely: the shoe is played to the end (call the pit boss if he "
                                    "insists)."), [], "", shoe=loaded + [rnd])
                wrong = [
                    Candidate(_("Shuffle a new shoe to keep him happy."), [], "SHUFFLE_DEMAND",
                              explain=_("A player cannot demand a new shuffle; only a player who arrives at a "
                                        "table that is not in play, with an unfinished shoe, may have one.")),
                    Candidate(_("Burn a card for him instead, free of charge."), [], "BURN_FEE",
                              shoe=loaded + [{**self._burn("paid")}, rnd]),
                ]
        elif kind == "paid_burn":
            prompt = _("Between rounds %(player)s asks you to burn a card for him.") % {"player": player}
            right = Candidate(_("Burn one card; he pays %(fee)s — half the table minimum — into the float.") % {
                "fee": _amount(fee)}, [], "", shoe=loaded + [{**self._burn("paid"), "fee": fee}, rnd])
            wrong = [
                Candidate(_("Burn one card; he pays %(fee)s, the table minimum, into the float.") % {"fee": _amount(low)},
                          [], "BURN_FEE", shoe=loaded + [{**self._burn("paid"), "fee": low}, rnd]),
                Candidate(_("Burn one card free of charge."), [], "BURN_FEE",
                          shoe=loaded + [self._burn("paid"), rnd]),
                Candidate(_("Refuse: only the pit boss may order a burn."), [], "PAID_BURN",
                          explain=_("Between rounds a player may ask for one card to be burned, for a fee of "
                                    "half the table minimum, paid into the float.")),
            ]
        else:
            prompt = _("You take over the table from D-4 in the middle of the shoe.")
            change = [{"e": "dealer_change", "dealer": "D-1"}]
            right = Candidate(_("Burn one card, then deal."), [], "", shoe=loaded + change + [self._burn("dealer_change"),
                                                                                              rnd])
            wrong = [
                Candidate(_("Deal at once: the shoe is already running."), [], "BURN_COUNT",
                          shoe=loaded + change + [rnd]),
                Candidate(_("Burn six cards, as after loading a shoe."), [], "BURN_COUNT",
                          shoe=loaded + change + [self._burn("dealer_change") for _k in range(6)] + [rnd]),
            ]
        choices = []
        if self._shoe_findings(right.shoe):
            raise AssertionError("the right between-round move must pass the shoe checks")
        choices.append({"label": right.label, "correct": True, "code": None, "explain": "", "engine": True})
        for cand in wrong:
            if cand.explain:
                choices.append({"label": cand.label, "correct": False, "code": cand.code, "explain": cand.explain,
                                "engine": False})
                continue
            found = [f for f in self._shoe_findings(cand.shoe) if f.code == cand.code]
            if found:
                choices.append({"label": cand.label, "correct": False, "code": cand.code,
                                "explain": plain(found[0].message), "engine": True})
        self.rng.shuffle(choices)
        for k, choice in enumerate(choices, start=1):
            choice["key"] = str(k)
        return {"kind": "between", "at": 0, "end": 0, "narration": [], "prompt": prompt, "right": right.label,
                "then": "", "choices": choices, "listed": False}

    def _burn(self, reason: str) -> dict:
        return {"e": "burn", "card": self.random_card(), "reason": reason}

    def _shoe_findings(self, items):
        table = self.doc["table"]
        doc = {"format": "shoe/1", "variant": self.variant, "table": {"min": table["min"], "max": table["max"]},
               "rules": self.doc.get("rules") or {}, "items": items}
        return engine.check_shoe(doc)


def build_script(doc: dict, rng, *, incident: str | None = None) -> dict:
    """The steps of a procedure round (see the module docstring)."""
    return Builder(doc, rng, incident=incident).build().as_dict()
