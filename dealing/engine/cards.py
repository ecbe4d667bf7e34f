"""Card notation shared by every variant: rank + suit, e.g. ``TS``, ``AH``, ``10D``, or a rank
without its suit (``9*``) where a game allows it.

Which cards are in the pack, and what they count, is each variant's business; this module only
reads the notation. A string that is not a card at all is still a *card* as far as the log is
concerned: the variant reports it as ``CARD_INVALID`` instead of rejecting the whole round.
"""

from typing import Final

RANKS: Final = "23456789TJQKA"
SUITS: Final = "SHDC"
SUIT_NAMES: Final = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_NAMES: Final = {"T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}

# Every spelling we accept, mapped to the canonical two-letter code.
_SPELLINGS: Final[dict[str, str]] = {}
for _rank in RANKS:
    for _suit in SUITS:
        _code = _rank + _suit
        for _r in {_rank, "10"} if _rank == "T" else {_rank}:
            for _text in {_r + _suit, (_r + _suit).lower(), _r.lower() + _suit, _r + _suit.lower()}:
                _SPELLINGS[_text] = _code
del _suit, _code

# A card without its suit (round-format.md, "Additions of the second wave"): the rank and `*`, e.g.
# ``9*``, ``T*`` (``10*``), where the suit never changes a settlement (ochko, the salon's blackjack).
SUITLESS: Final = "*"
_SUITLESS_SPELLINGS: Final[dict[str, str]] = {}
for _rank in RANKS:
    for _r in {_rank, "10"} if _rank == "T" else {_rank}:
        for _text in {_r + SUITLESS, _r.lower() + SUITLESS}:
            _SUITLESS_SPELLINGS[_text] = _rank + SUITLESS
del _rank, _r, _text


def normalize(text: object) -> str | None:
    """The canonical code of a card (``"10h"`` -> ``"TH"``), or None when it is not a card."""
    return _SPELLINGS.get(text) if type(text) is str else None


def suitless(text: object) -> str | None:
    """The canonical code of a suit-less card (``"10*"`` -> ``"T*"``), or None when it is not one."""
    return _SUITLESS_SPELLINGS.get(text) if type(text) is str else None


def spellings() -> dict[str, str]:
    """Every accepted spelling of a card -> its canonical code."""
    return dict(_SPELLINGS)


def suitless_spellings() -> dict[str, str]:
    """Every accepted spelling of a suit-less card -> its canonical code."""
    return dict(_SUITLESS_SPELLINGS)


def pack(ranks: str) -> frozenset[str]:
    """The set of card codes of a pack made of the given ranks in the four suits."""
    return frozenset(r + s for r in ranks for s in SUITS)


def label(code: str) -> str:
    """A card as people write it: ``10♥``, ``A♠``."""
    if len(code) == 2 and code[1] == SUITLESS and code[0] in RANKS:
        return RANK_NAMES.get(code[0], code[0])
    if len(code) != 2 or code[1] not in SUIT_SYMBOLS:
        return code
    return RANK_NAMES.get(code[0], code[0]) + SUIT_SYMBOLS[code[1]]
