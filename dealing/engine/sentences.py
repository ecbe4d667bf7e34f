"""The words of the findings: each sentence declared once, filled from the finding's `params`.

A finding is a code and its `params` (round-format.md, third wave): the named values its sentence is
made of — amounts as decimal strings, cards as labelled (``10♠``), counts and box numbers as ints.
``params["rule"]`` names which of the code's sentences it is; the English `message` is that template
filled from the params (`english`), and a reader in another language fills its own translation of the
same template from the same params (casino/finding_words.py), never by reading the English back.

The templates are ``str.format`` fields over the params:

- a param whose value is an object (``{"rule": ..., ...}``) is a *phrase*: a smaller sentence of
  PHRASES filled from its own params (a verdict, a hand's value, what a hand may no longer do);
- ``{who}`` is the stake, hand or bank the finding is about, from the flat params ``who`` (which
  shape: ``box`` "Box 1, stake 1a", ``box_hand`` "Box 1, stake 1a, hand 1.2", ``stake`` "Stake 1a",
  ``hand`` "Hand 2 (Ana, stake 2a)", ``bank`` "The bank") and ``box`` / ``stake`` / ``hand`` / ``name``;
- ``{wager}`` is the wager as its game names it: ``params["wager"]`` is the log's word (``bet``) and
  ``params["game"]`` the game (ochko's ``bet`` is its "Bet", blackjack's is "bet");
- a head goes in front of the body: ``params["event"]`` → "Event 3: ", ``params["item"]`` →
  "Shoe item 7: " (with ``params["where"]``, a phrase: "Shoe item 7 (round 12): ").

Shared sentences (settlement, the shoe's card counts) are declared here; each game declares its own
in its package (``<game>/sentences.py``) with `declare`. The keys of each code's params are listed
beside its templates and in docs/findings.md.
"""

from decimal import Decimal
from typing import Final

from .findings import Finding
from .money import fmt

# code -> rule -> the English sentence (without its head)
SENTENCES: Final[dict[str, dict[str, str]]] = {}
# phrase rule -> the English phrase; "<key>.<word>" is how a param `key` of that word is said
PHRASES: Final[dict[str, str]] = {}
# game -> the wager's word in the log -> its name in a sentence
WAGER_WORDS: Final[dict[str, dict[str, str]]] = {}


def declare(
    sentences: dict[str, dict[str, str]],
    phrases: dict[str, str] | None = None,
    wagers: dict[str, dict[str, str]] | None = None,
) -> None:
    """Add a game's (or the shared) sentences, phrases and wager words. A (code, rule) or a phrase
    is declared once: declaring it again with other words is a mistake."""
    for code, shapes in sentences.items():
        known = SENTENCES.setdefault(code, {})
        for rule, template in shapes.items():
            if known.get(rule, template) != template:
                raise ValueError(f"{code}/{rule} is declared twice with different words")
            known[rule] = template
    for rule, template in (phrases or {}).items():
        if PHRASES.get(rule, template) != template:
            raise ValueError(f"phrase {rule} is declared twice with different words")
        PHRASES[rule] = template
    for game, words in (wagers or {}).items():
        WAGER_WORDS[game] = dict(words)


def fill(template: str, params: dict) -> str:
    """A template filled from params, in English: an object is a phrase; a word `w` of a param `k`
    with a phrase "k.w" is said through it; `wager` in its game's word; `because` is " — <why>"."""
    values: dict = {}
    for key, value in params.items():
        if type(value) is dict:
            values[key] = phrase(value)
        elif type(value) is list:
            values[key] = ", ".join(phrase(v) for v in value)
        elif type(value) is str and f"{key}.{value}" in PHRASES:
            values[key] = PHRASES[f"{key}.{value}"].format_map(params)
        else:
            values[key] = value
    game = params.get("game")
    if type(game) is str and "wager" in params:
        wager = params["wager"]
        values["wager"] = WAGER_WORDS.get(game, {}).get(wager, wager)
    why = params.get("why")
    values["because"] = " — " + values["why"] if why is not None else ""
    return template.format_map(values)


def phrase(params: dict) -> str:
    """A phrase (a verdict, a hand's value…) in English."""
    return fill(PHRASES[params["rule"]], params)


def head(params: dict) -> str:
    """What goes in front of a finding's sentence: "Event 3: ", "Shoe item 7 (round 12): " or nothing."""
    event = params.get("event")
    if event is not None:
        return f"Event {event}: "
    item = params.get("item")
    if item is not None:
        where = params.get("where")
        if type(where) is dict:
            return f"Shoe item {item} ({phrase(where)}): "
        return f"Shoe item {item}: "
    return ""


def english(code: str, params: dict) -> str:
    """A finding's English sentence from its code and params (what `Finding.message` holds)."""
    return head(params) + fill(SENTENCES[code][params["rule"]], params)


HEAD_KEYS: Final = ("event", "item", "where")


def headless(params: dict) -> dict:
    """A finding's params without its head ("Event 3: ", "Shoe item 7: "): the sentence alone, as a
    drill says a wrong move (the event number means nothing to a trainee)."""
    return {key: value for key, value in params.items() if key not in HEAD_KEYS}


def finding(code: str, params: dict, **fields) -> Finding:
    """A Finding whose message is its sentence filled from `params`."""
    return Finding(code, english(code, params), params=params, **fields)


def amount(value: Decimal) -> str:
    """An amount as a params value: a decimal string, as settlement/1 writes amounts."""
    return fmt(value)


def where(item) -> dict:
    """Where a shoe item is, as a phrase of a finding's params: its round, or the item itself."""
    return {"rule": "round", "round": item.round_id} if item.round_id else {"rule": "item", "item": item.index}


# A hand's total as a phrase, made once per total (a verdict names one for every owed wager): the
# same object is shared by every verdict and finding that names it, and never changed.
TOTALS: Final = {n: {"rule": "total", "n": n} for n in range(64)}
SOFT: Final = {n: {"rule": "soft", "n": n} for n in range(64)}


def total(n: int) -> dict:
    """A hand's total as a phrase: {"rule": "total", "n": n}."""
    phrase = TOTALS.get(n)
    return phrase if phrase is not None else {"rule": "total", "n": n}


def soft(n: int) -> dict:
    """A soft total as a phrase: {"rule": "soft", "n": n}."""
    phrase = SOFT.get(n)
    return phrase if phrase is not None else {"rule": "soft", "n": n}


def say(rule: str, **params) -> dict:
    """A phrase's params (a verdict, a hand's value, …): {"rule": rule, **params}."""
    params["rule"] = rule
    return params


# --- the shared sentences ----------------------------------------------------------------------
# Settlement (base.compare_settlements). Every one: who (+ box, stake, hand, name), wager, game.
#   who: "box" | "box_hand" | "stake" | "bank", or a game's own (veintiuno: "hand"): which who.*
#   phrase names the stake;
#   paid: the amount the dealer settled; owed: the amount owed; did: "paid" | "taken" | "left" (what
#   the dealer did; "paid" with paid); owed_as: "paid" | "taken" | "left" (what was owed, with owed);
#   why: the verdict (a phrase; absent when the engine gives none); first: the event of the first
#   settlement of the wager.
declare(
    {
        "WRONG_AMOUNT": {
            "paid": "{who}: {wager} paid {paid}, owed {owed}{because}.",
            "taken": "{who}: {wager} taken {paid}, owed {owed}{because}.",
            "left": "{who}: {wager} left {paid}, owed {owed}{because}.",
        },
        "WRONG_RESULT": {
            "result": "{who}: {wager} {did}; it should have been {owed_as}{because}.",
        },
        "MISSING_SETTLEMENT": {
            "never": "{who}: {wager} was never settled; it should have been {owed_as}{because}.",
        },
        "UNEXPECTED_SETTLEMENT": {
            "paid": "{who}: {wager} paid, but this stake has no such wager.",
            "taken": "{who}: {wager} taken, but this stake has no such wager.",
            "left": "{who}: {wager} left, but this stake has no such wager.",
            "paid_again": "{who}: {wager} paid a second time (first at event {first}).",
            "taken_again": "{who}: {wager} taken a second time (first at event {first}).",
            "left_again": "{who}: {wager} left a second time (first at event {first}).",
        },
        # card: the card as logged (the sentence quotes it); pack: the phrase naming the game's pack
        "CARD_INVALID": {
            "not_in_pack": "{card!r} is not a card of {pack}.",
        },
        # The shoe's card counts (shoe.count_cards; item, where: {"rule": "round", "round": id} or
        # {"rule": "item", "item": n}; card: a card's label; n: how many; decks; most; what: "shoe" | …)
        "CARD_COUNT": {
            "shoe_rank": "{n} cards of rank {card} have come out; a {what} of {decks} pack(s) holds only {most}.",
            "shoe_card": "{card} has come out {n} times; a {what} of {decks} pack(s) holds only {decks}.",
            # a round's suit-less cards (loop.Round._over; event, card: the rank as 9*, n, most)
            "rank": "{n} cards of rank {card} have come out; the shoe holds only {most}.",
        },
    },
    {
        "who.box": "Box {box}, stake {stake}",
        "who.box_hand": "Box {box}, stake {stake}, hand {hand}",
        "who.stake": "Stake {stake}",
        "who.bank": "The bank",
        "did.paid": "paid {paid}",
        "did.taken": "taken",
        "did.left": "left",
        "owed_as.paid": "paid {owed}",
        "owed_as.taken": "taken ({owed})",
        "owed_as.left": "left ({owed} returned, not paid)",
        "pack": "the pack",
        "round": "round {round}",
        "item": "item {item}",
    },
)
