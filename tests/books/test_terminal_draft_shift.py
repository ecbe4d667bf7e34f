"""A shift closed while the terminal follows a round: the round is left behind for a pit boss to
void with a reason (dealing/services/drafts.py), never dropped."""

import uuid

import pytest

from books import services
from dealing import services as dealing_services
from dealing.models import TerminalDraft
from tests.books.conftest import OPENING

pytestmark = pytest.mark.django_db


def test_closing_the_shift_leaves_the_round_in_progress_behind(crew, open_shift):
    shift = open_shift()
    events = [{"e": "deal", "to": 1, "card": "9*"}, {"e": "deal", "to": "dealer", "card": "7*"}]
    dealing_services.draft_keep(
        table=crew.table,
        user=crew.dealer,
        terminal="tablet-1",
        round_id=str(uuid.uuid4()),
        dealer="dealer1",
        stakes=[{"id": "1a", "box": 1, "ante": 100}],
        events=events,
    )
    shift = services.shift_count_closing(shift=shift, counted_by=crew.dealer, counts=OPENING)
    services.shift_close(shift=shift, closed_by=crew.pit_boss)
    draft = TerminalDraft.objects.get(table=crew.table)
    assert draft.left_behind_why == "shift_end" and draft.left_behind_at is not None
    assert draft.events == events and draft.voided_at is None  # kept until a pit boss voids it
