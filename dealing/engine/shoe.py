"""Checks across a shoe: the events between rounds (shuffles, burns, dealer changes) and the
cards of every round, in order. The format is `shoe/1` (docs/shoe-format.md):

    {"format": "shoe/1", "variant": "ochko", "table": {"min": 100, "max": 5000}, "rules": {},
     "items": [{"e": "shuffle", "by": "dealer1"},
               {"e": "burn", "card": "9H", "reason": "load"}, ...,
               {"e": "round", "round": {...round/1...}},
               {"e": "burn", "card": "KD", "reason": "paid", "fee": 50},
               {"e": "dealer_change", "dealer": "dealer2"},
               {"e": "burn", "card": "7S", "reason": "dealer_change"}, ...]}

The generic part reads the document and replays the rounds; each variant's `shoe_findings`
judges the sequence by its own rules (burns and fees for ochko, the cut card for blackjack, the
pack dealt to the end for veintiuno).
"""

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Final

from . import cards as _cards
from . import document as doc_
from . import loop
from .base import Outcome
from .errors import RoundError
from .findings import Finding
from .sentences import finding, where

BURN_REASONS: Final = ("load", "dealer_change", "paid", "other")


@dataclass
class ShoeItem:
    """One item of a shoe, read and checked. `index` is its position in `items`."""

    index: int
    e: str  # "shuffle" | "burn" | "dealer_change" | "round"
    card: str | None = None  # burn: canonical code (or the text as given when it is not a card)
    reason: str | None = None
    fee: Decimal | None = None
    by: str | None = None
    dealer: str | None = None
    round_id: str | None = None
    outcome: Outcome | None = None
    cards: list[str] = field(default_factory=list)  # the cards this item took out of the shoe


@dataclass
class Shoe:
    variant: str
    table_min: Decimal
    table_max: Decimal
    rules: dict
    items: list[ShoeItem]


_ITEM_FIELDS: Final = {
    "shuffle": frozenset({"e", "by", "at", "decks"}),
    "burn": frozenset({"e", "card", "reason", "fee", "at"}),
    "dealer_change": frozenset({"e", "dealer", "at"}),
    "round": frozenset({"e", "round"}),
}


def read_shoe(doc: dict) -> Shoe:
    from . import variant as _variant

    doc = doc_.expect_object(doc, "$")
    if doc.get("format") != "shoe/1":
        raise RoundError(
            "wrong_format",
            f'This is not a shoe log: "format" is {doc.get("format")!r}, expected "shoe/1".',
            path="$.format",
        )
    name = doc_.text(doc, "variant", "$")
    module = _variant(name)
    table = doc_.expect_object(doc.get("table"), "$.table")
    table_min = doc_.amount(table, "min", "$.table")
    table_max = doc_.amount(table, "max", "$.table")
    rules = module.house_rules(doc.get("rules"))
    raw = doc_.expect_list(doc.get("items"), "$.items")
    items = []
    for k, item in enumerate(raw):
        path = f"$.items[{k}]"
        doc_.expect_object(item, path)
        e = item.get("e")
        fields = _ITEM_FIELDS.get(e) if type(e) is str else None
        if fields is None:
            raise RoundError(
                "unknown_event",
                f"Shoe item {k}: {e!r} is not a shoe event (known: {', '.join(_ITEM_FIELDS)}).",
                path=f"{path}.e",
            )
        doc_.unknown_fields(item, fields, path)
        if e == "shuffle":
            items.append(ShoeItem(k, e, by=doc_.text(item, "by", path, required=False)))
        elif e == "burn":
            text = doc_.text(item, "card", path)
            reason = doc_.text(item, "reason", path)
            if reason not in BURN_REASONS:
                raise doc_.bad_value("reason", reason, f"a burn's reason is one of {', '.join(BURN_REASONS)}.", path)
            fee = doc_.amount(item, "fee", path, required=False)
            code = _cards.normalize(text) or text
            items.append(ShoeItem(k, e, card=code, reason=reason, fee=fee, cards=[code]))
        elif e == "dealer_change":
            items.append(ShoeItem(k, e, dealer=doc_.text(item, "dealer", path, required=False)))
        else:
            round_doc = item.get("round")
            if round_doc is None:
                raise doc_.missing("round", path)
            try:
                outcome = loop.replay(module.Replay, doc_.expect_object(round_doc, f"{path}.round"))
            except RoundError as exc:
                raise RoundError(
                    exc.code,
                    f"Shoe item {k} (a round): {exc.message}",
                    path=f"{path}.round" + (exc.path or "$")[1:],
                    event=exc.event,
                ) from None
            items.append(ShoeItem(k, e, round_id=round_doc.get("id"), outcome=outcome, cards=outcome.cards))
    return Shoe(name, table_min, table_max, rules, items)


def check_shoe(doc: dict) -> list[Finding]:
    """Shoe-level findings (e.g. BURN_COUNT, BURN_FEE, CARD_COUNT, RESHUFFLE_POINT), in item order."""
    from . import variant as _variant

    shoe = read_shoe(doc)
    return _variant(shoe.variant).shoe_findings(shoe)


def count_cards(
    items, decks: int, pack: frozenset, findings: list[Finding], *, reset_on_shuffle: bool = True, what: str = "shoe"
) -> None:
    """CARD_COUNT: more copies of a card than `decks` packs hold, counted since the last shuffle.
    A suit-less card (``9*``) counts against its rank only: at most 4 × `decks` cards of a rank,
    suited or not, once a suit-less one of that rank has come out."""
    counts: dict[str, int] = {}
    ranks: dict[str, int] = {}  # cards of each rank, suited or not
    suitless: set[str] = set()  # the ranks of which a suit-less card came out
    ranks_of_pack = {code[0] for code in pack}
    for item in items:
        if item.e == "shuffle" and reset_on_shuffle:
            counts, ranks, suitless = {}, {}, set()
            continue
        for code in item.cards:
            if code not in pack:
                if code[1:] != _cards.SUITLESS or code[0] not in ranks_of_pack:
                    continue
                suitless.add(code[0])
            r = ranks[code[0]] = ranks.get(code[0], 0) + 1
            if code[0] in suitless and r == 4 * decks + 1:
                findings.append(
                    finding(
                        "CARD_COUNT",
                        {
                            "rule": "shoe_rank",
                            "item": item.index,
                            "where": where(item),
                            "n": r,
                            "card": _cards.label(code[0] + _cards.SUITLESS),
                            "what": what,
                            "decks": decks,
                            "most": 4 * decks,
                        },
                        event=item.index,
                    )
                )
            if code not in pack:
                continue
            n = counts.get(code, 0) + 1
            counts[code] = n
            if n == decks + 1:
                findings.append(
                    finding(
                        "CARD_COUNT",
                        {
                            "rule": "shoe_card",
                            "item": item.index,
                            "where": where(item),
                            "card": _cards.label(code),
                            "n": n,
                            "what": what,
                            "decks": decks,
                        },
                        event=item.index,
                    )
                )
