"""What the table terminal asks of an ochko stake (dealing.games.terminal): its Ante, up to three
stakes a box ("1a", "1b", "1c"), each with an optional dealer bet; and how the felt reads a box's
cards (an ace counts 11, no soft totals; a pair of aces and five pictures count 21)."""

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from dealing.games.terminal import TerminalGame


def _hand(hand) -> dict:
    combination = hand.combination
    if combination == "pair of aces":
        say = _("21: a pair of aces")
    elif combination:
        say = _("21: five pictures")
    elif hand.bust:
        say = _("%(total)d, bust") % {"total": hand.total}
    else:
        say = str(hand.total)
    return {"total": hand.score, "bust": hand.bust, "say": say}


def felt(walk) -> dict:
    """Each box's total and the dealer's, as the engine holds them after the round so far."""
    hands = {}
    for number, box in walk.boxes.items():
        if box.hand.cards:
            hands[str(number)] = {**_hand(box.hand), "box": number}
    dealer = _hand(walk.dealer) if walk.dealer.cards else None
    return {"hands": hands, "dealer": dealer}


# Seed 004's own words: the Ante and the Bet keep their names (in every language the floor speaks).
WAGER_WORDS = {
    "ante": pgettext_lazy("ochko wager", "Ante"),
    "bet": pgettext_lazy("ochko wager", "Bet"),
}

TERMINAL = TerminalGame(
    "ante",
    3,
    ("dealer_bet",),
    felt=felt,
    wager_words=WAGER_WORDS,
    keys_template="dealing/_terminal_keys_ochko.html",
)
