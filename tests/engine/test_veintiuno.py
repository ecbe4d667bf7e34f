"""Veintiuno (21 ecuatoriano, rules/veintiuno.md): each special hand and rule, each illegal action,
the passing of the bank, limits, order and money. A log the engine cannot follow, the house rules
and next events: test_veintiuno_log.py; the pack across a game night, properties against the
simulator's own arithmetic and fuzzing: test_veintiuno_night.py."""

from decimal import Decimal

import pytest

from dealing.engine import RoundError
from dealing.engine import veintiuno as v21

from .veintiuno_rounds import codes, owed, rnd, settle

# --- the pack and the values -----------------------------------------------------------------


def test_the_pack_has_forty_cards_without_eights_nines_and_tens():
    assert len(v21.PACK) == 40
    assert not {c for c in v21.PACK if c[0] in "89T"}


@pytest.mark.parametrize("card", ["8H", "9S", "TD", "10C", "XX"])
def test_a_card_outside_the_pack_leaves_no_settlement(card):
    s = settle(rnd({1: (card, "KD")}, ("5C", "QC"), ["stand 1", "pay 1 10", "bank_to Ana"]))
    assert s["wagers"] is None and s["float"] is None and s["bank_next"] is None
    assert codes(s) == ["CARD_INVALID"]


def test_an_ace_counts_eleven_unless_that_goes_over():
    # A 5 = 16 soft; + K = 16 hard; + 4 = 20 beats the bank's 19.
    s = settle(rnd({1: ("AH", "5D")}, ("KC", "7C"), ["hit 1 KS", "hit 1 4C", "stand 1", "draw 2D"]))
    assert owed(s) == {"1": ("pay", 10)}
    assert codes(s) == []


# --- naturals and the bank --------------------------------------------------------------------


def test_a_declared_natural_wins_two_to_one_and_takes_the_bank_even_against_a_bank_natural():
    s = settle(rnd({1: ("AS", "KD")}, ("AC", "QH"), ["declare 1", "pay 1 20", "bank_to Beto"]))
    assert owed(s) == {"1": ("pay", 20)}
    assert s["float"] == "-20" and s["bank_next"] == "Beto" and codes(s) == []


def test_the_first_declared_natural_in_playing_order_takes_the_bank():
    # Dani (seat 3) declares first, Beto (seat 1) a moment later: Beto plays first, so Beto takes it.
    s = settle(
        rnd(
            {1: ("AD", "QS"), 2: ("5C", "KH"), 3: ("AH", "JC")},
            ("6S", "KC"),
            ["declare 3", "declare 1", "hit 2 2D", "stand 2", "draw 3C"],
        )
    )
    assert owed(s) == {"1": ("pay", 20), "2": ("take", 10), "3": ("pay", 20)}
    assert s["bank_next"] == "Beto"


def test_a_natural_on_a_split_hand_comes_before_the_later_seats():
    s = settle(
        rnd(
            {1: ("KH", "KD"), 2: ("AH", "JC")},
            ("6S", "QC"),
            ["declare 2", "split 1 20", "hit 1.1 AS", "declare 1.1", "hit 1.2 7S", "stand 1.2"],
            bets={1: 10, 2: 5},
        )
    )
    # Bank 16: 1.1 (K A, declared) 2:1 on 10; 1.2 (K 7 = 17) 1:1 on 20; seat 2 (declared first) 2:1 on 5.
    assert owed(s) == {"1.1": ("pay", 20), "1.2": ("pay", 20), "2": ("pay", 10)}
    assert s["bank_next"] == "Beto" and codes(s) == []


def test_an_undeclared_natural_is_a_plain_21_and_a_tie_with_the_bank_loses():
    s = settle(rnd({1: ("AS", "KD")}, ("7C", "7D"), ["stand 1", "draw 7H"]))
    assert owed(s) == {"1": ("take", 10)}
    assert s["bank_next"] == "Ana" and codes(s) == []


def test_a_natural_declared_late_is_illegal_and_plays_as_a_plain_21():
    s = settle(
        rnd(
            {1: ("KS", "7D"), 2: ("AH", "QD")},
            ("JC", "4H"),
            ["stand 1", "declare 2", "stand 2", "draw 5C", "bank_to Ana"],
        )
    )
    assert codes(s) == ["ILLEGAL_ACTION"]
    assert owed(s) == {"1": ("take", 10), "2": ("pay", 10)}  # bank 19: 17 loses, the plain 21 wins 1:1
    assert s["bank_next"] == "Ana"
    assert s["findings"][0]["event"] == 9


@pytest.mark.parametrize("cards, extra", [(("AH", "7D"), []), (("AH", "5D"), ["hit 1 5C"])])
def test_declaring_what_is_not_a_two_card_natural_is_illegal(cards, extra):
    s = settle(rnd({1: cards}, ("KC", "7C"), extra + ["declare 1", "stand 1"]))
    assert codes(s) == ["ILLEGAL_ACTION"]
    assert s["bank_next"] == "Ana"


def test_a_declared_natural_is_finished():
    s = settle(rnd({1: ("AS", "KD")}, ("7C", "QH"), ["declare 1", "hit 1 2C"]))
    assert codes(s) == ["ILLEGAL_ACTION"]
    assert owed(s) == {"1": ("pay", 20)}


# --- moñona, twelves, relancina, trillona -----------------------------------------------------


def test_monona_pays_three_to_one_also_when_the_bank_goes_over():
    s = settle(rnd({1: ("AH", "AD")}, ("6C", "KC"), ["stand 1", "draw 7S"]))
    assert owed(s) == {"1": ("pay", 30)}


def test_monona_loses_to_a_bank_natural_but_beats_a_bank_monona():
    s = settle(rnd({1: ("AH", "AD")}, ("AC", "KC"), ["stand 1"]))
    assert owed(s) == {"1": ("take", 10)}
    s = settle(rnd({1: ("AH", "AD")}, ("AC", "AS"), ["stand 1"]))
    assert owed(s) == {"1": ("pay", 30)}


def test_the_banks_monona_counts_21_against_a_plain_21():
    s = settle(rnd({1: ("KH", "5D")}, ("AC", "AS"), ["hit 1 6C", "stand 1"]))
    assert owed(s) == {"1": ("take", 10)}


def test_two_aces_that_draw_on_count_their_cards_normally():
    # A A 5: 17 (one ace as 11), against the bank's 18.
    s = settle(rnd({1: ("AH", "AD")}, ("KC", "6C"), ["hit 1 5C", "stand 1", "draw 2S"]))
    assert owed(s) == {"1": ("take", 10)}


@pytest.mark.parametrize("rules, pays", [(None, 20), ({"suited_twelve_pays": 3}, 30)])
def test_a_suited_twelve_counts_21_and_pays_the_house_rule(rules, pays):
    s = settle(rnd({1: ("5H", "7H"), 2: ("2S", "JS")}, ("KC", "6C"), ["stand 1", "stand 2", "draw 3D"], rules=rules))
    assert owed(s) == {"1": ("pay", pays), "2": ("pay", pays)}


def test_a_suited_twelve_loses_to_a_bank_natural():
    s = settle(rnd({1: ("5H", "7H")}, ("AC", "KC"), ["stand 1"]))
    assert owed(s) == {"1": ("take", 10)}


def test_a_twelve_of_two_suits_counts_20_and_ties_lose():
    s = settle(rnd({1: ("6H", "6D"), 2: ("2S", "KD")}, ("KC", "QC"), ["stand 1", "stand 2"]))
    assert owed(s) == {"1": ("take", 10), "2": ("take", 10)}
    s = settle(rnd({1: ("6H", "6D")}, ("KC", "7C"), ["stand 1", "draw 2D"]))
    assert owed(s) == {"1": ("pay", 10)}


def test_a_twelve_that_draws_on_counts_its_cards():
    # 5 7 3 = 15, not 20 + 3: it loses to the bank's 17.
    s = settle(rnd({1: ("5S", "7D")}, ("KC", "7C"), ["hit 1 3C", "stand 1"]))
    assert owed(s) == {"1": ("take", 10)}


def test_the_banks_two_card_twelve_counts_20_and_a_suited_one_21():
    s = settle(rnd({1: ("KH", "5D")}, ("5C", "7D"), ["hit 1 4S", "stand 1"]))  # 19 against 20
    assert owed(s) == {"1": ("take", 10)}
    s = settle(rnd({1: ("KH", "QD")}, ("5C", "7C"), ["stand 1"]))  # relancina 20 against 21
    assert owed(s) == {"1": ("take", 10)}
    s = settle(rnd({1: ("AH", "AD")}, ("5C", "7C"), ["stand 1"]))  # moñona still wins
    assert owed(s) == {"1": ("pay", 30)}


def test_a_relancina_is_20_and_does_not_take_the_bank():
    s = settle(rnd({1: ("JH", "KD")}, ("QC", "6C"), ["stand 1", "draw 3D"]))
    assert owed(s) == {"1": ("pay", 10)} and s["bank_next"] == "Ana"
    s = settle(rnd({1: ("JH", "QD")}, ("KC", "6C"), ["stand 1", "draw 5D"]))
    assert owed(s) == {"1": ("take", 10)}


def test_a_trillona_pays_seven_to_one_even_when_the_bank_goes_over():
    play = ["hit 1 4C", "hit 1 5D", "hit 1 5H", "hit 1 AH", "hit 1 AC", "stand 1", "draw 7D"]
    s = settle(rnd({1: ("2D", "3S")}, ("QC", "6C"), play))
    assert owed(s) == {"1": ("pay", 70)} and s["bank_next"] == "Ana"


def test_a_trillona_loses_to_a_bank_natural():
    play = ["hit 1 4C", "hit 1 5D", "hit 1 5H", "hit 1 AH", "hit 1 AC", "stand 1"]
    s = settle(rnd({1: ("2D", "3S")}, ("QC", "AS"), play))
    assert owed(s) == {"1": ("take", 10)}


@pytest.mark.parametrize("bank_draw", ["3D", "7D"])
def test_a_seventh_card_taken_as_tapo_y_quedo_can_make_a_trillona(bank_draw):
    play = ["hit 1 4C", "hit 1 5D", "hit 1 5H", "hit 1 AH", "tapo 1 AC", f"draw {bank_draw}"]
    s = settle(rnd({1: ("2D", "3S")}, ("QC", "6C"), play))
    assert owed(s) == {"1": ("pay", 70)} and codes(s) == []


def test_21_in_eight_cards_is_a_plain_21():
    # 2 2 2 3 3 3 A 5: sixteen after seven cards, 21 with the eighth.
    play = ["hit 1 2D", "hit 1 3S", "hit 1 3H", "hit 1 3D", "hit 1 AS", "hit 1 5C", "stand 1"]
    s = settle(rnd({1: ("2S", "2H")}, ("KC", "7C"), play))
    assert owed(s) == {"1": ("pay", 10)}


# --- bank over, ties, hands over ---------------------------------------------------------------


def test_a_hand_under_ten_is_paid_when_the_bank_goes_over_and_a_hand_over_21_loses_anyway():
    s = settle(
        rnd(
            {1: ("4H", "5S"), 2: ("KS", "7D")},
            ("6C", "QH"),
            ["stand 1", "hit 2 6S", "take 2 10", "draw 7C", "pay 1 10", "bank_to Ana"],
        )
    )
    assert owed(s) == {"1": ("pay", 10), "2": ("take", 10)} and codes(s) == []


def test_a_hand_over_21_cannot_act_again():
    s = settle(rnd({1: ("KS", "7D")}, ("6C", "QH"), ["hit 1 6S", "stand 1"]))
    assert codes(s) == ["ILLEGAL_ACTION"]


def test_a_tie_paid_is_a_wrong_result_with_the_players_gain():
    s = settle(rnd({1: ("KH", "7C")}, ("7D", "QC"), ["stand 1", "pay 1 10"]))
    assert codes(s) == ["WRONG_RESULT"]
    assert s["findings"][0]["player_delta"] == "20"


# --- withdraw and void on 13 -----------------------------------------------------------------


@pytest.mark.parametrize("cards", [("6C", "7D"), ("3H", "KS"), ("AH", "2C")])
def test_a_two_card_13_may_withdraw_and_the_bet_comes_back(cards):
    s = settle(
        rnd(
            {1: ("KH", "KS" if cards[1] != "KS" else "QS"), 2: cards},
            ("7S", "KC"),
            ["stand 1", "withdraw 2", "pay 1 10", "leave 2 10"],
        )
    )
    assert owed(s)["2"] == ("leave", 10) and codes(s) == []
    assert s["float"] == "-10"


@pytest.mark.parametrize("cards, extra", [(("6C", "6D"), []), (("5C", "5D"), ["hit 2 3S"])])
def test_a_withdraw_without_a_two_card_13_is_illegal_but_the_bet_was_returned(cards, extra):
    s = settle(
        rnd({1: ("KH", "KS"), 2: cards}, ("7S", "KC"), ["stand 1"] + extra + ["withdraw 2", "pay 1 10", "leave 2 10"])
    )
    assert codes(s) == ["ILLEGAL_ACTION"]
    assert owed(s)["2"] == ("leave", 10)


def test_pie_de_banco_voids_the_hand_and_every_bet_is_returned():
    s = settle(
        rnd(
            {1: ("6H", "7D"), 2: ("QC", "JD"), 3: ("AH", "KH")},
            ("7S", "KS"),
            ["declare 3", "void 1"],
            bets={1: 10, 2: 20, 3: 30},
        )
    )
    # A natural declared before the void is returned like every other bet, and the bank stays.
    assert owed(s) == {"1": ("leave", 10), "2": ("leave", 20), "3": ("leave", 30)}
    assert s["float"] == "0" and s["bank_next"] == "Ana" and codes(s) == []


def test_pie_de_banco_is_the_first_seat_in_play():
    s = settle(rnd({2: ("6H", "7D"), 3: ("QC", "JD")}, ("7S", "KS"), ["void 2"]))
    assert codes(s) == [] and owed(s) == {"2": ("leave", 10), "3": ("leave", 10)}


@pytest.mark.parametrize(
    "hands, voider", [({1: ("KH", "5C"), 2: ("6H", "7D")}, "2"), ({1: ("6H", "6D"), 2: ("QC", "JD")}, "1")]
)
def test_a_void_not_by_pie_de_banco_or_without_13_is_illegal_and_returns_every_bet(hands, voider):
    play = ["stand 1"] if voider == "2" else []
    s = settle(rnd(hands, ("7S", "KS"), play + [f"void {voider}"]))
    assert codes(s) == ["ILLEGAL_ACTION"]
    assert {r for r, _ in owed(s).values()} == {"leave"}


def test_nothing_is_played_after_a_void():
    s = settle(rnd({1: ("6H", "7D"), 2: ("QC", "JD")}, ("7S", "KS"), ["void 1", "stand 2", "draw 2C"]))
    assert codes(s) == ["ILLEGAL_ACTION"]
    assert len(s["findings"]) == 2


# --- al puje ----------------------------------------------------------------------------------


def test_al_puje_hands_under_21_draw_until_21_or_over():
    s = settle(
        rnd(
            {1: ("KC", "6D"), 2: ("7C", "5D")},
            ("KH", "QD"),
            ["puje", "hit 1 5H", "stand 1", "hit 2 4S", "hit 2 JS", "take 2 10", "pay 1 10"],
        )
    )
    assert owed(s) == {"1": ("pay", 10), "2": ("take", 10)} and codes(s) == []


def test_standing_under_21_al_puje_is_illegal():
    s = settle(rnd({1: ("KC", "6D")}, ("KH", "QD"), ["puje", "hit 1 2H", "stand 1"]))
    assert codes(s) == ["ILLEGAL_ACTION"]
    assert owed(s) == {"1": ("take", 10)}  # settled as played: 18 against 20


def test_a_hand_left_under_21_al_puje_is_illegal():
    s = settle(rnd({1: ("KC", "6D")}, ("KH", "QD"), ["puje"]))
    assert codes(s) == ["ILLEGAL_ACTION"]


def test_a_tapo_al_puje_is_illegal():
    s = settle(rnd({1: ("KC", "6D")}, ("KH", "QD"), ["puje", "tapo 1 5H"]))
    assert codes(s) == ["ILLEGAL_ACTION"]


@pytest.mark.parametrize(
    "bank_cards, legal",
    [
        (("KH", "QD"), True),
        (("KH", "KD"), True),
        (("5C", "7D"), True),
        (("5C", "7C"), False),
        (("KH", "7D"), False),
        (("AH", "KD"), False),
    ],
)
def test_puje_needs_a_two_card_20_for_the_bank(bank_cards, legal):
    s = settle(rnd({1: ("JC", "6S")}, bank_cards, ["puje", "hit 1 5H", "stand 1"]))
    assert codes(s) == ([] if legal else ["ILLEGAL_ACTION"])


def test_puje_after_the_bank_drew_is_illegal():
    s = settle(rnd({1: ("JC", "7S")}, ("KH", "5D"), ["stand 1", "draw 5H", "puje"]))
    assert codes(s) == ["ILLEGAL_ACTION"]


# --- opening (split) --------------------------------------------------------------------------


def test_opening_takes_twice_the_bet_and_may_open_again():
    play = [
        "split 1 20",
        "hit 1.1 7D",
        "split 1.1 20",
        "hit 1.1.1 AS",
        "stand 1.1.1",
        "hit 1.1.2 KS",
        "stand 1.1.2",
        "hit 1.2 3C",
        "hit 1.2 AH",
        "stand 1.2",
    ]
    s = settle(rnd({1: ("7S", "7H")}, ("KC", "QC"), play))
    # Bank 20: 7 A = 18 loses its 10; 7 K = 17 loses its 20; 7 3 A = 21 wins 20.
    assert owed(s) == {"1.1.1": ("take", 10), "1.1.2": ("take", 20), "1.2": ("pay", 20)}
    assert s["float"] == "10" and codes(s) == []


def test_an_opened_hand_is_finished():
    s = settle(rnd({1: ("7S", "7H")}, ("KC", "QC"), ["split 1 20", "hit 1 2C"]))
    assert codes(s) == ["ILLEGAL_ACTION"]


@pytest.mark.parametrize(
    "cards, amount", [(("KH", "KD"), 10), (("KH", "KD"), 30), (("JH", "QD"), 20), (("5H", "6D"), 20)]
)
def test_opening_with_the_wrong_amount_unequal_cards_or_a_relancina_is_illegal_and_settled_as_placed(cards, amount):
    play = [f"split 1 {amount}", "hit 1.1 7S", "stand 1.1", "hit 1.2 6S", "stand 1.2", "draw 7D"]
    s = settle(rnd({1: cards}, ("QC", "6C"), play))
    assert codes(s) == ["ILLEGAL_ACTION"]
    assert s["wagers"][1]["hand"] == "1.2" and Decimal(s["wagers"][1]["amount"]) == amount


def test_a_three_card_hand_cannot_be_opened():
    s = settle(rnd({1: ("2H", "2D")}, ("QC", "6C"), ["hit 1 2S", "split 1 20", "stand 1"]))
    assert codes(s) == ["ILLEGAL_ACTION"]
    with pytest.raises(RoundError) as err:
        settle(rnd({1: ("2H", "2D")}, ("QC", "6C"), ["hit 1 2S", "split 1 20", "hit 1.1 5C"]))
    assert err.value.code == "unknown_hand" and err.value.event == 7


def test_a_tapo_on_an_opened_hand_is_illegal():
    s = settle(rnd({1: ("7S", "7H")}, ("KC", "QC"), ["split 1 20", "hit 1.1 6D", "tapo 1.1 2C"]))
    assert codes(s) == ["ILLEGAL_ACTION"]


# --- tapo y quedo -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tapo, bank_draw, result",
    [
        ("QS", "7D", "leave"),  # tapo over, bank over: the bet comes back
        ("4S", "7D", "pay"),  # tapo 19, bank over: paid
        ("4S", "2D", "pay"),  # tapo 19 against the bank's 18: paid as any other
        ("QS", "2D", "take"),  # tapo over, the bank stands: lost
        ("2S", "2D", "take"),  # tapo 17 against 18: lost
    ],
)
def test_tapo_y_quedo(tapo, bank_draw, result):
    s = settle(rnd({1: ("KH", "5C")}, ("6C", "QD"), [f"tapo 1 {tapo}", f"draw {bank_draw}"]))
    assert owed(s) == {"1": (result, 10)} and codes(s) == []


@pytest.mark.parametrize("after", ["stand 1", "hit 1 2C", "tapo 1 2C", "withdraw 1", "split 1 20"])
def test_any_action_after_a_tapo_is_illegal(after):
    s = settle(rnd({1: ("KH", "5C")}, ("6C", "QD"), ["tapo 1 QS", after, "draw 7D"]))
    assert codes(s) == ["ILLEGAL_ACTION"]
    assert owed(s) == {"1": ("leave", 10)}


# --- limits, succession, cards, order ---------------------------------------------------------


@pytest.mark.parametrize("amount", [4, 101, "4.99"])
def test_a_bet_outside_the_banks_limits(amount):
    s = settle(rnd({1: ("KH", "7C")}, ("6C", "QD"), ["stand 1", "draw 7D"], bets={1: amount}))
    assert codes(s) == ["BET_LIMITS"]
    assert owed(s)["1"] == ("pay", Decimal(str(amount)))


def test_opening_may_go_over_the_maximum():
    s = settle(
        rnd(
            {1: ("KH", "KD")},
            ("QC", "6C"),
            ["split 1 200", "hit 1.1 7S", "stand 1.1", "hit 1.2 6S", "stand 1.2", "draw 7D"],
            bets={1: 100},
        )
    )
    assert codes(s) == []


def test_the_bank_passed_to_the_wrong_player():
    s = settle(rnd({1: ("KH", "7C")}, ("6C", "QD"), ["stand 1", "draw 7D", "pay 1 10", "bank_to Beto"]))
    assert codes(s) == ["BANK_SUCCESSION"]
    f = s["findings"][0]
    assert f["event"] == 8 and f["expected"] == {"player": "Ana"} and f["actual"] == {"player": "Beto"}
    assert s["bank_next"] == "Ana"


def test_no_bank_to_event_is_no_finding_and_a_second_one_is_illegal():
    s = settle(rnd({1: ("AH", "KC")}, ("6C", "QD"), ["declare 1", "pay 1 20"]))
    assert codes(s) == [] and s["bank_next"] == "Beto"
    s = settle(rnd({1: ("AH", "KC")}, ("6C", "QD"), ["declare 1", "bank_to Beto", "bank_to Beto"]))
    assert codes(s) == ["ILLEGAL_ACTION"]


@pytest.mark.parametrize("rules, copies, found", [(None, 2, True), ({"packs": 2}, 2, False), ({"packs": 2}, 3, True)])
def test_a_card_more_often_than_the_packs_hold(rules, copies, found):
    play = ["hit 1 2C"] * (copies - 1) + ["stand 1"]
    s = settle(rnd({1: ("2C", "3D")}, ("6C", "QD"), play, rules=rules))
    assert codes(s) == (["CARD_COUNT"] if found else [])


def test_deal_order():
    doc = rnd({1: ("KH", "7C"), 2: ("JS", "5D")}, ("6C", "QD"), ["stand 1", "stand 2"])
    doc["events"][0], doc["events"][1] = doc["events"][1], doc["events"][0]
    assert codes(settle(doc)) == ["DEAL_ORDER"]
    doc = rnd({1: ("KH", "7C"), 2: ("JS", "5D")}, ("6C", "QD"), ["stand 1", "stand 2"])
    doc["events"][6], doc["events"][7] = doc["events"][7], doc["events"][6]  # the bank's second card before seat 2's
    assert codes(settle(doc)) == ["DEAL_ORDER"]
    doc = rnd({1: ("KH", "7C")}, ("6C", "QD"), ["stand 1", {"e": "deal", "to": 1, "card": "2S"}])
    assert codes(settle(doc)) == ["DEAL_ORDER"]


def test_draw_order():
    s = settle(rnd({1: ("KH", "5C"), 2: ("JS", "5D")}, ("6C", "QD"), ["stand 2", "hit 1 4C", "stand 1"]))
    assert codes(s) == ["DRAW_ORDER"]
    s = settle(rnd({1: ("KH", "5C")}, ("6C", "QD"), ["draw 2D", "stand 1"]))
    assert codes(s) == ["DRAW_ORDER"]


def test_bets_come_after_the_first_card_and_before_the_second():
    doc = rnd({1: ("KH", "7C"), 2: ("JS", "5D")}, ("6C", "QD"), ["stand 1", "stand 2"])
    bet = doc["events"].pop(4)  # seat 2's bet, placed after the second pass
    doc["events"].insert(7, bet)
    s = settle(doc)
    assert codes(s) == ["ILLEGAL_ACTION"]
    doc = rnd({1: ("KH", "7C"), 2: ("JS", "5D")}, ("6C", "QD"), ["stand 1", "stand 2"])
    del doc["events"][4]  # seat 2 never bets: no wager
    s = settle(doc)
    assert codes(s) == ["ILLEGAL_ACTION"] and set(owed(s)) == {"1"}
    doc = rnd({1: ("KH", "7C")}, ("6C", "QD"), ["stand 1"])
    doc["events"].insert(3, {"e": "bet", "stake": "S1", "amount": 20})
    assert codes(settle(doc)) == ["ILLEGAL_ACTION"]


# --- money ----------------------------------------------------------------------------------


def test_amounts_are_exact_decimals():
    s = settle(
        rnd(
            {1: ("AH", "KC"), 2: ("5H", "7H")},
            ("6C", "QD"),
            ["declare 1", "stand 2", "pay 1 25.00", "pay 2 25"],
            bets={1: "12.50", 2: "12.5"},
        )
    )
    assert owed(s) == {"1": ("pay", Decimal("25")), "2": ("pay", Decimal("25"))}
    assert codes(s) == [] and s["float"] == "-50"
    s = settle(rnd({1: ("AH", "KC")}, ("6C", "QD"), ["declare 1", "pay 1 12.50"], bets={1: "12.50"}))
    assert codes(s) == ["WRONG_AMOUNT"] and s["findings"][0]["player_delta"] == "-12.50"


def test_missing_and_unexpected_settlements():
    s = settle(rnd({1: ("KH", "7C"), 2: ("JS", "QD")}, ("6C", "2D"), ["stand 1", "stand 2", "draw 7D", "pay 1 10"]))
    assert codes(s) == ["MISSING_SETTLEMENT"] and s["findings"][0]["player_delta"] == "-10"
    s = settle(rnd({1: ("KH", "7C")}, ("6C", "2D"), ["stand 1", "draw 7D", "pay 1 10", "pay 1.1 10"]))
    assert codes(s) == ["UNEXPECTED_SETTLEMENT"] and s["findings"][0]["player_delta"] == "10"


def test_a_settlement_names_its_hand():
    s = settle(
        rnd(
            {1: ("KH", "KD")},
            ("QC", "6C"),
            ["split 1 20", "hit 1.1 7S", "stand 1.1", "hit 1.2 6S", "stand 1.2", "draw 7D", "pay 1.2 20", "pay 1.1 10"],
        )
    )
    assert codes(s) == []
    s = settle(
        rnd(
            {1: ("KH", "KD")},
            ("QC", "6C"),
            ["split 1 20", "hit 1.1 7S", "stand 1.1", "hit 1.2 6S", "stand 1.2", "draw 7D", "pay 1.1 20", "pay 1.2 10"],
        )
    )
    assert codes(s) == ["WRONG_AMOUNT"]
    assert sum(Decimal(f["player_delta"]) for f in s["findings"]) == 0
