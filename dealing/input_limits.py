"""Limits on what a round log may carry, checked before the engine reads it for storing.

The engine reads a card that is no card of the pack as a finding (CARD_INVALID) rather than
refusing the round, so without a limit here a card of a megabyte was stored, in the round's
document, for every page and export to carry. Players' names are printed wherever their stakes
are shown: characters nobody can see (controls, right-to-left overrides, zero-width marks) would
disguise one name as another or turn the text around it (casino.validators).

Both refusals say where, like the engine's own (`code`, JSON `path`, `event`): the API answers
400 with them, the round form puts the message next to its field.
"""

from django.utils.translation import gettext as _

from casino.errors import ServiceError
from casino.validators import describe, invisible_character

# The longest spelling of a card is three characters ("10H"); a typo of a few more is still the
# engine's CARD_INVALID finding, anything longer is no card at all.
CARD_MAX = 8


def check_round_input(doc: dict) -> None:
    """Refuse a card written in more than CARD_MAX characters and a player's name with a character
    that cannot be seen. Parts of the wrong shape are left to the engine, which says what is wrong."""
    events = doc.get("events")
    if type(events) is list:
        for i, event in enumerate(events):
            card = event.get("card") if type(event) is dict else None
            if type(card) is str and len(card) > CARD_MAX:
                raise _refuse(
                    _("A card is written in at most %(n)d characters, like TS, AH or 10d.") % {"n": CARD_MAX},
                    "too_long",
                    path=f"$.events[{i}].card",
                    event=i,
                )
    stakes = doc.get("stakes")
    if type(stakes) is list:
        for i, stake in enumerate(stakes):
            player = stake.get("player") if type(stake) is dict else None
            # isprintable() is False for every character refused here (and for a few allowed, such
            # as a no-break space): the walk by character runs only then.
            if type(player) is not str or player.isprintable():
                continue
            char = invisible_character(player)
            if char is not None:
                raise _refuse(
                    _(
                        "A player's name cannot contain %(char)s (stake %(stake)s): only characters that "
                        "can be seen, and spaces."
                    )
                    % {"char": describe(char), "stake": stake.get("id", i + 1)},
                    "bad_text",
                    path=f"$.stakes[{i}].player",
                )


def _refuse(message: str, code: str, *, path: str, event: int | None = None) -> ServiceError:
    return ServiceError(message, extra={"code": code, "path": path, "event": event})
