"""Blackjack's findings and verdicts in words: each sentence once, filled from its params (sentences.py).

Params common to most: event (the "Event n: " head), box, stake, hand (ids as in the log), card (a
card's label), amounts as decimal strings; value / dealer_value: a hand's value (a phrase: total,
soft, blackjack). Each code's rules and their other keys:
"""

from typing import Final

from ..sentences import declare, say, soft, total
from .rules import NAME, WAGER_LABEL

declare(
    {
        # to: whom (a phrase: to_dealer | to_box with box); last: the last box; missing: the places still
        # owed a card (a list of to_* phrases)
        "DEAL_ORDER": {
            "no_stake": "a card dealt to box {box}, which has no stake.",
            "after_deal": "a card dealt to {to} after the deal was over.",
            "third_card": "{to} was dealt a third card in the deal.",
            "deal_out_of_turn": "{to} was dealt out of turn; the deal goes box 1 → {last}, the dealer's up card, the "
            "second cards, the hole card.",
            "incomplete": "The deal was not complete (missing a card to: {missing}).",
        },
        # play: hit | stand | double | split (what the hand did); why: a phrase saying why a hand may not
        # (took_even_money, stood_on, is_bust, …; offer_* for insurance and even money); amount, bet
        "ILLEGAL_ACTION": {
            "void_insurance": "box {box} insured {amount}, but {why}; the insurance is void.",
            "void_even_money": "box {box} took even money, but {why}; it is void.",
            "peek_up_card": "the dealer peeked with a {card} up card; he checks the hole card only with an ace or a "
            "ten-value card up.",
            "peek_no_card": "the dealer peeked with a missing up card; he checks the hole card only with an ace or a "
            "ten-value card up.",
            "peek_twice": "the dealer peeked a second time.",
            "peek_late": "the dealer peeked only after play began.",
            "before_peek": "hand {hand} {play} before the dealer peeked at his hole card ({card} up).",
            "after_dealer_blackjack": "hand {hand} {play}, but the dealer's blackjack had ended the round.",
            "was_split": "hand {hand} was split into {hand}.1 and {hand}.2; it cannot {play}.",
            "cannot_hit": "hand {hand} {why}; it cannot take another card.",
            "stood_one_card": "hand {hand} stood on one card; a split hand gets its second card first.",
            "cannot_stand": "hand {hand} {why}; it cannot stand again.",
            "bad_double": "hand {hand} {why}.",
            "split_not_pair": "hand {hand} holds {n} card(s); only a pair of two cards splits.",
            "bad_split": "hand {hand} split, but it {why}.",
            "no_peek_draw": "the dealer played his hand without peeking at the hole card ({card} up).",
            "never_peeked": "The dealer never peeked at his hole card ({card} up).",
        },
        # current: the hand whose turn it was
        "DRAW_ORDER": {
            "after_dealer_drew": "hand {hand} played after the dealer started drawing.",
            "hand_early": "hand {hand} played before hand {current} was finished; hands play in box order, a split "
            "hand to the end before the next.",
            "dealer_before_hand": "the dealer drew before hand {hand} was finished.",
        },
        # value: the dealer's hand (a phrase)
        "DEALER_DRAW_RULE": {
            "after_blackjack": "the dealer drew although his blackjack had ended the round.",
            "nothing_live": "the dealer drew although every hand was bust or a blackjack; he only turns his hole card.",
            "drew_on_17": "the dealer drew on {value}; he stands on all 17s.",
            "stood_under_17": "The dealer stood on {value}; he draws to 17.",
        },
        # boxes: how many the table has
        "BOX_PLAYERS": {
            "no_box": "Box {box} does not exist: the table has boxes 1 to {boxes}.",
        },
        # bet, low, high; jackpot: the jackpot bet placed, due: the table's jackpot bet
        "BET_LIMITS": {
            "table_limits": "Box {box}, stake {stake}: bet {bet} is outside the table limits {low}–{high}.",
            "jackpot_bet": "Box {box}, stake {stake}: the jackpot bet is {jackpot}; it is {due}.",
        },
        # amount: the insurance; bet: the box's bet
        "INSURANCE_AMOUNT": {
            "over_half": "box {box} insured {amount}, over half its bet of {bet}.",
        },
        # card, n: how many times; decks: the shoe's packs
        "CARD_COUNT": {
            "shoe_of": "{card} appears {n} times; a shoe of {decks} pack(s) holds only {decks}.",
        },
        # item (the shoe item's head); n: cards left or already out; cut: the cut card's place
        "RESHUFFLE_POINT": {
            "early": "a new shoe with {n} cards still left; the shoe is played down to the cut ({cut} cards).",
            "no_shuffle": "a round dealt without shuffling first ({n} card(s) already out); this table shuffles "
            "before every round.",
            "past_cut": "a round dealt with {n} cards left; a new shoe is due below {cut}.",
        },
    },
    {
        "to_dealer": "the dealer",
        "to_box": "box {box}",
        "play.hit": "take a card",
        "play.stand": "stand",
        "play.double": "double",
        "play.split": "split",
        # why a hand may not take a card, stand, double or split
        "took_even_money": "took even money",
        "stood_on": "stood on {value}",
        "is_bust": "is bust ({n})",
        "is_blackjack": "is a blackjack",
        "was_doubled": "was doubled (one card only)",
        "split_ace_one_card": "is a split ace, which gets one card only",
        "has_total": "has {n}",
        "double_two_cards": "holds {n} card(s); a hand doubles on its first two cards only",
        "no_double_after_split": "is a split hand and this table does not double after a split",
        "double_amount": "doubled for {amount}; the second bet equals the first ({bet})",
        "resplit_aces": "is a split ace; aces are split once only",
        "unequal_pair": "holds {card} {card2}, which are not of equal value",
        "too_many_hands": "would make {n} hands on box {box}; the most is {most}",
        # why an insurance or even money is void (offer: insurance | even_money)
        "offer_no_ace": "{offer} is offered only while the dealer shows an ace",
        "offer_closed": "{offer} was taken after the offer closed (the peek or the first play)",
        "offer_decided": "stake {stake} had already decided (insurance or even money)",
        "offer_blackjack": "a blackjack is offered even money, not insurance",
        "offer_not_blackjack": "its hand is {value}, not a blackjack",
        "offer.insurance": "insurance",
        "offer.even_money": "even money",
        "pack_52": "the 52-card pack",
        # a hand's value
        "total": "{n}",
        "soft": "soft {n}",
        "blackjack": "blackjack",
        # the dealer's side of a verdict
        "dealer_busts": "the dealer busts with {n}",
        "dealer_has": "the dealer has {value}",
        # verdicts (Owed.verdict): dealer: a phrase; value, dealer_value: hands' values; hand; n: a total
        "insurance_wins": "the dealer has blackjack: insurance pays 2:1",
        "dealer_no_blackjack": "the dealer has no blackjack",
        "jackpot_won": "A♠ J♠: the jackpot is won",
        "jackpot_lost": "the first two cards are not A♠ J♠",
        "blackjack_push": "blackjack against the dealer's blackjack: a push",
        "round_ends": "{dealer}: the round ends, only the initial bet is lost",
        "initial_bet_only": "{dealer}: only the initial bet is lost",
        "hand_bust": "hand {hand} is bust ({n})",
        "blackjack_pays": "blackjack pays 3:2",
        "even_money_paid": "even money: the blackjack's bet is paid 1:1 at once",
        "beats": "{value} beats {dealer_value}",
        "push": "{value} against {dealer_value}: a push",
        "loses_to": "{value} loses to {dealer_value}",
    },
    {NAME: WAGER_LABEL},
)

BLACKJACK: Final = say("blackjack")


def value(hand) -> dict:
    """A hand's value as a phrase (what Hand.words() says)."""
    if hand.natural:
        return BLACKJACK
    best = hand.best
    return soft(best) if hand.soft and best != 21 else total(best)


def to(target) -> dict:
    """Whom a deal event dealt to, as a phrase."""
    return say("to_dealer") if target == "dealer" else say("to_box", box=target)
