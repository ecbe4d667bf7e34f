"""Ochko's own words on shared pages (dealing.games.words): seed 004 writes a table's limits in
Antes, and a finished round's dark cards are turned before it is settled."""

from django.utils.translation import gettext_lazy as _

WORDS = {
    "limits": _("Ante"),
    "payout_note": _(
        "The round is over: every card is face up, the dark cards turned. Settle each wager as the "
        "rules say, in the order you would pay at the table — including what was due during the round."
    ),
}
