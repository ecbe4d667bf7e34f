"""veintiuno's drill set-ups (dealing.games.drills): the Casa-21 table, special hands, splits
(abrir) and tapo y quedo; the bank is a player, so the dealer never draws for himself."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from dealing import engine
from dealing.engine import veintiuno as rules
from dealing.games.drills import GameDrills


def knobs(preset: str, options: dict, table_min, table_max, incidents: float = 0.0) -> dict:
    on = options.get
    return dict(
        table_min=table_min,
        table_max=table_max,
        seats=(1, max(1, int(options.get("boxes", 6)))),
        specials=0.5 if on("specials") else 0.0,
        split=0.6 if on("splits") else 0.0,
        tapo=0.2 if on("tapo") else 0.0,
    )


def features_of(doc: dict, outcome=None) -> set[str]:
    kinds = {ev["e"] for ev in doc["events"]}
    found: set[str] = set()
    if kinds & {"split"}:
        found.add("splits")
    if "tapo" in kinds:
        found.add("tapo")
    outcome = outcome or engine.replay(doc)
    if "declare" in kinds or any(w.result == "pay" and w.amount > w.size for w in outcome.wagers or []):
        found.add("specials")
    return found


def spot(number) -> str:
    return _("seat %(n)s") % {"n": number}


def hand(name) -> str:
    """A seat's own hand is the seat; the halves of an opened pair are hands."""
    if "." not in str(name):
        return spot(name)
    return _("hand %(name)s") % {"name": name}


def deal_prompt(doc: dict, prefix: list[dict]) -> str:
    if any(p["e"] == "bet" for p in prefix):
        return _("The bets are in.")
    return _("The players are seated; the bank is %(bank)s.") % {"bank": doc.get("bank", "")}


DRILLS = GameDrills(
    variant="veintiuno",
    labels={"": "Veintiuno"},
    tables={
        "": [
            ("casa", "Casa-21", 5, 100, [1, 5, 10, 25, 100]),
        ]
    },
    max_boxes={"": 5},
    features=[
        ("specials", gettext_lazy("Special hands (natural, moñona, 12, relancina, trillona)")),
        ("splits", gettext_lazy("Splits (abrir)")),
        ("tapo", gettext_lazy("Tapo y quedo")),
    ],
    knobs=knobs,
    features_of=features_of,
    wagers=tuple(rules.WAGERS),
    narrated=frozenset({"bet", "declare", "withdraw", "void", "puje", "stand", "split", "draw"}),
    ranks="A234567JQK",
    player_bets=True,
    spot=spot,
    hand=hand,
    dealer_card=lambda dealt: _("the bank"),
    deal_prompt=deal_prompt,
)
