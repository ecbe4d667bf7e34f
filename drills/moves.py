"""How the procedure drill says a move: the right one and the wrong ones in the same words, the
players' decisions as they happen, and a wrong move itself (`Candidate`). What is particular to a
game (box or seat, how the dealer's own cards are said) comes from its drill set-ups.
"""

from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _

from casino.templatetags.casino_tags import money
from dealing.engine import sentences

from . import table as tbl
from .setups import game

SETTLE = ("pay", "take", "leave")


def plain(finding) -> tuple[str, dict]:
    """An engine finding without its event number (meaningless to a trainee): its sentence in
    English, capitalised, and the params it is said from in the reader's language (no head)."""
    params = sentences.headless(finding.params)
    text = sentences.english(finding.code, params)
    return text[:1].upper() + text[1:], params


@dataclass
class Candidate:
    label: str
    wrong: list[dict]  # events the wrong move logs
    code: str
    rest: list[dict] | None = None  # what follows it (default: the right events, then the round)
    shoe: list[dict] | None = None  # between rounds: the shoe items of this move
    explain: str = ""  # for moves no log can show


def amount_text(value) -> str:
    """An amount as the floor reads it (5,000 / 7.50)."""
    return money(Decimal(str(value)))


class Words:
    """How moves, players' decisions and situations are said to the trainee."""

    def __init__(self, doc: dict, sizes: dict[tuple, Decimal]):
        self.doc = doc
        self.game = game(doc["variant"])
        self.sizes = sizes
        self.spot_of = {s["id"]: s.get("box", s.get("seat")) for s in doc["stakes"]}
        self.player_of = {s["id"]: s.get("player", "") for s in doc["stakes"]}

    def spot(self, number) -> str:
        return self.game.spot(number)

    def hand(self, name) -> str:
        return self.game.hand(str(name))

    def wager(self, name: str) -> str:
        return tbl.wager_label(name)

    def size(self, ev: dict) -> str:
        if ev.get("amount") is not None:
            return amount_text(ev["amount"])
        size = self.sizes.get((str(ev["stake"]), ev.get("hand"), ev["wager"]))
        return amount_text(size) if size is not None else ""

    def deal_order(self, events: list[dict], dealt_before: int = 0) -> str:
        """The order of a deal, runs through every box in play said once ("every box, 1 → 5")."""
        in_play = sorted({s.get("box", s.get("seat")) for s in self.doc["stakes"]})
        targets = []
        dealer_cards = dealt_before
        k = 0
        while k < len(events):
            to = events[k]["to"]
            if to in ("dealer", "bank"):
                targets.append(self.game.dealer_card(dealer_cards))
                dealer_cards += 1
                k += 1
                continue
            run = [ev["to"] for ev in events[k : k + 2 * len(in_play)]]
            n = len(in_play)
            if n >= 3 and run[:n] in (in_play, in_play[::-1]):
                first, last = run[0], run[n - 1]
                targets.append(
                    _("every %(what)s from %(first)s to %(last)s")
                    % {"what": self.spot("").strip(), "first": first, "last": last}
                )
                k += n
            elif n >= 2 and run == [b for b in in_play for _twice in (1, 2)]:
                targets.append(
                    _("two cards to each %(what)s in turn, from %(first)s to %(last)s")
                    % {"what": self.spot("").strip(), "first": in_play[0], "last": in_play[-1]}
                )
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
            joined = (
                whats[0]
                if len(whats) == 1
                else _("%(first)s and %(last)s") % {"first": ", ".join(whats[:-1]), "last": whats[-1]}
            )
            if not self.game.hands:  # the wagers of a stake, not of a hand
                parts.append(
                    _("%(verb)s %(what)s of stake %(stake)s") % {"verb": verbs[verb], "what": joined, "stake": stake}
                )
            elif hand is None or "." not in str(hand):
                parts.append(_("%(verb)s %(what)s") % {"verb": verbs[verb], "what": joined})
            else:
                parts.append(
                    _("%(verb)s %(what)s of %(hand)s") % {"verb": verbs[verb], "what": joined, "hand": self.hand(hand)}
                )
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
            if self.game.where == "box":
                return _("Deal %(box)s a card face up.") % {"box": self.spot(ev["box"])}
            return _("Deal %(hand)s a card face up.") % {"hand": self.hand(ev["hand"])}
        if e == "dark":
            if len(events) > 1 and events[1]["e"] == "reveal":
                return _("Deal %(box)s one card face down, across the box, and turn it so the player sees it.") % {
                    "box": self.spot(ev["box"])
                }
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
            return _("Stake %(stake)s (%(box)s) folds.") % {
                "stake": ev["stake"],
                "box": self.spot(self.spot_of.get(ev["stake"])),
            }
        if e == "bet":
            if self.game.player_bets:
                return _("%(player)s (%(seat)s) bets %(amount)s.") % {
                    "player": self.player_of.get(ev["stake"]),
                    "seat": self.spot(self.spot_of.get(ev["stake"])),
                    "amount": amount_text(ev["amount"]),
                }
            return _("Stake %(stake)s (%(box)s) places a Bet of %(amount)s.") % {
                "stake": ev["stake"],
                "box": self.spot(self.spot_of.get(ev["stake"])),
                "amount": amount_text(ev["amount"]),
            }
        if e == "stand":
            where = ev.get("box", ev.get("hand"))
            total = totals.get(str(where))
            if total is not None:
                return _("%(hand)s stands on %(total)s.") % {"hand": self.hand(where).capitalize(), "total": total}
            return _("%(hand)s stands.") % {"hand": self.hand(where).capitalize()}
        if e == "burn":
            return _("The card is burned.")
        if e == "insurance":
            return _("%(box)s insures for %(amount)s.") % {
                "box": self.spot(self.spot_of.get(ev["stake"])).capitalize(),
                "amount": amount_text(ev["amount"]),
            }
        if e == "even_money":
            return _("%(box)s takes even money.") % {"box": self.spot(self.spot_of.get(ev["stake"])).capitalize()}
        if e == "split":
            if ev.get("amount") is not None:
                return _("%(hand)s opens the pair with %(amount)s.") % {
                    "hand": self.hand(ev["hand"]).capitalize(),
                    "amount": amount_text(ev["amount"]),
                }
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
