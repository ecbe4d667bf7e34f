"""Small hand-written ochko logs for the tests, built in the procedure's order."""

import copy


def round_doc(stakes, events, *, table=None, rules=None, dealer="D-1", **extra):
    doc = {
        "format": "round/1",
        "variant": "ochko",
        "table": table or {"min": 100, "max": 5000},
        "dealer": dealer,
        "stakes": stakes,
        "events": events,
    }
    if rules is not None:
        doc["rules"] = rules
    doc.update(extra)
    return doc


def one_box_win():
    """Box 1: T then 9 = 19 stands; the dealer 8 + 9 = 17: Bet and Ante paid."""
    return round_doc(
        [{"id": "1a", "box": 1, "player": "P-1", "ante": 100}],
        [
            {"e": "deal", "to": 1, "card": "TS"},
            {"e": "deal", "to": "dealer", "card": "8H"},
            {"e": "bet", "stake": "1a", "amount": 300},
            {"e": "open"},
            {"e": "hit", "box": 1, "card": "9D"},
            {"e": "stand", "box": 1},
            {"e": "draw", "card": "9C"},
            {"e": "pay", "stake": "1a", "wager": "bet", "amount": 300},
            {"e": "pay", "stake": "1a", "wager": "ante", "amount": 100},
        ],
    )


def dark_box(dealer_draws, dark_card="KC", *, rules=None, settle=()):
    """Box 4 on T 6 takes a dark card; the dealer starts from 9."""
    events = [
        {"e": "deal", "to": 4, "card": "TS"},
        {"e": "deal", "to": "dealer", "card": "9H"},
        {"e": "bet", "stake": "4a", "amount": 500},
        {"e": "open"},
        {"e": "hit", "box": 4, "card": "6D"},
        {"e": "dark", "box": 4, "card": dark_card},
    ]
    events += [{"e": "draw", "card": c} for c in dealer_draws]
    events.append({"e": "reveal", "box": 4})
    events += list(settle)
    return round_doc([{"id": "4a", "box": 4, "player": "P-1", "ante": 100, "dealer_bet": 10}], events, rules=rules)


def without_settlement(doc):
    out = copy.deepcopy(doc)
    out["events"] = [e for e in out["events"] if e["e"] not in ("pay", "take", "leave")]
    return out
