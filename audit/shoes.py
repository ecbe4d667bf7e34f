"""A stored shoe as the engine's shoe checks read it, and what each of its items is in the database.

The `shoe/1` document is dealing's (`dealing.selectors.shoe_document`); its items are the shoe's
events and its rounds in force in the order they share (`dealing.selectors.shoe_items`). A shoe
finding names an item by its index, so `shoe_items` here returns, beside the document, which
round, dealer and time each item is — a finding at item k is attributed to them.
"""

from dataclasses import dataclass
from datetime import datetime

from dealing import selectors as dealing_selectors
from dealing.choices import ShoeEventKind
from dealing.models import Round, Shoe


@dataclass
class Item:
    kind: str  # "shuffle" | "burn" | "dealer_change" | "round"
    at: datetime
    dealer_id: int | None  # who is responsible: the round's dealer, else the dealer at the table
    round_id: int | None = None


def shoe_items(shoe: Shoe) -> tuple[dict, list[Item]]:
    """(the shoe/1 document, one Item per document item)."""
    entries = dealing_selectors.shoe_items(shoe=shoe)
    document = dealing_selectors.shoe_document(shoe=shoe, items=entries)
    # The loading (the shuffle and its burns) is the work of whoever shuffled; then each round's dealer's.
    dealer_id = shoe.shuffled_by_id
    meta = []
    for entry in entries:
        if isinstance(entry, Round):
            dealer_id = entry.dealer_id
            meta.append(Item("round", entry.played_at, entry.dealer_id, round_id=entry.pk))
            continue
        if entry.kind == ShoeEventKind.DEALER_CHANGE and entry.dealer_id:
            dealer_id = entry.dealer_id
        meta.append(Item(entry.kind, entry.recorded_at, dealer_id))
    if len(meta) != len(document["items"]):  # the two views of one shoe must agree item for item
        raise AssertionError(f"shoe {shoe.pk}: {len(meta)} items, document has {len(document['items'])}")
    return document, meta
