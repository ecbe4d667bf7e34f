"""Veintiuno's findings and verdicts in words: each sentence once, filled from its params (sentences.py).

Params common to most: event (the "Event n: " head), who "seat_hand" with hand and name (the hand's
player) — "hand 2 (Ana)" — or "bank"; stake, seat; cards (the hand's cards, labelled, space-separated);
value: a hand's value (a phrase: total, natural_hand, monona_hand, …); amounts as decimal strings;
voided: the event that voided the hand. Each code's rules and their other keys:
"""

from typing import Final

from ..sentences import declare, say, total
from .rules import MONONA, NAME, NATURAL, RELANCINA, SUITED_TWELVE, TWELVE, WAGER_LABEL

declare(
    {
        # to, due: whom (a phrase: to_bank | to_seat with seat); started: the first play's event; pass:
        # first | second; nth: first | second (the card missing)
        "DEAL_ORDER": {
            "before_deal_done": "{who} played before the deal was complete.",
            "empty_seat": "nobody sits at seat {seat}, so no card is dealt there.",
            "third_card_hit": "{to} was dealt a third card in the deal; a card after the deal is a hit (or the bank's "
            "draw).",
            "after_play": "a card dealt to {to} after play began (event {started}).",
            "pass_order": "a card dealt to {to} when the next card was due to {due} ({pass}); each pass goes from "
            "seat 1 onwards, then the bank.",
            "bank_before_deal_done": "the bank drew before the deal was complete.",
            "never_completed": "The deal was never completed: {to} is missing its {nth} card.",
        },
        # current: the hand whose turn it was (a who.seat_hand phrase)
        "DRAW_ORDER": {
            "after_bank_drew": "{who} played after the bank began drawing.",
            "seat_order": "{who} played before {current} had finished; hands play in seat order from the bank's right.",
            "bank_while_playing": "the bank drew while {current} was still playing; the bank plays last.",
        },
        # act: withdraw | void | hit | stand | tapo | split | declare (what the hand tried); hand_state:
        # stood | over | tapo | declared | withdrawn | split; last: the action before a late declaration;
        # pie: pie de banco's seat; n: cards or a total; due: the amount an opening takes; puje: the event
        # the table went al puje; at: the event the bank was passed
        "ILLEGAL_ACTION": {
            "after_void": "{who} cannot {act}: the hand was voided at event {voided} and every bet returned.",
            "finished": "{who} {hand_state}; it cannot {act}.",
            "deal_after_void": "a card dealt to {to} after the hand was voided (event {voided}); the new deal is a new "
            "round.",
            "stake_already_bet": "stake {stake} ({name}) already bet {bet}.",
            "bet_after_void": "a bet after the hand was voided (event {voided}).",
            "bet_after_second_pass": "stake {stake} ({name}) bet after the second pass began; bets are placed on the "
            "first card only.",
            "declare_after_void": "{who} declared after the hand was voided.",
            "not_a_natural": "{who} declared a natural holding {cards}; only A + J/Q/K in two cards is one.",
            "not_a_natural_no_cards": "{who} declared a natural holding no cards; only A + J/Q/K in two cards is one.",
            "late_declaration": "{who} declared its natural only after another action (event {last}); a natural is "
            "declared at once, so it plays on as a plain 21.",
            "withdraw_not_13": "{who} withdrew holding {cards} ({value}); only a two-card 13 may withdraw. The bet was "
            "returned as played.",
            "void_not_pie": "{who} voided the hand, but only pie de banco (seat {pie}) may void the hand. Every bet "
            "was returned as played.",
            "void_not_13": "{who} voided the hand, but it holds {cards} ({value}), not a two-card 13. Every bet was "
            "returned as played.",
            "void_neither": "{who} voided the hand, but only pie de banco (seat {pie}) may void the hand and it holds "
            "{cards} ({value}), not a two-card 13. Every bet was returned as played.",
            "puje_after_void": "al puje after the hand was voided (event {voided}).",
            "puje_twice": "the table is already al puje (event {puje}).",
            "puje_not_20": "the bank sent the table al puje holding {cards}; only a bank with 20 in two cards may. The "
            "hands were fed as played.",
            "puje_no_cards": "the bank sent the table al puje holding no cards; only a bank with 20 in two cards may. "
            "The hands were fed as played.",
            "stood_al_puje": "{who} stood on {n} al puje; every hand under 21 must draw until it has 21 or is over.",
            "tapo_al_puje": "{who} took a tapo y quedo al puje; every hand under 21 draws face up until it has 21 or "
            "is over.",
            "tapo_opened": "{who} took a tapo y quedo on an opened hand; opened hands are dealt face up.",
            "open_not_two": "{who} holds {n} card(s); only two equal cards can be opened.",
            "open_relancina": "{who} opened a relancina ({cards}); a relancina cannot be opened.",
            "open_unequal": "{who} opened unequal cards ({cards}); only two cards of the same rank can be opened.",
            "open_amount": "{who} opened with {amount} on the new hand; opening takes twice the bet, {due}. Settled "
            "as placed.",
            "bank_after_void": "the bank drew after the hand was voided (event {voided}).",
            "bank_over": "the bank drew although it is already over 21 ({n}).",
            "bank_passed_twice": "the bank was already passed at event {at}.",
            "never_bet": "Stake {stake} ({name}, seat {seat}) never placed a bet; it has no wager this round.",
            "stopped_al_puje": "Hand {hand} ({name}) stopped on {n} al puje; every hand under 21 must draw until it "
            "has 21 or is over.",
        },
        # bet, low, high: amounts
        "BET_LIMITS": {
            "bank_limits": "Seat {seat}, stake {stake} ({name}): a bet of {bet} is outside the bank's limits "
            "{low}–{high}.",
        },
        # card, n: how many times; copies: the packs (and so the copies of a card)
        "CARD_COUNT": {
            "one_pack": "{card} comes out {n} times in one round; the pack holds only {copies}.",
            "packs": "{card} comes out {n} times in one round; {copies} packs hold only {copies}.",
            # a shoe item (item, where); n: cards dealt of the pack; size: the pack's cards
            "pack_not_run_out": "{card} comes out again before the pack has run out ({n} of its {size} cards dealt). "
            "The pack is dealt to the end before it is gathered and shuffled.",
        },
        # player: to whom the bank was passed; due: to whom it should go; why: a phrase (bank_stays |
        # natural_takes_bank)
        "BANK_SUCCESSION": {
            "wrong_player": "the bank was passed to {player}; it should go to {due} — {why}.",
        },
    },
    {
        "who.seat_hand": "hand {hand} ({name})",
        "who.hand": "Hand {hand} ({name}, stake {stake})",
        "to_bank": "the bank",
        "to_seat": "seat {seat}",
        "pass.first": "first pass, face down",
        "pass.second": "second pass, face up",
        "nth.first": "first",
        "nth.second": "second",
        "act.withdraw": "withdraw",
        "act.void": "void the hand",
        "act.hit": "take another card",
        "act.stand": "stand",
        "act.tapo": "take a tapo y quedo card",
        "act.split": "open (split)",
        "act.declare": "declare",
        "hand_state.stood": "has already stood",
        "hand_state.over": "is already over 21",
        "hand_state.tapo": "has taken its tapo y quedo card, which ends it",
        "hand_state.declared": "is a declared natural, already finished",
        "hand_state.withdrawn": "has withdrawn",
        "hand_state.split": "has been opened into two hands",
        "bank_stays": "no natural was declared, so the bank stays",
        "natural_takes_bank": "the first declared natural in playing order takes the bank",
        "pack_40": "the 40-card pack (A, 2–7, J, Q, K; no 8, 9 or 10)",
        # a hand's value
        "total": "{n}",
        "natural_hand": "a natural (A + picture)",
        "monona_hand": "a moñona (two aces)",
        "relancina_hand": "a relancina",
        "twelve_hand": "a two-card 12 (counts 20)",
        "suited_twelve_hand": "a suited two-card 12 (counts 21)",
        "trillona_hand": "a trillona (21 in seven cards)",
        # the bank's side of a verdict
        "bank_over_with": "the bank is over with {n}",
        "bank_has": "the bank has {value}",
        # verdicts (Owed.verdict): bank: a phrase; value, dealer_value: hands' values; special: trillona |
        # monona | suited_twelve; times: what it pays to one; at: the event that voided the hand
        "voided": "the hand was voided (event {at}): every bet is returned",
        "withdrew": "withdrew: the bet is returned",
        "declared_natural": "a declared natural wins 2:1 whatever the bank holds",
        "over_21": "over 21 ({n}): the bet goes to the bank at once",
        "special_loses": "{special} loses to the bank's natural",
        "special_wins": "{special} wins {times}:1; {bank}",
        "special.trillona": "trillona",
        "special.monona": "moñona",
        "special.suited_twelve": "suited twelve",
        "tapo_wins": "tapo y quedo on {value} and {bank}: paid 1:1",
        "tapo_over_returned": "tapo y quedo over 21 ({n}) but {bank}: the bet is returned",
        "tapo_over": "tapo y quedo over 21 ({n}); {bank}",
        "still_in": "{value} is still in and {bank}",
        "beats": "{value} beats {dealer_value}",
        "ties_bank": "{value} ties {dealer_value}: ties go to the bank",
        "loses_bank": "{value} loses; {bank}",
    },
    {NAME: WAGER_LABEL},
)

KIND_PHRASE: Final = {
    NATURAL: say("natural_hand"),
    MONONA: say("monona_hand"),
    RELANCINA: say("relancina_hand"),
    TWELVE: say("twelve_hand"),
    SUITED_TWELVE: say("suited_twelve_hand"),
}
SPECIAL: Final = {MONONA: "monona", SUITED_TWELVE: "suited_twelve"}
TRILLONA: Final = say("trillona_hand")


def value(hand) -> dict:
    """A hand's value as a phrase (what Hand.words() says)."""
    kind = hand.kind
    if kind is not None:
        return KIND_PHRASE[kind]
    if hand.trillona:
        return TRILLONA
    return total(hand.best)


def to(target) -> dict:
    """Whom a card was dealt to, as a phrase: the bank or a seat."""
    return say("to_bank") if target == "bank" else say("to_seat", seat=target)


def who(hand) -> dict:
    """A hand in a finding's params: who "seat_hand" with hand and name, or the bank."""
    if hand.stake is None:
        return {"who": "bank"}
    return {"who": "seat_hand", "hand": hand.name, "name": hand.stake.player}
