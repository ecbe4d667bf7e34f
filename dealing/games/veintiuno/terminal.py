"""What the table terminal asks of a veintiuno round (dealing.games.terminal): who holds the bank
(round/1's header `bank`), the players by seat (stakes `{id, seat, player}`, ids "S1", "S2" as the
round form writes them), each one's bet placed by its `bet` event after the first card (the stake's
column holds the bet it played last time, Enter's default), every card's suit (a two-card 12 of one
suit counts 21) from the 40-card pack; the keys for declare, withdraw, void and al puje; and how the
felt reads a hand (its special two-card hands by name; a tapo card is hidden from the felt)."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from dealing.engine.loop import SPLIT
from dealing.engine.veintiuno.rules import (
    BUST,
    DECLARED,
    MONONA,
    NATURAL,
    RANKS,
    RELANCINA,
    SUITED_TWELVE,
    TAPO,
    TWELVE,
    WITHDRAWN,
)
from dealing.games.terminal import TerminalGame


def _special(hand) -> str | None:
    kind = hand.kind
    if kind == NATURAL:
        return _("21: natural, declared") if hand.state == DECLARED else _("21: natural")
    if kind == MONONA:
        return _("21: moñona")
    if kind == SUITED_TWELVE:
        return _("21: a 12 of one suit")
    if kind == TWELVE:
        return _("20: a 12")
    if kind == RELANCINA:
        return _("20: relancina")
    if hand.trillona:
        return _("21: trillona")
    return None


def _hand(hand) -> dict:
    if hand.state == TAPO:
        # Tapo y quedo: the card is seen by nobody until the end; the felt does not count it.
        return {"total": None, "bust": False, "say": _("tapo y quedo")}
    value = hand.value
    bust = hand.state == BUST or (hand.kind is None and value > 21)
    say = _special(hand)
    if say is None:
        say = _("%(total)d, bust") % {"total": value} if bust else str(value)
    if hand.state == WITHDRAWN:
        say = _("%(total)s, withdrawn") % {"total": say}
    return {"total": value, "bust": bust, "say": say}


def felt(walk) -> dict:
    """Each seat's hands (each hand of an opening apart) and the bank's, as the engine counts them."""
    hands = {}
    for name, hand in walk.hands.items():
        if hand.infos and hand.state != SPLIT:  # an opened pair lives on in its two hands
            hands[name] = {**_hand(hand), "box": int(str(name).split(".")[0])}
    bank = walk.bank
    return {"hands": hands, "dealer": _hand(bank) if bank.infos else None}


def carry(previous: dict) -> dict:
    """Who holds the bank in the next round: the player the previous round passed it to (`bank_to`),
    else the one who held it."""
    for ev in reversed(previous.get("events") or ()):
        if isinstance(ev, dict) and ev.get("e") == "bank_to" and isinstance(ev.get("player"), str):
            return {"bank": ev["player"]}
    return {"bank": previous["bank"]} if isinstance(previous.get("bank"), str) else {}


WAGER_WORDS = {"bet": pgettext_lazy("veintiuno wager", "Bet")}

TERMINAL = TerminalGame(
    "bet",
    1,
    letters=False,
    felt=felt,
    wager_words=WAGER_WORDS,
    keys_template="dealing/_terminal_keys_veintiuno.html",
    place="seat",
    stake_wager=False,
    id_prefix="S",
    suits=True,
    ranks=RANKS,
    dealer_to="bank",
    dealer_word=gettext_lazy("Bank"),
    header={"bank": gettext_lazy("Who holds the bank")},
    carry=carry,
    actions=(
        ("N", "declare", gettext_lazy("N — declares the natural (2:1 and the bank)")),
        ("W", "withdraw", gettext_lazy("W — withdraws on 13: the bet comes back")),
        ("V", "void", gettext_lazy("V — pie de banco voids the hand on 13")),
        ("U", "puje", gettext_lazy("U — the bank sends the table al puje")),
        ("P", "split", gettext_lazy("P — opens the pair (abrir), twice the bet")),
    ),
)
