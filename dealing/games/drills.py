"""What the drills need of a game (the `drills` slot of its GAME): its practice tables, the
difficulty options and how the simulator deals them, and the words and mistakes of its procedure.

Plain data and pure functions: the drills app (a layer above dealing) reads them and does the
rest — dealing never imports drills. Each game fills one `GameDrills` in
`dealing/games/<variant>/drills.py`.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

# The procedure drill's generic wrong moves, by name; a game offers those of its own procedure.
DEALER_DRAWS = "dealer_draws"  # the dealer draws from the shoe for himself: "another card", "the card to yourself"
DEAL_PAIRED = "deal_paired"  # each box its two cards at once, then the dealer's
DEAL_TWICE = "deal_twice"  # a lone box dealt two cards in a row
SETTLE_ORDER = "settle_order"  # dealer bet before the Bet, boxes in order, instants at once, then settle after drawing
DARK_CARDS = "dark_cards"  # a card asked face up dealt dark instead (and a dark card shown)
MISTAKES = frozenset({DEALER_DRAWS, DEAL_PAIRED, DEAL_TWICE, SETTLE_ORDER, DARK_CARDS})


@dataclass(frozen=True)
class GameDrills:
    variant: str
    # -- what a drill deals --
    tables: dict[str, list[tuple]]  # preset ("" when the game has none) -> (key, name, min, max, chips)
    max_boxes: dict[str, int]  # preset -> the most boxes (seats) a round is dealt
    features: list[tuple[str, object]]  # the difficulty options: (name, label)
    knobs: Callable[..., dict]  # (preset, options, table_min, table_max, incidents) -> the simulator's options
    features_of: Callable[[dict, object], set[str]]  # (doc, engine outcome) -> the options a dealt round shows
    wagers: tuple[str, ...]  # the wagers a settlement names (the engine's)
    presets: tuple[str, ...] = ()
    # What the drill pages call the game, by preset ("" when it has none): "Blackjack · salon".
    labels: dict[str, object] = field(default_factory=dict)
    incidents: bool = False  # procedure drills weave in the floor's incidents (rules/<game>.md)
    # -- the payout drill --
    hands: bool = True  # a settlement names the hand it is for (ochko settles a stake's wagers)
    # -- the procedure drill --
    narrated: frozenset[str] = frozenset()  # players' decisions: told to the trainee, never asked
    ranks: str = "23456789TJQKA"  # the pack, for the cards of wrong moves
    where: str = "hand"  # what a drawing event names: "box" (ochko) or "hand"
    mistakes: frozenset[str] = frozenset()  # of MISTAKES, those this game's procedure offers
    player_bets: bool = False  # a player bets from his seat, named (veintiuno), not a stake placing a Bet
    spot: Callable[[object], str] = str  # "box 3" / "seat 3"
    hand: Callable[[object], str] = str  # "box 3" / "hand 3.1"
    dealer_card: Callable[[int], str] = str  # how the dealer's card of the deal is said, by how many he has
    deal_prompt: Callable[[dict, list], str] = lambda doc, prefix: ""  # (doc, events so far) before the deal


def game_of(variant: str, preset: str) -> str:
    """The drill pages' name of a game and preset: "blackjack:salon", "ochko"."""
    return f"{variant}:{preset}" if preset else variant


def games_of(drills: GameDrills) -> list[tuple[str, object]]:
    """(name, label) of a game on the drill pages, one per preset of its practice tables, in order."""
    return [(game_of(drills.variant, preset), drills.labels.get(preset, drills.variant)) for preset in drills.tables]


def chips(values) -> tuple[Decimal, ...]:
    return tuple(Decimal(str(c)) for c in values)
