"""The dealer's blackjack round form and the round page: boxes, hands that split side by side, doubles,
insurance and even money, the jackpot; the engine's findings on their fields before saving; saving
through round_log; who may use the pages."""

import uuid
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from dealing import engine, services
from dealing.games.blackjack.forms import BlackjackRoundForm
from dealing.games.blackjack.hands import parse_splits
from dealing.models import Round

pytestmark = pytest.mark.django_db


def form_url(table) -> str:
    return reverse("dealing:round_new", kwargs={"name": table.name})


def seed_round(**changes) -> dict:
    """rules/blackjack.md's round at Escribas: box 1 bets 200 on 8♠ 8♥ and splits, the first 8 takes a 3
    and doubles (9♥, 20), the second takes a 10 and stands on 18; box 2 bets 500 on 9♣ 2♦ and doubles
    (K♠, 21); the dealer's 6♥ 10♣ draws 7♦ and busts: every wager is paid 1:1."""
    data = {
        "round_id": str(uuid.uuid4()),
        "s1_player": "P-1",
        "s1_bet": "200",
        "h1_cards": "8S 8H",
        "b1_splits": "1",
        "h1-1_cards": "3C 9H",
        "h1-1_double": "on",
        "h1-1_bet_result": "pay",
        "h1-1_bet_amount": "200",
        "h1-1_double_result": "pay",
        "h1-1_double_amount": "200",
        "h1-2_cards": "TD",
        "h1-2_bet_result": "pay",
        "h1-2_bet_amount": "200",
        "s2_player": "P-2",
        "s2_bet": "500",
        "h2_cards": "9c 2d ks",
        "h2_double": "on",
        "h2_bet_result": "pay",
        "h2_bet_amount": "500",
        "h2_double_result": "pay",
        "h2_double_amount": "500",
        "dealer_up": "6H",
        "dealer_hole": "TC",
        "dealer_draws": "7D",
    }
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


def post(client, table, data, action="check"):
    return client.post(form_url(table), {**data, "action": action})


@pytest.fixture
def dealer_client(staff):
    client = Client()
    client.force_login(staff.dealer)
    return client


# --- the form ---------------------------------------------------------------------------------------


def test_the_salon_form_draws_five_boxes_and_the_dealers_up_hole_and_draws(dealer_client, tables):
    response = dealer_client.get(form_url(tables.salon))
    assert response.status_code == 200
    assert isinstance(response.context["form"], BlackjackRoundForm)
    html = response.content.decode()
    for n in range(1, 6):
        assert f'id="box-{n}"' in html and f'name="s{n}_player"' in html and f'name="h{n}_cards"' in html
        assert f'name="s{n}_insurance"' in html and f'name="s{n}_even_money"' in html
    assert 'id="box-6"' not in html
    assert 'name="s1_jackpot"' not in html  # the salon offers insurance only
    for name in ("dealer_up", "dealer_hole", "dealer_draws"):
        assert f'name="{name}"' in html
    assert "round_form_blackjack.js" in html and "Save round" not in html


def test_the_online_form_is_one_position_with_the_jackpot_bet(dealer_client, tables):
    html = dealer_client.get(form_url(tables.online)).content.decode()
    assert 'id="box-1"' in html and 'id="box-2"' not in html
    assert 'name="s1_jackpot"' in html and "A♠ J♠ jackpot 1,000" in html


def test_the_seed_round_is_checked_then_saved_through_round_log(dealer_client, staff, tables):
    data = seed_round()
    response = post(dealer_client, tables.salon, data)
    result = response.context["result"]
    assert result.ok and result.clean and result.may_save, [f.message for f in result.findings]
    assert [(e["e"], e.get("hand", e.get("to"))) for e in result.built.document["events"]][6:13] == [
        ("split", "1"),
        ("hit", "1.1"),
        ("double", "1.1"),
        ("hit", "1.2"),
        ("stand", "1.2"),
        ("double", "2"),
        ("draw", None),
    ]
    assert Round.objects.count() == 0
    html = response.content.decode()
    assert "Checked: clean" in html and "Save round" in html
    assert 'data-hand="1.1"' in html and 'data-hand="1.2"' in html  # side by side under the pair
    assert "pcard red across" in html  # the double's card laid across

    response = post(dealer_client, tables.salon, {**data, "checked": result.token}, action="save")
    record = Round.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("dealing:round_detail", args=[record.pk])
    assert (record.table, record.dealer, record.logged_by) == (tables.salon, staff.dealer, staff.dealer)
    assert str(record.uid) == data["round_id"]
    assert engine.replay(record.document).findings == []
    assert record.float_owed == record.float_logged == Decimal("-1600")


def test_split_is_a_button_that_puts_the_two_hands_side_by_side(dealer_client, tables):
    data = seed_round(b1_splits=None, **{k: None for k in seed_round() if k.startswith("h1-")})
    response = post(dealer_client, tables.salon, data, action="split:1")
    form = response.context["form"]
    assert not form.is_bound and form.splits[1] == ["1"]  # drawn again, judged at the next check
    assert response.context["focus"] == "h1-1_cards"
    html = response.content.decode()
    assert 'name="h1-1_cards"' in html and 'name="h1-2_cards"' in html and "autofocus" in html
    assert 'value="unsplit:1"' in html
    assert 'name="b1_splits" value="1"' in html
    assert 'data-inherited="8S"' in html and 'data-inherited="8H"' in html  # each half's first card
    response = post(dealer_client, tables.salon, {**data, "b1_splits": "1"}, action="unsplit:1")
    assert response.context["form"].splits[1] == []


def test_resplits_go_to_the_presets_most_hands(dealer_client, tables):
    assert parse_splits("1 1.1 1.1.1 1.2 9 2.1", 1) == ["1", "1.1", "1.1.1", "1.2"]
    assert parse_splits("1.1 1.2", 1) == []  # a hand that was never made cannot split
    data = seed_round(b1_splits="1", **{"h1-1_cards": "8D", "h1-1_double": None})
    html = post(dealer_client, tables.salon, data, action="split:1.1").content.decode()
    assert 'name="h1-1-1_cards"' in html and 'name="h1-1-2_cards"' in html
    # The split button is offered while the box may have another hand: salon 4, online 2.
    user = dealer_user()
    form = BlackjackRoundForm(initial={**data, "b1_splits": "1 1.1"}, table=tables.salon, user=user)
    hands = {h.name: h for h in form.boxes()[0].hands}
    assert hands["1.2"].can_split is False  # 8♥ 10♦ is no pair
    form = BlackjackRoundForm(initial={"h1_cards": "8S 8H"}, table=tables.online, user=user)
    assert form.boxes()[0].hand.can_split
    form = BlackjackRoundForm(
        initial={"h1_cards": "8S 8H", "b1_splits": "1", "h1-1_cards": "8D"}, table=tables.online, user=user
    )
    assert not [h for h in form.boxes()[0].hands if h.can_split]  # online: two hands at most


def dealer_user():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username="dealer1")


def test_a_wrong_payout_is_shown_next_to_its_hand_before_saving(dealer_client, tables):
    response = post(dealer_client, tables.salon, seed_round(**{"h1-1_double_amount": "100"}))
    result = response.context["result"]
    assert result.ok and result.may_save and not result.clean
    (finding,) = result.findings
    assert (finding.code, finding.field) == ("WRONG_AMOUNT", "h1-1_double_result")
    assert finding.message.startswith("Box 1, stake 1, hand 1.1: double paid 100, owed 200")
    html = response.content.decode()
    assert "Save with findings" in html and 'data-owed-result="pay" data-owed-amount="200"' in html
    assert Round.objects.count() == 0


def test_fill_owed_writes_what_was_owed_into_the_blanks_leave_with_its_amount(dealer_client, tables):
    data = seed_round(dealer_draws="5D", **{k: None for k in seed_round() if k.endswith(("_result", "_amount"))})
    response = post(dealer_client, tables.salon, data, action="fill")
    form, result = response.context["form"], response.context["result"]
    assert form["h1-1_bet_result"].value() == "take" and form["h1-1_bet_amount"].value() == "200"
    assert form["h2_double_result"].value() == "leave" and form["h2_double_amount"].value() == "500"
    assert result.clean and result.may_save  # dealer 21: box 2 pushes, box 1 loses both hands


def test_a_blackjack_of_7_online_is_owed_10_50_and_the_jackpot_1000(dealer_client, tables):
    data = {
        "round_id": str(uuid.uuid4()),
        "s1_player": "P-4",
        "s1_bet": "7",
        "s1_jackpot": "1",
        "h1_cards": "AS JS",
        "dealer_up": "9C",
        "dealer_hole": "7D",
    }
    response = post(dealer_client, tables.online, data)
    result = response.context["result"]
    owed = {(w.hand, w.wager): (w.result, w.amount) for w in result.outcome.wagers}
    assert owed == {("1", "bet"): ("pay", Decimal("10.50")), ("1", "jackpot"): ("pay", Decimal("1000"))}
    html = response.content.decode()
    assert 'data-owed-amount="10.50"' in html and "owed pay 10.50" in html and "owed pay 1,000" in html
    response = post(
        dealer_client,
        tables.online,
        {
            **data,
            "h1_bet_result": "pay",
            "h1_bet_amount": "10.5",
            "s1_jackpot_result": "pay",
            "s1_jackpot_amount": "1000",
        },
    )
    assert response.context["result"].clean
    assert response.context["result"].built.document["events"][-2:] == [
        {"e": "pay", "stake": "1", "hand": "1", "wager": "bet", "amount": "10.50"},
        {"e": "pay", "stake": "1", "hand": "1", "wager": "jackpot", "amount": 1000},
    ]


def test_insurance_and_even_money_against_an_ace(dealer_client, tables):
    data = {
        "round_id": str(uuid.uuid4()),
        "s1_player": "P-1",
        "s1_bet": "200",
        "h1_cards": "TS 9D",
        "s1_insurance": "100",
        "s1_insurance_result": "take",
        "s1_insurance_amount": "100",
        "h1_bet_result": "pay",
        "h1_bet_amount": "200",
        "s3_player": "P-3",
        "s3_bet": "100",
        "h3_cards": "AS KD",
        "s3_even_money": "on",
        "h3_bet_result": "pay",
        "h3_bet_amount": "100",
        "dealer_up": "AC",
        "dealer_hole": "5S",
        "dealer_draws": "2H",
    }
    response = post(dealer_client, tables.salon, data)
    result = response.context["result"]
    assert result.clean and result.may_save, [f.message for f in result.findings]
    kinds = [e["e"] for e in result.built.document["events"]]
    assert kinds[6:12] == ["insurance", "even_money", "pay", "peek", "take", "stand"]
    assert response.context["form"].ace_up and "ace-up" in response.content.decode()
    # Insurance over half the bet is the engine's INSURANCE_AMOUNT, on the insurance field.
    response = post(dealer_client, tables.salon, {**data, "s1_insurance": "150", "s1_insurance_amount": "150"})
    assert [(f.code, f.field) for f in response.context["result"].findings] == [("INSURANCE_AMOUNT", "s1_insurance")]


@pytest.mark.parametrize(
    "changes, field, message",
    [
        ({"h1-1_cards": "3C 9X"}, "h1-1_cards", "9X: not a card"),
        ({"s2_bet": "5.123"}, "s2_bet", "5.123 has 3 decimals"),
        ({"s2_player": ""}, "s2_player", "Who plays this box?"),
        ({"h2_cards": "9C"}, "h2_cards", "Enter the box's two cards"),
        ({"h1_cards": "8S 8H 3C"}, "h1_cards", "Hand 1 was split: its pair only here"),
        ({"h1-2_cards": ""}, "h1-2_cards", "Enter hand 1.2's second card"),
        ({"h2_cards": "9C 2D"}, "h2_cards", "A double gets one more card"),
        ({"h1-2_double_result": "pay"}, "h1-2_double_result", "This hand did not double"),
        ({"h2_bet_amount": ""}, "h2_bet_amount", "How much was paid?"),
        ({"dealer_hole": ""}, "dealer_hole", "Enter your hole card"),
        ({"dealer_up": "6H 7H"}, "dealer_up", "Only one card here."),
        ({"s4_insurance_result": "take"}, "s4_insurance_result", "This box took no insurance."),
        ({"h5_cards": "TS 9S"}, "h5_cards", "Nobody plays box 5"),
    ],
)
def test_bad_input_is_refused_next_to_its_field(dealer_client, tables, changes, field, message):
    response = post(dealer_client, tables.salon, seed_round(**changes))
    form = response.context["form"]
    assert any(message in error for error in form.errors.get(field, [])), form.errors
    assert response.context["result"] is None  # nothing reaches the engine
    assert message.split(":")[0].split("'")[0] in response.content.decode()


def test_an_engine_refusal_and_a_dealer_draw_finding_land_on_their_fields(dealer_client, staff, tables, monkeypatch):
    response = post(
        dealer_client,
        tables.salon,
        seed_round(
            dealer_up="AH",
            dealer_hole="6C",
            dealer_draws="3C",
            **{
                "h1-1_bet_result": "take",
                "h1-1_double_result": "take",
                "h1-2_bet_result": "take",
                "h2_bet_result": "take",
                "h2_double_result": "take",
            },
        ),
    )
    fields = {f.code: f.field for f in response.context["result"].findings}
    assert fields["DEALER_DRAW_RULE"] == "dealer_draws"  # A 6 is soft 17: the dealer stands

    form = BlackjackRoundForm(seed_round(), table=tables.salon, user=staff.dealer)
    assert form.is_valid(), form.errors

    def refuse(doc):
        k = next(i for i, e in enumerate(doc["events"]) if e["e"] == "double" and e["hand"] == "2")
        raise engine.RoundError("bad_value", f"Event {k}: not readable.", event=k, path=f"$.events[{k}]")

    def cannot_follow(doc):  # the builder's walk stops at the refusal; the check replays to say why
        raise engine.RoundError("bad_value", "Not readable.", path="$")

    monkeypatch.setattr(engine, "walk", cannot_follow)
    monkeypatch.setattr(engine, "replay", refuse)
    result = form.check()
    assert not result.ok and result.error_field == "h2_cards" and "h2_cards" in form.errors


def test_a_pit_boss_logs_for_a_dealer_of_his_pit(staff, tables):
    client = Client()
    client.force_login(staff.pitboss)
    data = seed_round(dealer="dealer2")
    token = post(client, tables.salon, data).context["result"].token
    post(client, tables.salon, {**data, "checked": token}, action="save")
    record = Round.objects.get()
    assert (record.dealer, record.logged_by) == (staff.dealer2, staff.pitboss)


# --- the round page -----------------------------------------------------------------------------------


def test_the_round_page_draws_split_hands_side_by_side_with_the_double_across(dealer_client, staff, tables):
    data = seed_round(**{"h1-1_double_amount": "100"})
    token = post(dealer_client, tables.salon, data).context["result"].token
    post(dealer_client, tables.salon, {**data, "checked": token}, action="save")
    record = Round.objects.get()
    response = dealer_client.get(reverse("dealing:round_detail", args=[record.pk]))
    drawing = response.context["blackjack"]
    box1 = drawing["boxes"][0]
    assert [c.name for c in box1["hand"].children] == ["1.1", "1.2"]
    first = box1["hand"].children[0]
    assert first.cards == [("8S", "inherited"), ("3C", ""), ("9H", "across")] and first.doubled
    assert [(line.label, line.logged.amount, bool(line.findings)) for line in first.lines] == [
        ("Bet", Decimal(200), False),
        ("Double", Decimal(100), True),
    ]
    assert (drawing["up"], drawing["hole"], drawing["draws"]) == ("6H", "TC", ["7D"])
    html = response.content.decode()
    assert html.index('data-hand="1.1"') < html.index('data-hand="1.2"') < html.index('data-box="2"')
    assert 'class="bj-split-row"' in html and "pcard red across" in html and "pcard black hole" in html
    assert "owed pay 200" in html


def test_insurance_even_money_and_the_jackpot_are_shown_on_the_round_page(staff, tables, logged):
    from tests.dealing.conftest import deal_round

    doc = deal_round(tables.online, seed=3)
    doc["stakes"][0]["jackpot"] = 1
    doc["events"] = [e for e in doc["events"] if e.get("wager") != "jackpot"] + [
        {"e": "take", "stake": doc["stakes"][0]["id"], "hand": "1", "wager": "jackpot", "amount": 1}
    ]
    record, _ = services.round_log(document=doc, logged_by=staff.dealer)
    client = Client()
    client.force_login(staff.auditor)
    html = client.get(reverse("dealing:round_detail", args=[record.pk])).content.decode()
    assert "chip-mini jackpot" in html and "Jackpot: take 1" in html


# --- who may use the pages ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "who, status",
    [
        (None, 302),
        ("inspector", 403),
        ("auditor", 403),
        ("trainee", 403),
        ("nobody", 403),
        ("dealer", 200),
        ("pitboss", 200),
        ("admin", 200),
        ("dealer_c", 403),
    ],
)
def test_the_blackjack_form_per_role(staff, tables, who, status):
    client = Client()
    if who is not None:
        client.force_login(getattr(staff, who))
    response = client.get(form_url(tables.salon))
    assert response.status_code == status
    if who is None:
        assert response["Location"].startswith(reverse("login"))
    assert post(client, tables.salon, seed_round()).status_code == status
    assert Round.objects.count() == 0


@pytest.mark.parametrize("who", ["dealer", "inspector", "pitboss", "auditor", "admin"])
def test_a_blackjack_round_page_for_every_reader(staff, tables, logged, who):
    record = logged(tables.salon, staff.dealer, seed=4)
    client = Client()
    client.force_login(getattr(staff, who))
    response = client.get(reverse("dealing:round_detail", args=[record.pk]))
    assert response.status_code == 200 and response.context["blackjack"]["boxes"]
    assert (
        "Correct this round" in response.content.decode()
        if who in ("dealer", "pitboss", "admin")
        else "Correct this round" not in response.content.decode()
    )


def test_the_round_page_is_refused_to_the_roles_without_it(staff, tables, logged):
    record = logged(tables.salon, staff.dealer, seed=4)
    url = reverse("dealing:round_detail", args=[record.pk])
    assert Client().get(url).status_code == 302
    for who in ("trainee", "nobody"):
        client = Client()
        client.force_login(getattr(staff, who))
        assert client.get(url).status_code == 403
    client = Client()
    client.force_login(staff.dealer2)  # a dealer sees only the rounds he dealt
    assert client.get(url).status_code == 404
