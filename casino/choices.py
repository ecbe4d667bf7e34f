"""Choices of the floor."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Variant(models.TextChoices):
    # Game names stay as the seeds name them; they are not translated.
    OCHKO = "ochko", "21 Ochko"
    BLACKJACK = "blackjack", "Blackjack"
    VEINTIUNO = "veintiuno", "Veintiuno"


# Betting positions a table of each variant may have. Ochko: six boxes (rules/ochko.md);
# blackjack tables of the presets have 5 boxes (salon) or 1 player position (online);
# veintiuno is played around a table by the players who sit at it.
MAX_BOXES = {
    Variant.OCHKO: 6,
    Variant.BLACKJACK: 7,
    Variant.VEINTIUNO: 8,
}

VARIANT_HELP = {
    Variant.OCHKO: _("Russian casino 21 Ochko: 36-card packs, Ante and Bet, dark cards, dealer bets."),
    Variant.BLACKJACK: _("Blackjack, preset salon (six decks, S17) or online (eight decks, jackpot)."),
    Variant.VEINTIUNO: _("Ecuadorian 21: 40-card pack, rotating bank."),
}
