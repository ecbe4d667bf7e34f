"""ochko's drill set-ups (dealing.games.drills): practice tables R-1..R-3, shared boxes, folds,
dark cards, dealer bets and instants; incidents woven into the procedure (rules/ochko.md)."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from dealing import engine
from dealing.engine import ochko as rules
from dealing.games.drills import DARK_CARDS, DEAL_TWICE, DEALER_DRAWS, SETTLE_ORDER, GameDrills


def knobs(preset: str, options: dict, table_min, table_max, incidents: float = 0.0) -> dict:
    on = options.get
    return dict(
        table_min=table_min,
        table_max=table_max,
        boxes=(1, max(1, int(options.get("boxes", 6)))),
        incidents=incidents,
        shared=0.35 if on("shared") else 0.0,
        fold=0.15 if on("folds") else 0.0,
        dark=0.2 if on("dark") else 0.0,
        dealer_bets=0.4 if on("dealer_bets") else 0.0,
    )


def features_of(doc: dict, outcome=None) -> set[str]:
    kinds = {ev["e"] for ev in doc["events"]}
    found: set[str] = set()
    boxes: dict[int, int] = {}
    for stake in doc["stakes"]:
        boxes[stake["box"]] = boxes.get(stake["box"], 0) + 1
        if stake.get("dealer_bet") is not None:
            found.add("dealer_bets")
    if any(n > 1 for n in boxes.values()):
        found.add("shared")
    if "fold" in kinds:
        found.add("folds")
    if "dark" in kinds:
        found.add("dark")
    outcome = outcome or engine.replay(doc)
    if any(w.kind in ("instant", "instant_db") for w in outcome.wagers or []):
        found.add("instants")
    return found


def spot(number) -> str:
    return _("box %(n)s") % {"n": number}


def deal_prompt(doc: dict, prefix: list[dict]) -> str:
    boxes = sorted({s.get("box") for s in doc["stakes"]})
    return _("Antes are on boxes %(boxes)s.") % {"boxes": ", ".join(str(b) for b in boxes)}


DRILLS = GameDrills(
    variant="ochko",
    labels={"": "21 Ochko"},
    tables={
        "": [
            ("r100", "R-1", 100, 5000, [1, 5, 25, 100, 500, 1000, 5000]),
            ("r500", "R-2", 500, 25000, [1, 5, 25, 100, 500, 1000, 5000, 25000]),
            ("r1000", "R-3", 1000, 50000, [1, 5, 25, 100, 500, 1000, 5000, 10000, 50000]),
        ]
    },
    max_boxes={"": 6},
    features=[
        ("shared", gettext_lazy("Shared boxes (2–3 players on a box)")),
        ("folds", gettext_lazy("Folds")),
        ("dark", gettext_lazy("Dark cards")),
        ("dealer_bets", gettext_lazy("Dealer bets")),
        ("instants", gettext_lazy("Instant ochko and mnogo")),
    ],
    knobs=knobs,
    features_of=features_of,
    wagers=tuple(rules.WAGERS),
    incidents=True,
    hands=False,
    narrated=frozenset({"fold", "bet", "stand", "burn"}),
    ranks="6789TJQKA",
    where="box",
    mistakes=frozenset({DEALER_DRAWS, DEAL_TWICE, SETTLE_ORDER, DARK_CARDS}),
    spot=spot,
    hand=spot,
    dealer_card=lambda dealt: _("your own card (face down)"),
    deal_prompt=deal_prompt,
)
