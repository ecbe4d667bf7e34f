"""What the table terminal asks of a blackjack stake (dealing.games.terminal): its bet, one stake a
box named by the box's number, and the jackpot side bet at a table that offers it; and how the felt
reads a hand (an ace counts 11 when it fits: a soft total); and seed 002's clocks, which run at the
salon's tables (dealing/engine/blackjack/clocks.py)."""

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from dealing.engine.blackjack import clocks
from dealing.engine.loop import SPLIT
from dealing.games.terminal import TerminalGame


def _hand(hand) -> dict:
    best = hand.best
    if hand.natural:
        say = _("blackjack")
    elif best > 21:
        say = _("%(total)d, bust") % {"total": best}
    elif hand.soft and best != 21:
        say = _("soft %(total)d") % {"total": best}
    else:
        say = str(best)
    return {"total": best, "soft": hand.soft and best <= 21, "bust": best > 21, "say": say}


def felt(walk) -> dict:
    """Each hand's total (soft where an ace counts 11) and the dealer's, as the engine holds them."""
    hands = {}
    for name, hand in walk.hands.items():
        if hand.cards and hand.state != SPLIT:  # a pair split lives on in its two hands
            hands[name] = {**_hand(hand), "box": int(str(name).split(".")[0])}
    dealer = _hand(walk.dealer) if walk.dealer.cards else None
    return {"hands": hands, "dealer": dealer}


def clock(rules: dict, moves: list, entries: int) -> dict | None:
    """The clock that runs now at a salon table (none at the online one). The setting
    `TERMINAL_CLOCK_SECONDS`, when set, makes every clock that long (tests, a demonstration)."""
    got = clocks.running(rules, moves, entries)
    override = getattr(settings, "TERMINAL_CLOCK_SECONDS", None)
    if got is not None and override is not None:
        got["seconds"] = override
    return got


WAGER_WORDS = {"bet": pgettext_lazy("blackjack wager", "Bet")}

TERMINAL = TerminalGame(
    "bet",
    1,
    letters=False,
    side_bet="jackpot",
    felt=felt,
    clock=clock,
    wager_words=WAGER_WORDS,
    keys_template="dealing/_terminal_keys_blackjack.html",
)
