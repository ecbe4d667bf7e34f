"""blackjack's drill set-ups (dealing.games.drills): salon and online tables, splits and doubles,
insurance and even money, 3:2 on odd bets."""

from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from dealing import engine
from dealing.engine import blackjack as rules
from dealing.games.drills import DEAL_PAIRED, DEALER_DRAWS, GameDrills


def knobs(preset: str, options: dict, table_min, table_max, incidents: float = 0.0) -> dict:
    on = options.get
    return dict(
        preset=preset or "salon",
        table_min=table_min,
        table_max=table_max,
        boxes=(1, max(1, int(options.get("boxes", 6)))),
        insurance=0.5 if on("insurance") else 0.0,
        even_money=0.5 if on("insurance") else 0.0,
    )


def features_of(doc: dict, outcome=None) -> set[str]:
    kinds = {ev["e"] for ev in doc["events"]}
    found: set[str] = set()
    if kinds & {"split", "double"}:
        found.add("splits_doubles")
    if kinds & {"insurance", "even_money"}:
        found.add("insurance")
    unit = Decimal(str(doc["table"]["min"]))
    outcome = outcome or engine.replay(doc)
    for w in outcome.wagers or []:
        if w.wager == "bet" and w.result == "pay" and w.amount != w.size and (w.amount / unit) % 1:
            found.add("odd_bets")
    return found


def spot(number) -> str:
    return _("box %(n)s") % {"n": number}


def hand(name) -> str:
    return _("hand %(name)s") % {"name": name}


def dealer_card(dealt: int) -> str:
    return _("your up card") if dealt % 2 == 0 else _("your hole card (face down)")


def deal_prompt(doc: dict, prefix: list[dict]) -> str:
    boxes = sorted({s.get("box") for s in doc["stakes"]})
    return _("Bets are on boxes %(boxes)s.") % {"boxes": ", ".join(str(b) for b in boxes)}


DRILLS = GameDrills(
    variant="blackjack",
    tables={
        "salon": [
            ("escribas", "Escribas", 100, 5000, [25, 100, 500, 1000, 5000]),
            ("sacerdotes", "Sacerdotes", 1000, 50000, [250, 500, 1000, 5000, 10000, 50000]),
        ],
        "online": [
            ("online", "Online-1", 1, 500, ["0.5", 1, 5, 25, 100, 500, 1000]),
        ],
    },
    max_boxes={"salon": 5, "online": 1},
    features=[
        ("splits_doubles", gettext_lazy("Splits and doubles")),
        ("insurance", gettext_lazy("Insurance and even money")),
        ("odd_bets", gettext_lazy("3:2 on odd bets")),
    ],
    knobs=knobs,
    features_of=features_of,
    wagers=tuple(rules.WAGERS),
    presets=("salon", "online"),
    labels={"salon": gettext_lazy("Blackjack · salon"), "online": gettext_lazy("Blackjack · online")},
    narrated=frozenset({"insurance", "even_money", "stand", "split"}),
    ranks="23456789TJQKA",
    mistakes=frozenset({DEALER_DRAWS, DEAL_PAIRED}),
    spot=spot,
    hand=hand,
    dealer_card=dealer_card,
    deal_prompt=deal_prompt,
)
