"""The float's arithmetic from a simulated shift: rounds logged through dealing's real service,
fills, credits, chips sold and the drop; the expected closing float, the variance and the win."""

from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from books import selectors, services
from books.choices import EventKind
from tests.ledger.conftest import audited

from .conftest import fill, log_rounds

pytestmark = pytest.mark.django_db

CHIPS = ["100", "500", "1000", "5000"]


def test_a_shift_reconciles_to_the_logged_rounds(crew, open_shift):
    shift = open_shift()
    records = log_rounds(crew.table, crew.dealer, 12, seed=4)
    fill(shift, crew, {"1000": 5, "5000": 2})  # 15,000 in
    fill(shift, crew, {"100": 10}, kind="credit")  # 1,000 out
    services.cash_record(shift=shift, kind=EventKind.CHIPS_SOLD, amount="2500", recorded_by=crew.dealer)
    services.cash_record(shift=shift, kind=EventKind.DROP, amount="2500.00", recorded_by=crew.dealer)
    rounds = sum(r.float_logged for r in records)

    books = selectors.shift_books(shift)
    assert books.opening == Decimal("45000.00")
    assert books.rounds.rounds == 12 and books.rounds.logged == rounds
    assert books.expected == Decimal("45000") + rounds - Decimal("2500") + Decimal("15000") - Decimal("1000")
    assert books.variance is None and books.win is None

    # The tray holds exactly the expected float, in 100s and 1s (whatever mix, the value is what counts).
    expected = books.expected
    hundreds, ones = divmod(int(expected), 100)
    assert expected == hundreds * 100 + ones
    shift = services.shift_count_closing(shift=shift, counted_by=crew.dealer, counts={"100": hundreds, "1": ones})
    books = selectors.shift_books(shift)
    assert books.closing == expected
    assert books.variance == Decimal("0.00")
    # closing + credits + drop − opening − fills, which is the rounds' float − chips sold + drop.
    assert books.win == expected + Decimal("1000") + Decimal("2500") - Decimal("45000") - Decimal("15000")
    assert books.win == rounds
    shift = services.shift_close(shift=shift, closed_by=crew.pit_boss)
    assert shift.is_closed


def test_pending_fills_and_rounds_outside_the_shift_do_not_count(crew, open_shift):
    before = log_rounds(crew.table, crew.dealer, 2, seed=1)  # before the opening count
    shift = open_shift()
    during = log_rounds(crew.table, crew.dealer, 3, seed=2)
    services.transfer_request(shift=shift, kind="fill", counts={"5000": 1}, requested_by=crew.dealer)
    books = selectors.shift_books(shift)
    assert books.rounds.rounds == 3
    assert books.rounds.logged == sum(r.float_logged for r in during)
    assert books.fills == 0 and len(books.pending) == 1
    assert before  # logged, and left out


def test_payment_findings_are_listed_with_the_money_they_moved(crew, open_shift):
    """A dealer who pays the wrong amount and logs it as paid: the tray matches the logged float
    (no variance), and the rounds' findings account for exactly the difference from what the
    rules owed."""
    shift = open_shift()
    good = log_rounds(crew.table, crew.dealer, 4, seed=8)
    bad = log_rounds(crew.table, crew.dealer, 2, seed=9, mistake="wrong_amount")
    for record in good + bad:
        audited(record)
    books = selectors.shift_books(shift)
    assert {f.round_id for f in books.findings} == {r.pk for r in bad}
    assert books.rounds.logged - books.rounds.owed == books.findings_effect != 0
    assert books.findings_effect == sum(r.float_logged - r.float_owed for r in bad)
    # The tray holds what was paid: no variance against the logged float, and against the float as
    # the rules owed it a variance of exactly the findings' money (the planted mistakes).
    hundreds, ones = divmod(int(books.expected), 100)
    assert books.expected == hundreds * 100 + ones
    shift = services.shift_count_closing(shift=shift, counted_by=crew.dealer, counts={"100": hundreds, "1": ones})
    books = selectors.shift_books(shift)
    assert books.variance == 0
    assert books.variance_owed == books.findings_effect == -sum(f.player_delta for f in books.findings)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    opening=st.lists(st.integers(0, 40), min_size=4, max_size=4).filter(any),
    fills=st.lists(st.lists(st.integers(0, 5), min_size=4, max_size=4).filter(any), max_size=3),
    credits=st.lists(st.lists(st.integers(0, 3), min_size=4, max_size=4).filter(any), max_size=2),
    sold=st.lists(st.decimals(min_value=Decimal("0.01"), max_value=Decimal("9999"), places=2), max_size=3),
    drops=st.lists(st.decimals(min_value=Decimal("0.01"), max_value=Decimal("9999"), places=2), max_size=3),
    closing=st.lists(st.integers(0, 80), min_size=4, max_size=4),
    rounds=st.integers(0, 2),
    seed=st.integers(0, 10_000),
)
def test_variance_and_win_identities(crew, opening, fills, credits, sold, drops, closing, rounds, seed):
    from books.models import TableShift

    TableShift.objects.filter(table=crew.table).update(status="closed")  # each example a fresh shift
    shift = services.shift_open(table=crew.table, counted_by=crew.dealer, counts=dict(zip(CHIPS, opening)))
    shift = services.shift_open_sign(shift=shift, signed_by=crew.pit_boss)
    records = log_rounds(crew.table, crew.dealer, rounds, seed=seed)
    for counts in fills:
        fill(shift, crew, dict(zip(CHIPS, counts)))
    for counts in credits:
        fill(shift, crew, dict(zip(CHIPS, counts)), kind="credit")
    for amount in sold:
        services.cash_record(shift=shift, kind="chips_sold", amount=str(amount), recorded_by=crew.dealer)
    for amount in drops:
        services.cash_record(shift=shift, kind="drop", amount=str(amount), recorded_by=crew.dealer)
    shift = services.shift_count_closing(shift=shift, counted_by=crew.dealer, counts=dict(zip(CHIPS, closing)))
    b = selectors.shift_books(shift)

    value = lambda counts: sum(Decimal(c) * n for c, n in zip(CHIPS, counts))  # noqa: E731
    logged = sum((r.float_logged for r in records), Decimal(0))
    expected = (
        value(opening)
        + logged
        - sum(sold, Decimal(0))
        + sum(map(value, fills), Decimal(0))
        - sum(map(value, credits), Decimal(0))
    )
    assert b.expected == expected
    assert b.expected - b.closing == -b.variance
    assert b.closing - b.expected == b.variance == value(closing) - expected
    assert b.win == b.closing + b.credits + b.drop - b.opening - b.fills
    assert b.win == logged - b.chips_sold + b.drop + b.variance
    # By denomination, the chips' change in value adds up to what crossed the layout plus the variance.
    assert sum(d.change_value for d in b.denominations) == logged - b.chips_sold + b.variance
    for figure in (b.expected, b.variance, b.win):
        assert isinstance(figure, Decimal) and figure == figure.quantize(Decimal("0.01"))


def test_paid_burn_fees_go_into_the_expected_float(crew, open_shift):
    """Issue #35 item 3: a paid burn's fee is paid into the float (rules/ochko.md, The shoe), so the
    close of a tray that holds it shows no surplus; burns before the shift or at another table, and
    free burns, do not count."""
    from rest_framework.test import APIClient

    from dealing import services as dealing_services

    early = dealing_services.shoe_start(table=crew.table, shuffled_by=crew.dealer)
    dealing_services.shoe_burn(shoe=early, card="AS", reason="paid", fee=Decimal("50"), recorded_by=crew.dealer)
    shift = open_shift()
    before = selectors.shift_books(shift).expected
    shoe = dealing_services.shoe_start(table=crew.table, shuffled_by=crew.dealer)
    dealing_services.shoe_burn(shoe=shoe, card="KS", reason="load", recorded_by=crew.dealer)
    dealing_services.shoe_burn(shoe=shoe, card="AS", reason="paid", fee=Decimal("50"), recorded_by=crew.dealer)
    # Through the API, as a number (item 4).
    client = APIClient()
    client.force_authenticate(crew.dealer)
    burned = client.post(f"/api/v1/shoes/{shoe.pk}/burns/", {"card": "QS", "reason": "paid", "fee": 50}, format="json")
    assert burned.status_code == 201, burned.json()
    books = selectors.shift_books(shift)
    assert books.burn_fees == Decimal("100.00")
    assert books.expected == before + Decimal("100")
    assert books.as_dict()["figures"]["burn_fees"] == "100.00"
    hundreds, ones = divmod(int(books.expected), 100)
    shift = services.shift_count_closing(shift=shift, counted_by=crew.dealer, counts={"100": hundreds, "1": ones})
    books = selectors.shift_books(shift)
    assert books.variance == Decimal("0.00") and not books.needs_explanation
