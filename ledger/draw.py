"""The draw for the first bank (rules/veintiuno.md, "Bank and bets"): every player draws a card
from the 40-card pack, the highest holds the bank, the Ace is highest; players tied for the
highest card draw again, only among themselves, until one is highest.

No database, no request: plain functions (their messages go through gettext). Cards are written as the engine reads them ("AS", "10h" is not in this pack, "7♥"
with a suit symbol is accepted too) and kept in their canonical code ("7H").
"""

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from dealing.engine import cards as _cards
from dealing.engine.veintiuno import PACK
from dealing.games.veintiuno.builder import read_card  # noqa: F401 - the ledger reads cards through here too

# Ace highest; suits never break a tie.
HIGH_CARD = {rank: k for k, rank in enumerate("234567JQKA")}


class DrawError(ValueError):
    """A draw that cannot be right: `pass_no` (1-based) and `player` say where."""

    def __init__(self, message: str, *, pass_no: int | None = None, player: str | None = None):
        super().__init__(message)
        self.message = message
        self.pass_no = pass_no
        self.player = player


@dataclass
class DrawState:
    """Where a draw stands: the passes so far (player → card), who is still drawing, the winner."""

    passes: list[dict[str, str]] = field(default_factory=list)
    contenders: list[str] = field(default_factory=list)  # who draws in the next pass
    winner: str | None = None

    @property
    def decided(self) -> bool:
        return self.winner is not None


def highest(cards: dict[str, str]) -> list[str]:
    """The players holding the highest card of one pass (more than one: a tie)."""
    top = max(HIGH_CARD[card[0]] for card in cards.values())
    return [player for player, card in cards.items() if HIGH_CARD[card[0]] == top]


def draw_state(players: list[str], passes: list[dict]) -> DrawState:
    """Check a draw pass by pass and say where it stands.

    Each pass must give exactly one card to each contender (every player in the first pass, then
    only those tied for the highest card), each a card of the 40-card pack and no card twice in
    one pass (one pack). A pass after the bank is decided is an error. Raises `DrawError`.
    """
    state = DrawState(contenders=list(players))
    if len(players) < 2:
        raise DrawError(_("At least two players draw for the bank."))
    for k, raw in enumerate(passes, start=1):
        if state.decided:
            raise DrawError(
                _("The bank went to %(player)s in pass %(before)d; pass %(k)d is one too many.")
                % {"player": state.winner, "before": k - 1, "k": k},
                pass_no=k,
            )
        if not isinstance(raw, dict):
            raise DrawError(_("Pass %(k)d must give each player's card, as {player: card}.") % {"k": k}, pass_no=k)
        expected = set(state.contenders)
        for player in raw:
            if player not in expected:
                if player not in players:
                    message = _("Pass %(k)d: %(player)s is not at the table.")
                else:
                    message = _("Pass %(k)d: %(player)s is not in the tie, so does not draw again.")
                raise DrawError(message % {"k": k, "player": player}, pass_no=k, player=player)
        for player in state.contenders:
            if player not in raw:
                raise DrawError(
                    _("Pass %(k)d: %(player)s has no card.") % {"k": k, "player": player}, pass_no=k, player=player
                )
        cards: dict[str, str] = {}
        seen: dict[str, str] = {}
        for player in state.contenders:  # in seat order, whatever order the pass was given in
            code = read_card(raw[player])
            if code is None:
                raise DrawError(
                    _(
                        "Pass %(k)d: %(player)s's card “%(card)s” is not a card of the 40-card pack (A, 2–7, "
                        "J, Q, K in ♠ ♥ ♦ ♣, such as AS or 7H)."
                    )
                    % {"k": k, "player": player, "card": raw[player]},
                    pass_no=k,
                    player=player,
                )
            if code in seen:
                raise DrawError(
                    _("Pass %(k)d: %(card)s drawn by both %(first)s and %(player)s; the pack holds it once.")
                    % {"k": k, "card": _cards.label(code), "first": seen[code], "player": player},
                    pass_no=k,
                    player=player,
                )
            seen[code] = player
            cards[player] = code
        state.passes.append(cards)
        top = highest(cards)
        if len(top) == 1:
            state.winner = top[0]
            state.contenders = []
        else:
            state.contenders = top
    return state


def deal_pass(rng, contenders: list[str]) -> dict[str, str]:
    """One pass of the draw dealt from a shuffled 40-card pack: a different card to each contender."""
    cards = rng.sample(sorted(PACK), len(contenders))
    return dict(zip(contenders, cards))
