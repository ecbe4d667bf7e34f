"""The sentences the rules engine writes, as this project knows their shapes: per finding code,
each sentence as a regular expression with the msgid it is rendered through, and the phrases,
wagers and hand values inside them (casino/finding_text.py renders a finding with them). A new
wording in the engine adds its shape here and translates its msgid
(tests/casino/test_languages.py finds any sentence of a shape not listed).
"""

import re

from django.utils.translation import gettext_lazy as _, pgettext_lazy

# The wagers as the engine names them in its sentences (WAGER_LABEL of each variant module).
# A noun, in context: the same English word is a verb or a badge on other pages ("double").
WAGER_WORDS = {
    "Ante": pgettext_lazy("wager", "Ante"), "Bet": pgettext_lazy("wager", "Bet"), "bet": pgettext_lazy("wager", "bet"),
    "dealer bet": pgettext_lazy("wager", "dealer bet"), "double": pgettext_lazy("wager", "double"),
    "insurance": pgettext_lazy("wager", "insurance"), "jackpot bet": pgettext_lazy("wager", "jackpot bet"),
}
_WAGER = "|".join(sorted((re.escape(w) for w in WAGER_WORDS), key=len, reverse=True))
_AMOUNT = r"-?[\d.,]+"

# A hand's value as the engine words it: a number, or a named hand.
VALUE_WORDS = {
    "blackjack": _("blackjack"), "pair of aces": _("pair of aces"), "five pictures": _("five pictures"),
    "a natural (A + picture)": _("a natural (A + picture)"), "a moñona (two aces)": _("a moñona (two aces)"),
    "a relancina": _("a relancina"), "a two-card 12 (counts 20)": _("a two-card 12 (counts 20)"),
    "a suited two-card 12 (counts 21)": _("a suited two-card 12 (counts 21)"),
    "a trillona (21 in seven cards)": _("a trillona (21 in seven cards)"), "trillona": _("trillona"),
    "moñona": _("moñona"), "natural": _("natural"), "suited twelve": _("a suited two-card 12 (counts 21)"),
}

# Phrases: (the engine's English as a regular expression, its msgid). A named group is rendered
# by its first letter: p = another phrase, v = a hand's value, w = a wager, anything else as it is
# (numbers, amounts, names, cards).
PHRASES = [
    # who
    (r"Box (?P<box>\d+), stake (?P<stake>[^,\s]+), hand (?P<hand>\S+)", _("box %(box)s, stake %(stake)s, hand %(hand)s")),
    (r"Box (?P<box>\d+), stake (?P<stake>\S+)", _("box %(box)s, stake %(stake)s")),
    (r"Stake (?P<stake>\S+)", _("stake %(stake)s")),
    (r"Hand (?P<hand>\S+) \((?P<name>.+), stake (?P<stake>\S+)\)", _("hand %(hand)s (%(name)s, stake %(stake)s)")),
    (r"[Tt]he bank", _("the bank")),
    (r"[Tt]he dealer", _("the dealer")),
    (r"seat (?P<n>\d+)", _("seat %(n)s")),
    # a hand's move, as "hand 2 … before the dealer peeked" names it
    (r"take a card", _("takes a card")), (r"stand", _("stands")), (r"double", _("doubles")), (r"split", _("splits")),
    (r"box (?P<box>\d+)", _("box %(box)s")),
    # the dealer's and the bank's side of a verdict
    (r"the dealer busts with (?P<n>\d+)", _("the dealer busts with %(n)s")),
    (r"the dealer has no blackjack", _("the dealer has no blackjack")),
    (r"the dealer has (?P<v>.+)", _("the dealer has %(v)s")),
    (r"the bank is over with (?P<n>\d+)", _("the bank is over 21 with %(n)s")),
    (r"the bank has (?P<v>.+)", _("the bank has %(v)s")),
    # ochko verdicts
    (r"the stake folded: the Ante goes to the float", _("the stake folded: the Ante goes to the float")),
    (r"the stake folded", _("the stake folded")),
    (r"ochko \((?P<v>.+)\) while drawing: Bet and Ante are paid 1:1 at once",
     _("ochko (%(v)s) while drawing: Bet and Ante are paid 1:1 at once")),
    (r"mnogo \((?P<n>\d+)\): Bet and Ante go to the float at once", _("mnogo (%(n)s): Bet and Ante go to the float at once")),
    (r"the box won: paid 1:1", _("the box won: paid 1:1")),
    (r"the box lost", _("the box lost")),
    (r"tie: the dealer bet stays", _("tie: the dealer bet stays")),
    (r"the dealer's first card is an Ace: the dealer bet stays", _("the dealer's first card is an Ace: the dealer bet stays")),
    (r"dark card busts \((?P<n>\d+)\) and (?P<p>.+): only the Ante is paid",
     _("the dark card busts (%(n)s) and %(p)s: only the Ante is paid")),
    (r"dark-card box wins \((?P<v>[^;]+); (?P<p>.+)\): only the Ante is paid",
     _("the dark-card box wins (%(v)s; %(p)s): only the Ante is paid")),
    (r"box (?P<v>.+?) wins; (?P<p>.+)", _("the box wins with %(v)s; %(p)s")),
    (r"tie: (?P<v>.+?) against (?P<v2>.+) — ties lose", _("tie: %(v)s against %(v2)s — ties lose")),
    (r"dark card busts \((?P<n>\d+)\); (?P<p>.+)", _("the dark card busts (%(n)s); %(p)s")),
    (r"box (?P<v>.+?) loses; (?P<p>.+)", _("the box loses with %(v)s; %(p)s")),
    # blackjack verdicts
    (r"the dealer has blackjack: insurance pays 2:1", _("the dealer has blackjack: insurance pays 2:1")),
    (r"A♠ J♠: the jackpot is won", _("A♠ J♠: the jackpot is won")),
    (r"the first two cards are not A♠ J♠", _("the first two cards are not A♠ J♠")),
    (r"blackjack against the dealer's blackjack: a push", _("blackjack against the dealer's blackjack: a push")),
    (r"(?P<p>.+): the round ends, only the initial bet is lost", _("%(p)s: the round ends, only the initial bet is lost")),
    (r"(?P<p>.+): only the initial bet is lost", _("%(p)s: only the initial bet is lost")),
    (r"hand (?P<hand>\S+) is bust \((?P<n>\d+)\)", _("hand %(hand)s is bust (%(n)s)")),
    (r"blackjack pays 3:2", _("blackjack pays 3:2")),
    (r"(?P<v>.+?) against (?P<v2>.+): a push", _("%(v)s against %(v2)s: a push")),
    (r"(?P<v>.+?) loses to (?P<v2>.+)", _("%(v)s loses to %(v2)s")),
    (r"a blackjack is offered even money, not insurance", _("a blackjack is offered even money, not insurance")),
    (r"its hand is (?P<v>.+), not a blackjack", _("its hand is %(v)s, not a blackjack")),
    (r"even money: the blackjack's bet is paid 1:1 at once", _("even money: the blackjack's bet is paid 1:1 at once")),
    # veintiuno verdicts
    (r"the hand was voided \(event (?P<e>\d+)\): every bet is returned", _("the hand was voided (event %(e)s): every bet is returned")),
    (r"withdrew: the bet is returned", _("withdrew: the bet is returned")),
    (r"a declared natural wins 2:1 whatever the bank holds", _("a declared natural wins 2:1 whatever the bank holds")),
    (r"over 21 \((?P<n>\d+)\): the bet goes to the bank at once", _("over 21 (%(n)s): the bet goes to the bank at once")),
    (r"(?P<v>.+?) loses to the bank's natural", _("%(v)s loses to the bank's natural")),
    (r"(?P<v>.+?) wins (?P<m>\d+):1; (?P<p>.+)", _("%(v)s wins %(m)s:1; %(p)s")),
    (r"tapo y quedo on (?P<v>.+?) and (?P<p>.+): paid 1:1", _("tapo y quedo on %(v)s and %(p)s: paid 1:1")),
    (r"tapo y quedo over 21 \((?P<n>\d+)\) but (?P<p>.+): the bet is returned",
     _("tapo y quedo over 21 (%(n)s) but %(p)s: the bet is returned")),
    (r"tapo y quedo over 21 \((?P<n>\d+)\); (?P<p>.+)", _("tapo y quedo over 21 (%(n)s); %(p)s")),
    (r"(?P<v>.+?) is still in and (?P<p>.+)", _("%(v)s is still in and %(p)s")),
    (r"(?P<v>.+?) ties (?P<v2>.+): ties go to the bank", _("%(v)s ties %(v2)s: ties go to the bank")),
    (r"(?P<v>.+?) loses; (?P<p>.+)", _("%(v)s loses; %(p)s")),
    (r"(?P<v>.+?) beats (?P<v2>.+)", _("%(v)s beats %(v2)s")),
    (r"no natural was declared, so the bank stays", _("no natural was declared, so the bank stays")),
    (r"the first declared natural in playing order takes the bank",
     _("the first declared natural in playing order takes the bank")),
]

# The settlement findings (dealing/engine/base.py's compare_settlements): "<who>: <wager> <rest>".
_PAID = r"paid (?P<a>" + _AMOUNT + ")"
_OWED = (r"(?:paid (?P<oa>" + _AMOUNT + r")|taken \((?P<ot>" + _AMOUNT + r")\)|left \((?P<ol>" + _AMOUNT
         + r") returned, not paid\))")
_WHY = r"(?: — (?P<p>.+))?"

# Per code: (the sentence after an "Event n: " or "Shoe item n: " head, its msgid).
FINDINGS = {
    "WRONG_AMOUNT": [
        (r"(?P<pwho>.+?): (?P<w>" + _WAGER + r") paid (?P<a>" + _AMOUNT + r"), owed (?P<o>" + _AMOUNT + r")" + _WHY + r"\.",
         _("%(pwho)s: %(w)s paid %(a)s, owed %(o)s%(p)s.")),
        (r"(?P<pwho>.+?): (?P<w>" + _WAGER + r") taken (?P<a>" + _AMOUNT + r"), owed (?P<o>" + _AMOUNT + r")" + _WHY + r"\.",
         _("%(pwho)s: %(w)s taken as %(a)s, owed %(o)s%(p)s.")),
        (r"(?P<pwho>.+?): (?P<w>" + _WAGER + r") left (?P<a>" + _AMOUNT + r"), owed (?P<o>" + _AMOUNT + r")" + _WHY + r"\.",
         _("%(pwho)s: %(w)s left as %(a)s, owed %(o)s%(p)s.")),
    ],
    "WRONG_RESULT": [
        (r"(?P<pwho>.+?): (?P<w>" + _WAGER + r") (?P<did>" + _PAID + r"|taken|left); it should have been " + _OWED + _WHY
         + r"\.", None),
    ],
    "MISSING_SETTLEMENT": [
        (r"(?P<pwho>.+?): (?P<w>" + _WAGER + r") was never settled; it should have been " + _OWED + _WHY + r"\.", None),
    ],
    "UNEXPECTED_SETTLEMENT": [
        (r"(?P<pwho>.+?): (?P<w>" + _WAGER + r") paid, but this stake has no such wager\.",
         _("%(pwho)s: %(w)s paid, but this stake has no such wager.")),
        (r"(?P<pwho>.+?): (?P<w>" + _WAGER + r") taken, but this stake has no such wager\.",
         _("%(pwho)s: %(w)s taken, but this stake has no such wager.")),
        (r"(?P<pwho>.+?): (?P<w>" + _WAGER + r") left, but this stake has no such wager\.",
         _("%(pwho)s: %(w)s left, but this stake has no such wager.")),
        (r"(?P<pwho>.+?): (?P<w>" + _WAGER + r") (?:paid|taken|left) a second time \(first at event (?P<e>\d+)\)\.",
         _("%(pwho)s: %(w)s settled a second time (first at event %(e)s).")),
    ],
    "LATE_SETTLEMENT": [
        (r"(?P<pwho>.+?)'s (?P<w>" + _WAGER + r") \(ochko at event (?P<e>\d+)\) was settled only after the next drawing "
         r"action \(event (?P<a>\d+)\)\.",
         _("%(pwho)s: the %(w)s (ochko at event %(e)s) was settled only after the next drawing action (event %(a)s).")),
        (r"(?P<pwho>.+?)'s (?P<w>" + _WAGER + r") \(mnogo at event (?P<e>\d+)\) was settled only after the next drawing "
         r"action \(event (?P<a>\d+)\)\.",
         _("%(pwho)s: the %(w)s (mnogo at event %(e)s) was settled only after the next drawing action (event %(a)s).")),
    ],
    "PAYMENT_ORDER": [
        (r"box (?P<b>\d+) was settled after box (?P<a>\d+); settlement goes from box 6 down to box 1\.",
         _("box %(b)s was settled after box %(a)s; settlement goes from box 6 down to box 1.")),
        (r"(?P<pwho>.+?)'s dealer bet was settled before the box's Bet and Ante\.",
         _("%(pwho)s: the dealer bet was settled before the box's Bet and Ante.")),
        (r"(?P<pwho>.+?) was settled before the dealer finished drawing\.",
         _("%(pwho)s was settled before the dealer finished drawing.")),
    ],
    "BET_RANGE": [
        (r"Box (?P<box>\d+), stake (?P<stake>\S+): Bet (?P<a>" + _AMOUNT + r") is outside 1–10× its Ante \((?P<lo>"
         + _AMOUNT + r")–(?P<hi>" + _AMOUNT + r")\)\.",
         _("Box %(box)s, stake %(stake)s: Bet %(a)s is outside 1–10× its Ante (%(lo)s–%(hi)s).")),
    ],
    "ANTE_LIMITS": [
        (r"Box (?P<box>\d+), stake (?P<stake>\S+): Ante (?P<a>" + _AMOUNT + r") is outside the table limits (?P<lo>"
         + _AMOUNT + r")–(?P<hi>" + _AMOUNT + r")\.",
         _("Box %(box)s, stake %(stake)s: Ante %(a)s is outside the table limits %(lo)s–%(hi)s.")),
        (r"Box (?P<box>\d+): the Antes add up to (?P<a>" + _AMOUNT + r"), over the table maximum (?P<hi>" + _AMOUNT + r")\.",
         _("Box %(box)s: the Antes add up to %(a)s, over the table maximum %(hi)s.")),
    ],
    "BET_LIMITS": [
        (r"Seat (?P<seat>\d+), stake (?P<stake>\S+) \((?P<name>[^)]+)\): a bet of (?P<a>" + _AMOUNT + r") is outside the "
         r"bank's limits (?P<lo>" + _AMOUNT + r")–(?P<hi>" + _AMOUNT + r")\.",
         _("Seat %(seat)s, stake %(stake)s (%(name)s): a bet of %(a)s is outside the bank's limits %(lo)s–%(hi)s.")),
        (r"Box (?P<box>\d+), stake (?P<stake>\S+): bet (?P<a>" + _AMOUNT + r") is outside the table limits (?P<lo>"
         + _AMOUNT + r")–(?P<hi>" + _AMOUNT + r")\.",
         _("Box %(box)s, stake %(stake)s: bet %(a)s is outside the table limits %(lo)s–%(hi)s.")),
        (r"Box (?P<box>\d+), stake (?P<stake>\S+): the jackpot bet is (?P<a>" + _AMOUNT + r"); it is (?P<o>" + _AMOUNT
         + r")\.", _("Box %(box)s, stake %(stake)s: the jackpot bet is %(a)s; it is %(o)s.")),
    ],
    "DEALER_BET_MIN": [
        (r"Box (?P<box>\d+), stake (?P<stake>\S+): dealer bet (?P<a>" + _AMOUNT + r") is under the minimum (?P<lo>"
         + _AMOUNT + r")\.", _("Box %(box)s, stake %(stake)s: dealer bet %(a)s is under the minimum %(lo)s.")),
    ],
    "BOX_PLAYERS": [
        (r"Box (?P<box>\d+) does not exist: the table has boxes 1 to (?P<n>\d+)\.",
         _("Box %(box)s does not exist: the table has boxes 1 to %(n)s.")),
        (r"Box (?P<box>\d+) has (?P<n>\d+) stakes: at most (?P<m>\d+) players share a box\.",
         _("Box %(box)s has %(n)s stakes: at most %(m)s players share a box.")),
    ],
    "INSURANCE_AMOUNT": [
        (r"box (?P<box>\d+) insured (?P<a>" + _AMOUNT + r"), over half its bet of (?P<b>" + _AMOUNT + r")\.",
         _("box %(box)s insured %(a)s, over half its bet of %(b)s.")),
    ],
    "CARD_INVALID": [
        (r"(?P<card>'[^']*'|\"[^\"]*\") is not a card of the (?P<n>\d+)-card pack(?: \(.*\))?\.",
         _("%(card)s is not a card of the %(n)s-card pack.")),
    ],
    "CARD_COUNT": [
        (r"(?P<card>\S+) comes out (?P<n>\d+) times in one round; the pack holds only (?P<d>\d+)\.",
         _("%(card)s comes out %(n)s times in one round; the pack holds only %(d)s.")),
        (r"(?P<card>\S+) appears (?P<n>\d+) times; (?:the shoe|a shoe of \d+ pack\(s\)) holds only (?P<d>\d+)\.",
         _("%(card)s appears %(n)s times; the shoe holds only %(d)s.")),
        (r"(?P<card>\S+) has come out (?P<n>\d+) times; .* holds only (?P<d>\d+)\.",
         _("%(card)s appears %(n)s times; the shoe holds only %(d)s.")),
        (r"(?P<card>\S+) comes out again before the pack has run out \((?P<n>\d+) of its (?P<d>\d+) cards dealt\)\. .*",
         _("%(card)s comes out again before the pack has run out (%(n)s of its %(d)s cards dealt).")),
    ],
    "DEALER_DRAW_RULE": [
        (r"The dealer stood on (?P<n>\d+); he draws to 17\.", _("The dealer stood on %(n)s; he draws to 17.")),
        (r"the dealer drew on (?P<v>.+?); he stands on all 17s\.", _("the dealer drew on %(v)s; he stands on all 17s.")),
        (r"the dealer drew on (?P<v>.+?); he must stop on 17 or more(?: and on a (?P<v2>.+))?\.",
         _("the dealer drew on %(v)s; he must stop on 17 or more.")),
        (r"The dealer stopped on (?P<n>\d+); he must draw on 16 or less\.",
         _("The dealer stopped on %(n)s; he must draw on 16 or less.")),
        (r"the dealer drew although every box was already settled; he should discard his card without drawing\.",
         _("the dealer drew although every box was already settled; he should discard his card without drawing.")),
    ],
    "DEAL_ORDER": [
        (r"a card dealt to (?P<pa>seat \d+|the bank) when the next card was due to (?P<pb>seat \d+|the bank) \([^)]*\); "
         r"each pass goes from seat 1 onwards, then the bank\.",
         _("a card dealt to %(pa)s when the next card was due to %(pb)s; each pass goes from seat 1 onwards, then the bank.")),
        (r"(?P<pa>box \d+|the dealer) was dealt out of turn; the deal goes box 1 → (?P<n>\d+), the dealer's up card, the "
         r"second cards, the hole card\.",
         _("%(pa)s was dealt out of turn; the deal goes box 1 → %(n)s, the dealer's up card, the second cards, the hole card.")),
        (r"Box (?P<box>\d+) was never dealt its card\.", _("Box %(box)s was never dealt its card.")),
        (r"The dealer never dealt his own card\.", _("The dealer never dealt his own card.")),
        (r"box (?P<box>\d+) was dealt twice\.", _("box %(box)s was dealt twice.")),
        (r"box (?P<box>\d+) was dealt after the dealer's own card\.", _("box %(box)s was dealt after the dealer's own card.")),
        (r"box (?P<box>\d+) was dealt before box (?P<b>\d+): the deal goes 1 → 6\.",
         _("box %(box)s was dealt before box %(b)s: the deal goes 1 → 6.")),
        (r"the dealer dealt himself a second card\.", _("the dealer dealt himself a second card.")),
        (r"the dealer's card was dealt before box (?P<box>\d+)'s\.", _("the dealer's card was dealt before box %(box)s's.")),
    ],
    "DRAW_ORDER": [
        (r"hand (?P<hand>\S+) played after the dealer started drawing\.",
         _("hand %(hand)s played after the dealer started drawing.")),
        (r"the bank drew while hand (?P<hand>\S+) \((?P<name>[^)]+)\) was still playing; the bank plays last\.",
         _("the bank drew while hand %(hand)s (%(name)s) was still playing; the bank plays last.")),
        (r"hand (?P<hand>\S+) \((?P<name>[^)]+)\) played after the bank began drawing\.",
         _("hand %(hand)s (%(name)s) played after the bank began drawing.")),
        (r"box (?P<box>\d+) drew after the dealer had started drawing\.", _("box %(box)s drew after the dealer had started drawing.")),
        (r"box (?P<box>\d+) drew before box (?P<b>\d+) had finished; boxes draw 1 → 6\.",
         _("box %(box)s drew before box %(b)s had finished; boxes draw 1 → 6.")),
        (r"the dealer drew before box (?P<box>\d+) had finished drawing\.",
         _("the dealer drew before box %(box)s had finished drawing.")),
        (r"the dealer drew before hand (?P<hand>\S+) was finished\.", _("the dealer drew before hand %(hand)s was finished.")),
    ],
    "ILLEGAL_ACTION": [
        (r"hand (?P<hand>\S+) \((?P<name>[^)]+)\) stood on (?P<n>\d+) al puje; every hand under 21 must draw until it "
         r"has 21 or is over\.",
         _("hand %(hand)s (%(name)s) stood on %(n)s al puje; every hand under 21 must draw until it has 21 or is over.")),
        (r"hand (?P<hand>\S+) \((?P<name>[^)]+)\) opened a relancina \((?P<cards>[^)]+)\); a relancina cannot be opened\.",
         _("hand %(hand)s (%(name)s) opened a relancina (%(cards)s); a relancina cannot be opened.")),
        (r"hand (?P<hand>\S+) (?P<pact>take a card|stand|double|split) before the dealer peeked at his hole card "
         r"\((?P<card>\S+) up\)\.",
         _("hand %(hand)s %(pact)s before the dealer peeked at his hole card (%(card)s up).")),
        (r"hand (?P<hand>\S+) split, but it holds (?P<cards>.+?), which are not of equal value\.",
         _("hand %(hand)s split, but it holds %(cards)s, which are not of equal value.")),
        (r"hand (?P<hand>\S+) \((?P<name>[^)]+)\) withdrew holding (?P<cards>\S+ \S+) \((?P<v>.+)\); only a two-card 13 "
         r"may withdraw\. The bet was returned as played\.",
         _("hand %(hand)s (%(name)s) withdrew holding %(cards)s (%(v)s); only a two-card 13 may withdraw. The bet was "
           "returned as played.")),
        (r"hand (?P<hand>\S+) holds (?P<n>\d+) card\(s\); a hand doubles on its first two cards only\.",
         _("hand %(hand)s holds %(n)s cards; a hand doubles on its first two cards only.")),
        (r"The dealer never peeked at his hole card \((?P<card>\S+) up\)\.",
         _("The dealer never peeked at his hole card (%(card)s up).")),
        (r"hand (?P<hand>\S+) \((?P<name>[^)]+)\) has taken its tapo y quedo card, which ends it; it cannot stand\.",
         _("hand %(hand)s (%(name)s) has taken its tapo y quedo card, which ends it; it cannot stand.")),
        (r"box (?P<box>\d+) already stood on (?P<v>.+); it cannot stand again\.",
         _("box %(box)s already stood on %(v)s; it cannot stand again.")),
        (r"hand (?P<hand>\S+) stood on (?P<v>.+); it cannot stand again\.",
         _("hand %(hand)s stood on %(v)s; it cannot stand again.")),
        (r"the dealer opened his card a second time\.", _("the dealer opened his card a second time.")),
        (r"box (?P<box>\d+) is not in play\.", _("box %(box)s is not in play.")),
        (r"box (?P<box>\d+) has no dark card to reveal\.", _("box %(box)s has no dark card to reveal.")),
        (r"box (?P<box>\d+)'s dark card was already revealed\.", _("box %(box)s's dark card was already revealed.")),
        (r"box (?P<box>\d+)'s dark card was turned before the dealer finished drawing; nobody may see it until then\.",
         _("box %(box)s's dark card was turned before the dealer finished drawing; nobody may see it until then.")),
        (r"The round ends before the dealer opened his card\.", _("The round ends before the dealer opened his card.")),
        (r"stake (?P<stake>\S+) already folded\.", _("stake %(stake)s already folded.")),
        (r"the dealer peeked a second time\.", _("the dealer peeked a second time.")),
        (r"the dealer peeked only after play began\.", _("the dealer peeked only after play began.")),
        (r"hand (?P<hand>\S+) is a split ace, which gets one card only; it cannot take another card\.",
         _("hand %(hand)s is a split ace, which gets one card only; it cannot take another card.")),
        (r"hand (?P<hand>\S+) split, but it would make (?P<n>\d+) hands on box (?P<box>\d+); the most is (?P<m>\d+)\.",
         _("hand %(hand)s split, but it would make %(n)s hands on box %(box)s; the most is %(m)s.")),
        (r"hand (?P<hand>\S+) \((?P<name>[^)]+)\) opened with (?P<a>" + _AMOUNT + r") on the new hand; opening takes "
         r"twice the bet, (?P<b>" + _AMOUNT + r")\. Settled as placed\.",
         _("hand %(hand)s (%(name)s) opened with %(a)s on the new hand; opening takes twice the bet, %(b)s. "
           "Settled as placed.")),
    ],
    "INCIDENT_UNAPPROVED": [
        (r"the dealer's exposed card \((?P<card>[^)]+)\) has no pit boss's approval on record\.",
         _("the dealer's exposed card (%(card)s) has no pit boss's approval on record.")),
    ],
    "RESHUFFLE_POINT": [
        (r"a new shoe with (?P<n>\d+) cards still left; the shoe is played down to the cut \((?P<c>\d+) cards\)\.",
         _("a new shoe with %(n)s cards still left; the shoe is played down to the cut (%(c)s cards).")),
        (r"a round dealt without shuffling first \((?P<n>\d+) card\(s\) already out\); this table shuffles before every "
         r"round\.", _("a round dealt without shuffling first (%(n)s card(s) already out); this table shuffles before "
                        "every round.")),
        (r"a round dealt with (?P<n>\d+) cards left; a new shoe is due below (?P<c>\d+)\.",
         _("a round dealt with %(n)s cards left; a new shoe is due below %(c)s.")),
    ],
    "BURN_FEE": [
        (r"a paid burn with no fee; the fee is half the table minimum, (?P<fee>" + _AMOUNT + r")\.",
         _("a paid burn with no fee; the fee is half the table minimum, %(fee)s.")),
        (r"a paid burn with a fee of (?P<a>" + _AMOUNT + r"); the fee is half the table minimum, (?P<fee>" + _AMOUNT
         + r")\.", _("a paid burn with a fee of %(a)s; the fee is half the table minimum, %(fee)s.")),
    ],
    "BURN_COUNT": [
        (r"after the shoe was loaded \(item (?P<at>\d+)\) (?P<n>\d+) card\(s\) were burned before the next round; the "
         r"procedure burns (?P<want>\d+)\.",
         _("after the shoe was loaded (item %(at)s) %(n)s card(s) were burned before the next round; the procedure "
           "burns %(want)s.")),
        (r"after the dealer changed \(item (?P<at>\d+)\) (?P<n>\d+) card\(s\) were burned before the next round; the "
         r"procedure burns (?P<want>\d+)\.",
         _("after the dealer changed (item %(at)s) %(n)s card(s) were burned before the next round; the procedure "
           "burns %(want)s.")),
    ],
    "BANK_SUCCESSION": [
        (r"the bank was passed to (?P<a>.+?); it should go to (?P<b>.+?) — (?P<p>.+)\.",
         _("the bank was passed to %(a)s; it should go to %(b)s — %(p)s.")),
    ],
}
