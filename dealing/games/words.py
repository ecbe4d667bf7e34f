"""The words shared pages use where a game may say it otherwise (`games.word(variant, name)`): the
shared one here, a game's own in its `words` mapping (dealing/games/<variant>/words.py). Lazy, so
each is said in the reader's language."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

SHARED = {
    # The wager a table's limits are written in (the tables list, the strategy trainer's hand).
    "limits": pgettext_lazy("blackjack limits", "Bet"),
    # What the payout drill asks of the trainee.
    "payout_note": _(
        "The round is over: every card is face up. Settle each wager as the rules say, in the order "
        "you would pay at the table — including what was due during the round."
    ),
}
