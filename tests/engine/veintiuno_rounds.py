"""Small hand-written veintiuno rounds for the tests: a round from each seat's two cards, the bank's
and short lines of play ("hit 1 5C", "pay 1.2 20"), and what a settlement owes and finds."""

from decimal import Decimal

from dealing import engine

NAMES = {1: "Beto", 2: "Caro", 3: "Dani", 4: "Eva", 5: "Fede", 6: "Gabi"}


def ev(text):
    """One event from a short line: "hit 1 5C", "split 1 20", "pay 1.2 20", "bank_to Caro", …"""
    if isinstance(text, dict):
        return text
    e, *args = text.split()
    if e in ("hit", "tapo"):
        return {"e": e, "hand": args[0], "card": args[1]}
    if e in ("stand", "declare", "withdraw", "void"):
        return {"e": e, "hand": args[0]}
    if e == "split":
        return {"e": e, "hand": args[0], "amount": args[1]}
    if e == "draw":
        return {"e": e, "card": args[0]}
    if e == "puje":
        return {"e": e}
    if e in ("pay", "take", "leave"):
        return {"e": e, "stake": "S" + args[0].split(".")[0], "hand": args[0], "wager": "bet", "amount": args[1]}
    if e == "bank_to":
        return {"e": e, "player": args[0]}
    raise AssertionError(text)


def rnd(hands: dict, bank_cards, play=(), *, bets=None, bank="Ana", rules=None, table=(5, 100)):
    """A round: `hands` {seat: (first card, second card)}, the bank's two cards, then the play."""
    seats = sorted(hands)
    bets = bets or {}
    events = [{"e": "deal", "to": s, "card": hands[s][0]} for s in seats]
    events.append({"e": "deal", "to": "bank", "card": bank_cards[0]})
    events += [{"e": "bet", "stake": f"S{s}", "amount": bets.get(s, 10)} for s in seats]
    events += [{"e": "deal", "to": s, "card": hands[s][1]} for s in seats]
    events.append({"e": "deal", "to": "bank", "card": bank_cards[1]})
    events += [ev(x) for x in play]
    doc = {
        "format": "round/1",
        "variant": "veintiuno",
        "table": {"min": table[0], "max": table[1]},
        "bank": bank,
        "stakes": [{"id": f"S{s}", "seat": s, "player": NAMES[s]} for s in seats],
        "events": events,
    }
    if rules is not None:
        doc["rules"] = rules
    return doc


def owed(settlement) -> dict:
    return {w["hand"]: (w["result"], Decimal(w["amount"])) for w in settlement["wagers"]}


def codes(settlement) -> list:
    return sorted({f["code"] for f in settlement["findings"]})


def settle(doc):
    return engine.settle(doc)
