"""The blackjack simulator's rulesets and mistakes: the two seed presets as it deals them (with
the table limits it uses when none are given) and each mistake it can make, with the finding code
the audit must give it."""

from decimal import Decimal

PRESETS = {
    "salon": {
        "decks": 6,
        "boxes": 5,
        "max_hands": 4,
        "resplit_aces": False,
        "hit_split_aces": False,
        "double_after_split": True,
        "jackpot": False,
        "jackpot_bet": Decimal(1),
        "jackpot_amount": Decimal(1000),
        "cut_remaining": 78,
        "min": Decimal(100),
        "max": Decimal(5000),
    },
    "online": {
        "decks": 8,
        "boxes": 1,
        "max_hands": 2,
        "resplit_aces": False,
        "hit_split_aces": False,
        "double_after_split": True,
        "jackpot": True,
        "jackpot_bet": Decimal(1),
        "jackpot_amount": Decimal(1000),
        "cut_remaining": None,
        "min": Decimal(1),
        "max": Decimal(500),
    },
}
RULE_NAMES = (
    "decks",
    "boxes",
    "max_hands",
    "resplit_aces",
    "hit_split_aces",
    "double_after_split",
    "jackpot",
    "jackpot_bet",
    "jackpot_amount",
)

MISTAKES = {
    "wrong_amount": "WRONG_AMOUNT",
    "blackjack_paid_even": "WRONG_AMOUNT",
    "wrong_result": "WRONG_RESULT",
    "missing_settlement": "MISSING_SETTLEMENT",
    "unexpected_settlement": "UNEXPECTED_SETTLEMENT",
    "dealer_hits_soft_17": "DEALER_DRAW_RULE",
    "dealer_stands_on_16": "DEALER_DRAW_RULE",
    "insurance_over_half": "INSURANCE_AMOUNT",
    "bet_limits": "BET_LIMITS",
    "illegal_action": "ILLEGAL_ACTION",
    "hit_split_aces": "ILLEGAL_ACTION",
    "split_over_max": "ILLEGAL_ACTION",
    "split_unequal": "ILLEGAL_ACTION",
    "double_on_three_cards": "ILLEGAL_ACTION",
    "missing_peek": "ILLEGAL_ACTION",
    "deal_order": "DEAL_ORDER",
    "draw_order": "DRAW_ORDER",
}
# Mistakes made while dealing and playing (the rest are made when the finished log is written down).
DEALT_MISTAKES = {
    "dealer_hits_soft_17",
    "dealer_stands_on_16",
    "insurance_over_half",
    "bet_limits",
    "hit_split_aces",
    "split_over_max",
    "split_unequal",
    "double_on_three_cards",
}
