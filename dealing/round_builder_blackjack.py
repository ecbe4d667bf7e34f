"""Moved: blackjack's builder is `dealing.games.blackjack.builder`.

This name stays only while branches started before the move still import it; nothing in this
branch does. Remove it once they are merged."""

from dealing.games.blackjack.builder import (  # noqa: F401
    BlackjackEntry, BoxEntry, HandEntry, StakeEntry, blackjack_entry_from_document, build_blackjack, full_cards,
)
