"""Ochko's findings and verdicts in words: each sentence once, filled from its params (sentences.py).

Params common to most: event (the "Event n: " head), box, stake (ids as in the log), card (a card as
logged or labelled), amounts as decimal strings. Each code's rules and their other keys:
"""

from typing import Final

from ..sentences import declare, say
from ..sentences import total as _total
from .rules import WAGER_LABEL

NAME: Final = "ochko"

declare(
    {
        # deal: the dealer's card and one card to each box with stakes, 1 → 6 (box, first: the box due)
        "DEAL_ORDER": {
            "late_dealer": "a card dealt to the dealer after the decisions began.",
            "late_box": "a card dealt to box {box} after the decisions began.",
            "dealer_twice": "the dealer dealt himself a second card.",
            "dealer_early": "the dealer's card was dealt before box {box}'s.",
            "empty_box": "box {box} has no stakes, so nothing is dealt to it.",
            "box_twice": "box {box} was dealt twice.",
            "after_dealer": "box {box} was dealt after the dealer's own card.",
            "out_of_turn": "box {box} was dealt before box {first}: the deal goes 1 → 6.",
            "never_dealt": "Box {box} was never dealt its card.",
            "dealer_never": "The dealer never dealt his own card.",
        },
        # box_state: stood | dark | ochko | mnogo | waiting (with total); box_action: hit | dark | stand;
        # bet: the Bet already placed; incident and resolution as below
        "ILLEGAL_ACTION": {
            "fold_after_open": "stake {stake} folded after the dealer opened his card.",
            "bet_after_open": "stake {stake} placed a Bet after the dealer opened his card.",
            "already_folded": "stake {stake} already folded.",
            "already_bet": "stake {stake} already placed its Bet of {bet}.",
            "open_twice": "the dealer opened his card a second time.",
            "never_opened": "The round ends before the dealer opened his card.",
            "undecided": "Stake {stake} (box {box}) neither folded nor placed a Bet; it counts as folded.",
            "box_drew_unopened": "box {box} drew before the dealer opened his card.",
            "dealer_drew_unopened": "the dealer drew before the dealer opened his card.",
            "not_in_play": "box {box} is not in play.",
            "box_finished": "box {box} {box_state}; it cannot {box_action}.",
            "no_dark_card": "box {box} has no dark card to reveal.",
            "dark_revealed": "box {box}'s dark card was already revealed.",
            "dark_early": "box {box}'s dark card was turned before the dealer finished drawing; nobody may see it "
            "until then.",
        },
        # bet, low, high: the Bet and the 1–10× range of its Ante
        "BET_RANGE": {
            "range": "Box {box}, stake {stake}: Bet {bet} is outside 1–10× its Ante ({low}–{high}).",
        },
        # boxes: how many the table has; n: stakes on the box; most: stakes a box may hold
        "BOX_PLAYERS": {
            "no_box": "Box {box} does not exist: the table has boxes 1 to {boxes}.",
            "crowded": "Box {box} has {n} stakes: at most {most} players share a box.",
        },
        # ante / total, low, high: amounts
        "ANTE_LIMITS": {
            "ante": "Box {box}, stake {stake}: Ante {ante} is outside the table limits {low}–{high}.",
            "box_total": "Box {box}: the Antes add up to {total}, over the table maximum {high}.",
        },
        # bet, low: amounts
        "DEALER_BET_MIN": {
            "under": "Box {box}, stake {stake}: dealer bet {bet} is under the minimum {low}.",
        },
        # first, first_box: the box whose turn it was
        "DRAW_ORDER": {
            "after_dealer": "box {box} drew after the dealer had started drawing.",
            "box_early": "box {box} drew before box {first} had finished; boxes draw 1 → 6.",
            "dealer_early": "the dealer drew before box {box} had finished drawing.",
        },
        # value: the dealer's hand (a phrase); total
        "DEALER_DRAW_RULE": {
            "nothing_open": "the dealer drew although every box was already settled; he should discard his card "
            "without drawing.",
            "drew_on": "the dealer drew on {value}; he must stop on 17 or more.",
            "drew_on_combination": "the dealer drew on {value}; he must stop on 17 or more and on a {value}.",
            "stopped": "The dealer stopped on {total}; he must draw on 16 or less.",
        },
        # incident: dealer_card_exposed | misdrawn_card; card: as logged; by: who approved
        "INCIDENT_UNAPPROVED": {
            "unapproved": "{incident} ({card}) has no pit boss's approval on record.",
            "own_report": "{incident} was approved by {by}, who reported it; another person must approve.",
            "own_dealer": "{incident} was approved by the round's own dealer {by}; a dealer never resolves his own "
            "incident.",
            "not_pit_boss": "{incident} names {by} as its approver, who is not a pit boss of this table's pit; a name "
            "alone is no approval.",
        },
        # resolution: burned | under_shoe | to_box (with to: the box)
        "INCIDENT_RESOLUTION": {
            "exposed_dealer_card": "the dealer's exposed card must be burned in the pit boss's presence and replaced, "
            "not {resolution}.",
            "unseen_card": "a misdrawn card that nobody saw goes under the shoe, not {resolution}.",
            "exposed_card": "an exposed misdrawn card stays on the table; the pit boss places it on a box or has it "
            "burned.",
            "box_not_drawing": "the pit boss placed the card on box {box}, which is not drawing.",
        },
        # card: its label; n: how many times; most: copies in the shoe
        "CARD_COUNT": {
            "round": "{card} appears {n} times; the shoe holds only {most}.",
        },
        # who, wager, game (sentences.py); at: the instant result's event; action: the next drawing action
        "LATE_SETTLEMENT": {
            "ochko": "{who}'s {wager} (ochko at event {at}) was settled only after the next drawing action "
            "(event {action}).",
            "mnogo": "{who}'s {wager} (mnogo at event {at}) was settled only after the next drawing action "
            "(event {action}).",
        },
        # who (sentences.py); box, after: the box settled before it. A payment in one sum (onesum.py):
        # boxes: its boxes in the order paid ("3, 1"); last: the last of them; wager, game, owed: the
        # wager that stays and its size
        "PAYMENT_ORDER": {
            "dealer_bet_first": "{who}'s dealer bet was settled before the box's Bet and Ante.",
            "before_dealer": "{who} was settled before the dealer finished drawing.",
            "box_order": "box {box} was settled after box {after}; settlement goes from box 6 down to box 1.",
            "sum_dealer_bet": "box {box}'s dealer bet was paid inside the one sum for boxes {boxes}, before box "
            "{last}; several boxes are paid with one sum only when the dealer bet stands on the last of them, so "
            "the order of payment is kept (rules/ochko.md, step 11).",
            "sum_stay": "{who}: the {wager} stays ({owed} returned, not paid), yet it was folded into the one sum "
            "for boxes {boxes}; a stay is not used when several boxes are paid together: that box is settled on "
            "its own (seed 004).",
        },
        # A payment in one sum (onesum.py): boxes, paid, owed (the sum and what its wagers were owed);
        # WRONG_RESULT sum: who, wager, game, owed_as, owed, why (a covered wager owed no payment)
        "WRONG_AMOUNT": {
            "sum": "the one sum for boxes {boxes} was {paid}; their wagers were owed {owed} (rules/ochko.md, step 11).",
        },
        "WRONG_RESULT": {
            "sum": "{who}: {wager} was paid in the one sum for boxes {boxes}; it should have been {owed_as}{because}.",
        },
        # item (the shoe item's head); fee, paid: amounts
        "BURN_FEE": {
            "no_fee": "a paid burn with no fee; the fee is half the table minimum, {fee}.",
            "wrong_fee": "a paid burn with a fee of {paid}; the fee is half the table minimum, {fee}.",
        },
        # item; at: the item loaded / changed; n: burns; want: burns due
        "BURN_COUNT": {
            "load": "after the shoe was loaded (item {at}) {n} card(s) were burned before the next round; the "
            "procedure burns {want}.",
            "dealer_change": "after the dealer changed (item {at}) {n} card(s) were burned before the next round; the "
            "procedure burns {want}.",
        },
    },
    {
        "box_state.stood": "already stood on {total}",
        "box_state.dark": "has taken its dark card, which ends its drawing",
        "box_state.ochko": "already has ochko",
        "box_state.mnogo": "already has mnogo ({total})",
        "box_state.waiting": "is not drawing",
        "box_action.hit": "take another card",
        "box_action.dark": "take a dark card",
        "box_action.stand": "stand again",
        "incident.dealer_card_exposed": "the dealer's exposed card",
        "incident.misdrawn_card": "the misdrawn card",
        "resolution.burned": "burned",
        "resolution.under_shoe": "put under the shoe",
        "resolution.to_box": "placed on box {to}",
        "pack_36": "the 36-card pack (6 to Ace)",
        # a hand's value
        "total": "{n}",
        "pair_of_aces": "pair of aces",
        "five_pictures": "five pictures",
        # the dealer's side of a verdict
        "dealer_busts": "the dealer busts with {n}",
        "dealer_has": "the dealer has {value}",
        # verdicts (Owed.verdict): value, dealer: phrases; n: a total
        "fold_ante": "the stake folded: the Ante goes to the float",
        "folded": "the stake folded",
        "instant_ochko": "ochko ({value}) while drawing: Bet and Ante are paid 1:1 at once",
        "instant_mnogo": "mnogo ({n}): Bet and Ante go to the float at once",
        "box_won": "the box won: paid 1:1",
        "box_lost": "the box lost",
        "tie_stays": "tie: the dealer bet stays",
        "ace_stays": "the dealer's first card is an Ace: the dealer bet stays",
        "dark_double_bust": "dark card busts ({n}) and {dealer}: only the Ante is paid",
        "dark_wins": "dark-card box wins ({value}; {dealer}): only the Ante is paid",
        "box_wins": "box {value} wins; {dealer}",
        "tie_loses": "tie: {value} against {dealer_value} — ties lose",
        "dark_busts": "dark card busts ({n}); {dealer}",
        "box_loses": "box {value} loses; {dealer}",
    },
    {NAME: WAGER_LABEL},
)

_COMBINATIONS: Final = {"pair of aces": say("pair_of_aces"), "five pictures": say("five_pictures")}


def value(combination: str | None, total: int) -> dict:
    """A hand's value as a phrase: its combination (pair of aces, five pictures) or its total."""
    if combination is not None:
        return _COMBINATIONS[combination]
    return _total(total)
