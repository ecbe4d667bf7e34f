"""The table of a game without a layout of its own (dealing.games.layout.CARDS): the audit's replay
page draws every round, so a game that leaves its `layout` slot empty still has its cards shown
where its events put them."""

from dealing.games.layout import CARDS


def test_each_card_lies_where_its_event_put_it_and_burns_lie_aside():
    doc = {
        "format": "round/1",
        "variant": "toy",
        "stakes": [{"id": "a", "box": 2, "player": "P-2", "bet": 10}],
        "events": [
            {"e": "burn", "card": "2D", "reason": "load"},
            {"e": "deal", "to": 2, "card": "9S"},
            {"e": "deal", "to": "dealer", "card": "5H"},
            {"e": "hit", "hand": "2", "card": "KC"},
            {"e": "take", "stake": "a", "wager": "bet", "amount": 10},
        ],
    }
    table = CARDS.table(doc, flagged_events={3}, boxes=3)
    assert [b.number for b in table.boxes] == [1, 2, 3]  # the table's every box, empty ones too
    (box,) = [b for b in table.boxes if b.number == 2]
    assert [s.player for s in box.stakes] == ["P-2"]
    assert [(c.code, c.event) for h in box.hands for c in h.cards] == [("9S", 1), ("KC", 3)]
    assert box.flagged  # the hit a finding points at
    assert [c.code for c in table.dealer.cards] == ["5H"]
    assert [c.code for c in table.burns] == ["2D"]
