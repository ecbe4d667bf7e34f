"""What the findings' sentences are made of: for each of the engine's sentences (per code and rule)
and phrases, its msgid with named placeholders and where each placeholder's value comes from. The
catalogue translates the msgids; casino/finding_words.py fills them from a finding's params.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

# The catalogue's entry (a msgid and its placeholders' params); Unsaid re-exported for finding_words.py.
from .finding_entry import E, Unsaid  # noqa: F401

# --- the phrases ---------------------------------------------------------------------------------
PHRASES = {
    # who a settlement finding is about (params who + box, stake, hand, name)
    "who.box": E(_("box %(box)s, stake %(stake)s")),
    "who.box_hand": E(_("box %(box)s, stake %(stake)s, hand %(hand)s")),
    "who.stake": E(_("stake %(stake)s")),
    "who.hand": E(_("hand %(hand)s (%(name)s, stake %(stake)s)")),
    "who.seat_hand": E(_("hand %(hand)s (%(name)s)")),
    "who.bank": E(_("the bank")),
    "did.paid": E(_("paid %(a)s"), a="paid"),
    "did.taken": E(_("taken")),
    "did.left": E(_("left")),
    "owed_as.paid": E(_("paid %(a)s"), a="owed"),
    "owed_as.taken": E(_("taken (%(a)s)"), a="owed"),
    "owed_as.left": E(_("left (%(a)s returned, not paid)"), a="owed"),
    "round": E(_("round %(round)s")),
    "item": E(_("item %(item)s")),
    "pack": E(_("the pack")),
    "pack_36": E(_("the 36-card pack (6 to Ace)")),
    "pack_52": E(_("the 52-card pack")),
    "pack_40": E(_("the 40-card pack (A, 2–7, J, Q, K; no 8, 9 or 10)")),
    # a hand's value
    "total": E("%(n)s"),
    "soft": E(_("soft %(n)s")),
    "blackjack": E(_("blackjack")),
    "pair_of_aces": E(_("pair of aces")),
    "five_pictures": E(_("five pictures")),
    "natural_hand": E(_("a natural (A + picture)")),
    "monona_hand": E(_("a moñona (two aces)")),
    "relancina_hand": E(_("a relancina")),
    "twelve_hand": E(_("a two-card 12 (counts 20)")),
    "suited_twelve_hand": E(_("a suited two-card 12 (counts 21)")),
    "trillona_hand": E(_("a trillona (21 in seven cards)")),
    "special.trillona": E(_("trillona")),
    "special.monona": E(_("moñona")),
    "special.suited_twelve": E(_("a suited two-card 12 (counts 21)")),
    # the dealer's and the bank's side of a verdict
    "dealer_busts": E(_("the dealer busts with %(n)s")),
    "dealer_has": E(_("the dealer has %(v)s"), v="value"),
    "bank_over_with": E(_("the bank is over 21 with %(n)s")),
    "bank_has": E(_("the bank has %(v)s"), v="value"),
    # ochko
    "box_state.stood": E(_("already stood on %(total)s")),
    "box_state.dark": E(_("has taken its dark card, which ends its drawing")),
    "box_state.ochko": E(_("already has ochko")),
    "box_state.mnogo": E(_("already has mnogo (%(total)s)")),
    "box_state.waiting": E(_("is not drawing")),
    "box_action.hit": E(_("take another card")),
    "box_action.dark": E(_("take a dark card")),
    "box_action.stand": E(_("stand again")),
    "incident.dealer_card_exposed": E(_("the dealer's exposed card")),
    "incident.misdrawn_card": E(_("the misdrawn card")),
    "resolution.burned": E(_("burned")),
    "resolution.under_shoe": E(_("put under the shoe")),
    "resolution.to_box": E(_("placed on box %(to)s")),
    "fold_ante": E(_("the stake folded: the Ante goes to the float")),
    "folded": E(_("the stake folded")),
    "instant_ochko": E(_("ochko (%(v)s) while drawing: Bet and Ante are paid 1:1 at once"), v="value"),
    "instant_mnogo": E(_("mnogo (%(n)s): Bet and Ante go to the float at once")),
    "box_won": E(_("the box won: paid 1:1")),
    "box_lost": E(_("the box lost")),
    "tie_stays": E(_("tie: the dealer bet stays")),
    "ace_stays": E(_("the dealer's first card is an Ace: the dealer bet stays")),
    "dark_double_bust": E(_("the dark card busts (%(n)s) and %(p)s: only the Ante is paid"), p="dealer"),
    "dark_wins": E(_("the dark-card box wins (%(v)s; %(p)s): only the Ante is paid"), v="value", p="dealer"),
    "box_wins": E(_("the box wins with %(v)s; %(p)s"), v="value", p="dealer"),
    "tie_loses": E(_("tie: %(v)s against %(v2)s — ties lose"), v="value", v2="dealer_value"),
    "dark_busts": E(_("the dark card busts (%(n)s); %(p)s"), p="dealer"),
    "box_loses": E(_("the box loses with %(v)s; %(p)s"), v="value", p="dealer"),
    # blackjack
    "to_dealer": E(_("the dealer")),
    "to_box": E(_("box %(box)s")),
    "play.hit": E(_("takes a card")),
    "play.stand": E(_("stands")),
    "play.double": E(_("doubles")),
    "play.split": E(_("splits")),
    "took_even_money": E(_("took even money")),
    "stood_on": E(_("stood on %(value)s")),
    "is_bust": E(_("is bust (%(n)s)")),
    "is_blackjack": E(_("is a blackjack")),
    "was_doubled": E(_("was doubled (one card only)")),
    "split_ace_one_card": E(_("is a split ace, which gets one card only")),
    "has_total": E(_("has %(n)s")),
    "double_two_cards": E(_("holds %(n)s cards; a hand doubles on its first two cards only")),
    "no_double_after_split": E(_("is a split hand and this table does not double after a split")),
    "double_amount": E(_("doubled for %(amount)s; the second bet equals the first (%(bet)s)")),
    "resplit_aces": E(_("is a split ace; aces are split once only")),
    "unequal_pair": E(_("holds %(card)s %(card2)s, which are not of equal value")),
    "too_many_hands": E(_("would make %(n)s hands on box %(box)s; the most is %(most)s")),
    "offer_no_ace": E(_("%(offer)s is offered only while the dealer shows an ace")),
    "offer_closed": E(_("%(offer)s was taken after the offer closed (the peek or the first play)")),
    "offer_decided": E(_("stake %(stake)s had already decided (insurance or even money)")),
    "offer_blackjack": E(_("a blackjack is offered even money, not insurance")),
    "offer_not_blackjack": E(_("its hand is %(v)s, not a blackjack"), v="value"),
    "offer.insurance": E(pgettext_lazy("wager", "insurance")),
    "offer.even_money": E(_("even money")),
    "insurance_wins": E(_("the dealer has blackjack: insurance pays 2:1")),
    "dealer_no_blackjack": E(_("the dealer has no blackjack")),
    "jackpot_won": E(_("A♠ J♠: the jackpot is won")),
    "jackpot_lost": E(_("the first two cards are not A♠ J♠")),
    "blackjack_push": E(_("blackjack against the dealer's blackjack: a push")),
    "round_ends": E(_("%(p)s: the round ends, only the initial bet is lost"), p="dealer"),
    "initial_bet_only": E(_("%(p)s: only the initial bet is lost"), p="dealer"),
    "hand_bust": E(_("hand %(hand)s is bust (%(n)s)")),
    "blackjack_pays": E(_("blackjack pays 3:2")),
    "even_money_paid": E(_("even money: the blackjack's bet is paid 1:1 at once")),
    "beats": E(_("%(v)s beats %(v2)s"), v="value", v2="dealer_value"),
    "push": E(_("%(v)s against %(v2)s: a push"), v="value", v2="dealer_value"),
    "loses_to": E(_("%(v)s loses to %(v2)s"), v="value", v2="dealer_value"),
    # veintiuno
    "to_bank": E(_("the bank")),
    "to_seat": E(_("seat %(n)s"), n="seat"),
    "pass.first": E(_("first pass, face down")),
    "pass.second": E(_("second pass, face up")),
    "nth.first": E(_("first")),
    "nth.second": E(_("second")),
    "act.withdraw": E(_("withdraw")),
    "act.void": E(_("void the hand")),
    "act.hit": E(_("take another card")),
    "act.stand": E(_("stand")),
    "act.tapo": E(_("take a tapo y quedo card")),
    "act.split": E(_("open (split)")),
    "act.declare": E(_("declare")),
    "hand_state.stood": E(_("has already stood")),
    "hand_state.over": E(_("is already over 21")),
    "hand_state.tapo": E(_("has taken its tapo y quedo card, which ends it")),
    "hand_state.declared": E(_("is a declared natural, already finished")),
    "hand_state.withdrawn": E(_("has withdrawn")),
    "hand_state.split": E(_("has been opened into two hands")),
    "bank_stays": E(_("no natural was declared, so the bank stays")),
    "natural_takes_bank": E(_("the first declared natural in playing order takes the bank")),
    "voided": E(_("the hand was voided (event %(e)s): every bet is returned"), e="at"),
    "withdrew": E(_("withdrew: the bet is returned")),
    "declared_natural": E(_("a declared natural wins 2:1 whatever the bank holds")),
    "over_21": E(_("over 21 (%(n)s): the bet goes to the bank at once")),
    "special_loses": E(_("%(v)s loses to the bank's natural"), v="special"),
    "special_wins": E(_("%(v)s wins %(m)s:1; %(p)s"), v="special", m="times", p="bank"),
    "tapo_wins": E(_("tapo y quedo on %(v)s and %(p)s: paid 1:1"), v="value", p="bank"),
    "tapo_over_returned": E(_("tapo y quedo over 21 (%(n)s) but %(p)s: the bet is returned"), p="bank"),
    "tapo_over": E(_("tapo y quedo over 21 (%(n)s); %(p)s"), p="bank"),
    "still_in": E(_("%(v)s is still in and %(p)s"), v="value", p="bank"),
    "ties_bank": E(_("%(v)s ties %(v2)s: ties go to the bank"), v="value", v2="dealer_value"),
    "loses_bank": E(_("%(v)s loses; %(p)s"), v="value", p="bank"),
}

# --- the sentences, per code and rule --------------------------------------------------------------
_SETTLED = dict(pwho="who", w="wager", a="paid", o="owed", p="because")
SENTENCES = {
    "WRONG_AMOUNT": {
        "paid": E(_("%(pwho)s: %(w)s paid %(a)s, owed %(o)s%(p)s."), **_SETTLED),
        "taken": E(_("%(pwho)s: %(w)s taken as %(a)s, owed %(o)s%(p)s."), **_SETTLED),
        "left": E(_("%(pwho)s: %(w)s left as %(a)s, owed %(o)s%(p)s."), **_SETTLED),
        # ochko: several boxes paid with one sum (dealing/engine/ochko/onesum.py)
        "sum": E(
            _("the one sum for boxes %(b)s was %(a)s; their wagers were owed %(o)s (rules/ochko.md, step 11)."),
            b="boxes",
            a="paid",
            o="owed",
        ),
    },
    "WRONG_RESULT": {
        "result": E(
            _("%(who)s: %(wager)s %(did)s; it should have been %(owed)s%(why)s."), owed="owed_as", why="because"
        ),
        "sum": E(
            _("%(pwho)s: %(w)s was paid in the one sum for boxes %(b)s; it should have been %(o)s%(p)s."),
            pwho="who",
            w="wager",
            b="boxes",
            o="owed_as",
            p="because",
        ),
    },
    "MISSING_SETTLEMENT": {
        "never": E(
            _("%(who)s: %(wager)s was never settled; it should have been %(owed)s%(why)s."),
            owed="owed_as",
            why="because",
        ),
    },
    "UNEXPECTED_SETTLEMENT": {
        "paid": E(_("%(pwho)s: %(w)s paid, but this stake has no such wager."), **_SETTLED),
        "taken": E(_("%(pwho)s: %(w)s taken, but this stake has no such wager."), **_SETTLED),
        "left": E(_("%(pwho)s: %(w)s left, but this stake has no such wager."), **_SETTLED),
        "paid_again": E(_("%(pwho)s: %(w)s settled a second time (first at event %(e)s)."), e="first", **_SETTLED),
        "taken_again": E(_("%(pwho)s: %(w)s settled a second time (first at event %(e)s)."), e="first", **_SETTLED),
        "left_again": E(_("%(pwho)s: %(w)s settled a second time (first at event %(e)s)."), e="first", **_SETTLED),
    },
    "LATE_SETTLEMENT": {
        "ochko": E(
            _(
                "%(pwho)s: the %(w)s (ochko at event %(e)s) was settled only after the next drawing action "
                "(event %(a)s)."
            ),
            pwho="who",
            w="wager",
            e="at",
            a="action",
        ),
        "mnogo": E(
            _(
                "%(pwho)s: the %(w)s (mnogo at event %(e)s) was settled only after the next drawing action "
                "(event %(a)s)."
            ),
            pwho="who",
            w="wager",
            e="at",
            a="action",
        ),
    },
    "PAYMENT_ORDER": {
        "box_order": E(
            _("box %(b)s was settled after box %(a)s; settlement goes from box 6 down to box 1."), b="box", a="after"
        ),
        "dealer_bet_first": E(_("%(pwho)s: the dealer bet was settled before the box's Bet and Ante."), pwho="who"),
        "before_dealer": E(_("%(pwho)s was settled before the dealer finished drawing."), pwho="who"),
        "sum_dealer_bet": E(
            _(
                "box %(b)s's dealer bet was paid inside the one sum for boxes %(bs)s, before box %(l)s; several "
                "boxes are paid with one sum only when the dealer bet stands on the last of them, so the order of "
                "payment is kept (rules/ochko.md, step 11)."
            ),
            b="box",
            bs="boxes",
            l="last",
        ),
        "sum_stay": E(
            _(
                "%(pwho)s: the %(w)s stays (%(o)s returned, not paid), yet it was folded into the one sum for boxes "
                "%(bs)s; a stay is not used when several boxes are paid together: that box is settled on its own "
                "(seed 004)."
            ),
            pwho="who",
            w="wager",
            o="owed",
            bs="boxes",
        ),
    },
    "BET_RANGE": {
        "range": E(
            _("Box %(box)s, stake %(stake)s: Bet %(a)s is outside 1–10× its Ante (%(lo)s–%(hi)s)."),
            a="bet",
            lo="low",
            hi="high",
        ),
    },
    "ANTE_LIMITS": {
        "ante": E(
            _("Box %(box)s, stake %(stake)s: Ante %(a)s is outside the table limits %(lo)s–%(hi)s."),
            a="ante",
            lo="low",
            hi="high",
        ),
        "box_total": E(
            _("Box %(box)s: the Antes add up to %(a)s, over the table maximum %(hi)s."), a="total", hi="high"
        ),
    },
    "BET_LIMITS": {
        "bank_limits": E(
            _("Seat %(seat)s, stake %(stake)s (%(name)s): a bet of %(a)s is outside the bank's limits %(lo)s–%(hi)s."),
            a="bet",
            lo="low",
            hi="high",
        ),
        "table_limits": E(
            _("Box %(box)s, stake %(stake)s: bet %(a)s is outside the table limits %(lo)s–%(hi)s."),
            a="bet",
            lo="low",
            hi="high",
        ),
        "jackpot_bet": E(
            _("Box %(box)s, stake %(stake)s: the jackpot bet is %(a)s; it is %(o)s."), a="jackpot", o="due"
        ),
    },
    "DEALER_BET_MIN": {
        "under": E(_("Box %(box)s, stake %(stake)s: dealer bet %(a)s is under the minimum %(lo)s."), a="bet", lo="low"),
    },
    "BOX_PLAYERS": {
        "no_box": E(_("Box %(box)s does not exist: the table has boxes 1 to %(n)s."), n="boxes"),
        "crowded": E(_("Box %(box)s has %(n)s stakes: at most %(m)s players share a box."), m="most"),
    },
    "INSURANCE_AMOUNT": {
        "over_half": E(_("box %(box)s insured %(a)s, over half its bet of %(b)s."), a="amount", b="bet"),
    },
    "CARD_INVALID": {
        "not_in_pack": E(_("%(card)s is not a card of %(pack)s."), card="card_quoted"),
    },
    "CARD_COUNT": {
        "round": E(_("%(card)s appears %(n)s times; the shoe holds only %(d)s."), d="most"),
        "shoe_of": E(_("%(card)s appears %(n)s times; the shoe holds only %(d)s."), d="decks"),
        "shoe_card": E(_("%(card)s appears %(n)s times; the shoe holds only %(d)s."), d="decks"),
        "one_pack": E(_("%(card)s comes out %(n)s times in one round; the pack holds only %(d)s."), d="copies"),
        "packs": E(_("%(card)s appears %(n)s times; the shoe holds only %(d)s."), d="copies"),
        "pack_not_run_out": E(
            _("%(card)s comes out again before the pack has run out (%(n)s of its %(d)s cards dealt)."), d="size"
        ),
        "rank": E(_("%(n)s cards of rank %(card)s have come out; the shoe holds only %(most)s.")),
        "shoe_rank": E(_("%(n)s cards of rank %(card)s have come out; the shoe holds only %(most)s.")),
    },
    "DEALER_DRAW_RULE": {
        "stood_under_17": E(_("The dealer stood on %(n)s; he draws to 17."), n="value"),
        "drew_on_17": E(_("the dealer drew on %(v)s; he stands on all 17s."), v="value"),
        "drew_on": E(_("the dealer drew on %(v)s; he must stop on 17 or more."), v="value"),
        "drew_on_combination": E(_("the dealer drew on %(v)s; he must stop on 17 or more."), v="value"),
        "stopped": E(_("The dealer stopped on %(n)s; he must draw on 16 or less."), n="total"),
        "nothing_open": E(
            _("the dealer drew although every box was already settled; he should discard his card without drawing.")
        ),
        "after_blackjack": E(_("the dealer drew although his blackjack had ended the round.")),
        "nothing_live": E(
            _("the dealer drew although every hand was bust or a blackjack; he only turns his hole card.")
        ),
    },
    "DEAL_ORDER": {
        "pass_order": E(
            _(
                "a card dealt to %(pa)s when the next card was due to %(pb)s; each pass goes from seat 1 "
                "onwards, then the bank."
            ),
            pa="to",
            pb="due",
        ),
        "deal_out_of_turn": E(
            _(
                "%(pa)s was dealt out of turn; the deal goes box 1 → %(n)s, the dealer's up card, "
                "the second cards, the hole card."
            ),
            pa="to",
            n="last",
        ),
        "never_dealt": E(_("Box %(box)s was never dealt its card.")),
        "dealer_never": E(_("The dealer never dealt his own card.")),
        "box_twice": E(_("box %(box)s was dealt twice.")),
        "after_dealer": E(_("box %(box)s was dealt after the dealer's own card.")),
        "out_of_turn": E(_("box %(box)s was dealt before box %(b)s: the deal goes 1 → 6."), b="first"),
        "dealer_twice": E(_("the dealer dealt himself a second card.")),
        "dealer_early": E(_("the dealer's card was dealt before box %(box)s's.")),
        "late_dealer": E(_("a card dealt to the dealer after the decisions began.")),
        "late_box": E(_("a card dealt to box %(box)s after the decisions began.")),
        "empty_box": E(_("box %(box)s has no stakes, so nothing is dealt to it.")),
        "no_stake": E(_("a card dealt to box %(box)s, which has no stake.")),
        "after_deal": E(_("a card dealt to %(to)s after the deal was over.")),
        "third_card": E(_("%(to)s was dealt a third card in the deal.")),
        "incomplete": E(_("The deal was not complete (missing a card to: %(missing)s).")),
        "before_deal_done": E(_("%(who)s played before the deal was complete.")),
        "empty_seat": E(_("nobody sits at seat %(seat)s, so no card is dealt there.")),
        "third_card_hit": E(
            _("%(to)s was dealt a third card in the deal; a card after the deal is a hit (or the bank's draw).")
        ),
        "after_play": E(_("a card dealt to %(to)s after play began (event %(started)s).")),
        "bank_before_deal_done": E(_("the bank drew before the deal was complete.")),
        "never_completed": E(_("The deal was never completed: %(to)s is missing its %(nth)s card.")),
    },
    "DRAW_ORDER": {
        "after_dealer_drew": E(_("hand %(hand)s played after the dealer started drawing.")),
        "after_bank_drew": E(_("%(who)s played after the bank began drawing.")),
        "bank_while_playing": E(
            _("the bank drew while hand %(hand)s (%(name)s) was still playing; the bank plays last."),
            hand="current_hand",
            name="current_name",
        ),
        "seat_order": E(
            _(
                "hand %(hand)s (%(name)s) played before %(current)s had finished; hands play in seat "
                "order from the bank's right."
            )
        ),
        "after_dealer": E(_("box %(box)s drew after the dealer had started drawing.")),
        "box_early": E(_("box %(box)s drew before box %(b)s had finished; boxes draw 1 → 6."), b="first"),
        "dealer_early": E(_("the dealer drew before box %(box)s had finished drawing.")),
        "dealer_before_hand": E(_("the dealer drew before hand %(hand)s was finished.")),
        "hand_early": E(
            _(
                "hand %(hand)s played before hand %(current)s was finished; hands play in box order, a "
                "split hand to the end before the next."
            )
        ),
    },
    "ILLEGAL_ACTION": {
        # ochko
        "fold_after_open": E(_("stake %(stake)s folded after the dealer opened his card.")),
        "bet_after_open": E(_("stake %(stake)s placed a Bet after the dealer opened his card.")),
        "already_folded": E(_("stake %(stake)s already folded.")),
        "already_bet": E(_("stake %(stake)s already placed its Bet of %(bet)s.")),
        "open_twice": E(_("the dealer opened his card a second time.")),
        "never_opened": E(_("The round ends before the dealer opened his card.")),
        "undecided": E(_("Stake %(stake)s (box %(box)s) neither folded nor placed a Bet; it counts as folded.")),
        "box_drew_unopened": E(_("box %(box)s drew before the dealer opened his card.")),
        "dealer_drew_unopened": E(_("the dealer drew before opening his card.")),
        "not_in_play": E(_("box %(box)s is not in play.")),
        "box_finished": E(_("box %(box)s %(box_state)s; it cannot %(box_action)s.")),
        "no_dark_card": E(_("box %(box)s has no dark card to reveal.")),
        "dark_revealed": E(_("box %(box)s's dark card was already revealed.")),
        "dark_early": E(
            _("box %(box)s's dark card was turned before the dealer finished drawing; nobody may see it until then.")
        ),
        # blackjack
        "void_insurance": E(_("box %(box)s insured %(amount)s, but %(why)s; the insurance is void.")),
        "void_even_money": E(_("box %(box)s took even money, but %(why)s; it is void.")),
        "peek_up_card": E(
            _(
                "the dealer peeked with a %(card)s up card; he checks the hole card only with an ace or a "
                "ten-value card up."
            )
        ),
        "peek_no_card": E(
            _("the dealer peeked with no up card; he checks the hole card only with an ace or a ten-value card up.")
        ),
        "peek_twice": E(_("the dealer peeked a second time.")),
        "peek_late": E(_("the dealer peeked only after play began.")),
        "before_peek": E(
            _("hand %(hand)s %(pact)s before the dealer peeked at his hole card (%(card)s up)."), pact="play"
        ),
        "after_dealer_blackjack": E(
            _("hand %(hand)s %(pact)s, but the dealer's blackjack had ended the round."), pact="play"
        ),
        "was_split": E(_("hand %(hand)s was split into %(hand)s.1 and %(hand)s.2; it can no longer play.")),
        "cannot_hit": E(_("hand %(hand)s %(why)s; it cannot take another card.")),
        "stood_one_card": E(_("hand %(hand)s stood on one card; a split hand gets its second card first.")),
        "cannot_stand": E(_("hand %(hand)s %(why)s; it cannot stand again.")),
        "bad_double": E(_("hand %(hand)s cannot double: it %(why)s.")),
        "split_not_pair": E(_("hand %(hand)s holds %(n)s cards; only a pair of two cards splits.")),
        "bad_split": E(_("hand %(hand)s split, but it %(why)s.")),
        "no_peek_draw": E(_("the dealer played his hand without peeking at the hole card (%(card)s up).")),
        "never_peeked": E(_("The dealer never peeked at his hole card (%(card)s up).")),
        # veintiuno
        "after_void": E(_("%(who)s cannot %(act)s: the hand was voided at event %(voided)s and every bet returned.")),
        "finished": E(_("%(who)s %(hand_state)s; it cannot %(act)s.")),
        "deal_after_void": E(
            _("a card dealt to %(to)s after the hand was voided (event %(voided)s); the new deal is a new round.")
        ),
        "stake_already_bet": E(_("stake %(stake)s (%(name)s) already bet %(bet)s.")),
        "bet_after_void": E(_("a bet after the hand was voided (event %(voided)s).")),
        "bet_after_second_pass": E(
            _("stake %(stake)s (%(name)s) bet after the second pass began; bets are placed on the first card only.")
        ),
        "declare_after_void": E(_("%(who)s declared after the hand was voided.")),
        "not_a_natural": E(_("%(who)s declared a natural holding %(cards)s; only A + J/Q/K in two cards is one.")),
        "not_a_natural_no_cards": E(
            _("%(who)s declared a natural holding no cards; only A + J/Q/K in two cards is one.")
        ),
        "late_declaration": E(
            _(
                "%(who)s declared its natural only after another action (event %(last)s); a natural "
                "is declared at once, so it plays on as a plain 21."
            )
        ),
        "withdraw_not_13": E(
            _(
                "hand %(hand)s (%(name)s) withdrew holding %(cards)s (%(v)s); only a two-card 13 may "
                "withdraw. The bet was returned as played."
            ),
            v="value",
        ),
        "void_not_pie": E(
            _(
                "%(who)s voided the hand, but only pie de banco (seat %(pie)s) may void the hand. Every "
                "bet was returned as played."
            )
        ),
        "void_not_13": E(
            _(
                "%(who)s voided the hand, but it holds %(cards)s (%(value)s), not a two-card 13. Every bet "
                "was returned as played."
            )
        ),
        "void_neither": E(
            _(
                "%(who)s voided the hand, but only pie de banco (seat %(pie)s) may void the hand and it "
                "holds %(cards)s (%(value)s), not a two-card 13. Every bet was returned as played."
            )
        ),
        "puje_after_void": E(_("al puje after the hand was voided (event %(voided)s).")),
        "puje_twice": E(_("the table is already al puje (event %(puje)s).")),
        "puje_not_20": E(
            _(
                "the bank sent the table al puje holding %(cards)s; only a bank with 20 in two cards may. "
                "The hands were fed as played."
            )
        ),
        "puje_no_cards": E(
            _(
                "the bank sent the table al puje holding no cards; only a bank with 20 in two cards may. "
                "The hands were fed as played."
            )
        ),
        "stood_al_puje": E(
            _(
                "hand %(hand)s (%(name)s) stood on %(n)s al puje; every hand under 21 must draw until it "
                "has 21 or is over."
            )
        ),
        "stopped_al_puje": E(
            _(
                "hand %(hand)s (%(name)s) stood on %(n)s al puje; every hand under 21 must draw until "
                "it has 21 or is over."
            )
        ),
        "tapo_al_puje": E(
            _("%(who)s took a tapo y quedo al puje; every hand under 21 draws face up until it has 21 or is over.")
        ),
        "tapo_opened": E(_("%(who)s took a tapo y quedo on an opened hand; opened hands are dealt face up.")),
        "open_not_two": E(_("%(who)s holds %(n)s cards; only two equal cards can be opened.")),
        "open_relancina": E(
            _("hand %(hand)s (%(name)s) opened a relancina (%(cards)s); a relancina cannot be opened.")
        ),
        "open_unequal": E(
            _("%(who)s opened unequal cards (%(cards)s); only two cards of the same rank can be opened.")
        ),
        "open_amount": E(
            _(
                "hand %(hand)s (%(name)s) opened with %(a)s on the new hand; opening takes twice the bet, "
                "%(b)s. Settled as placed."
            ),
            a="amount",
            b="due",
        ),
        "bank_after_void": E(_("the bank drew after the hand was voided (event %(voided)s).")),
        "bank_over": E(_("the bank drew although it is already over 21 (%(n)s).")),
        "bank_passed_twice": E(_("the bank was already passed at event %(at)s.")),
        "never_bet": E(_("Stake %(stake)s (%(name)s, seat %(seat)s) never placed a bet; it has no wager this round.")),
    },
    "INCIDENT_UNAPPROVED": {
        "unapproved": E(_("%(incident)s (%(card)s) has no pit boss's approval on record.")),
        "own_report": E(_("%(incident)s was approved by %(by)s, who reported it; another person must approve.")),
        "own_dealer": E(
            _("%(incident)s was approved by the round's own dealer %(by)s; a dealer never resolves his own incident.")
        ),
        "not_pit_boss": E(
            _(
                "%(incident)s names %(by)s as its approver, who is not a pit boss of this table's pit; a name alone "
                "is no approval."
            )
        ),
    },
    "INCIDENT_RESOLUTION": {
        "exposed_dealer_card": E(
            _("the dealer's exposed card must be burned in the pit boss's presence and replaced, not %(resolution)s.")
        ),
        "unseen_card": E(_("a misdrawn card that nobody saw goes under the shoe, not %(resolution)s.")),
        "exposed_card": E(
            _("an exposed misdrawn card stays on the table; the pit boss places it on a box or has it burned.")
        ),
        "box_not_drawing": E(_("the pit boss placed the card on box %(box)s, which is not drawing.")),
    },
    "RESHUFFLE_POINT": {
        "early": E(
            _("a new shoe with %(n)s cards still left; the shoe is played down to the cut (%(c)s cards)."), c="cut"
        ),
        "no_shuffle": E(
            _(
                "a round dealt without shuffling first (%(n)s card(s) already out); this table shuffles "
                "before every round."
            )
        ),
        "past_cut": E(_("a round dealt with %(n)s cards left; a new shoe is due below %(c)s."), c="cut"),
    },
    "BURN_FEE": {
        "no_fee": E(_("a paid burn with no fee; the fee is half the table minimum, %(fee)s.")),
        "wrong_fee": E(_("a paid burn with a fee of %(a)s; the fee is half the table minimum, %(fee)s."), a="paid"),
    },
    "BURN_COUNT": {
        "load": E(
            _(
                "after the shoe was loaded (item %(at)s) %(n)s card(s) were burned before the next round; the "
                "procedure burns %(want)s."
            )
        ),
        "dealer_change": E(
            _(
                "after the dealer changed (item %(at)s) %(n)s card(s) were burned before the next "
                "round; the procedure burns %(want)s."
            )
        ),
    },
    "BANK_SUCCESSION": {
        # the ledger's own: a night's round dealt by another bank than the one it passed to
        "night_dealt_by": E(_("Round %(n)d was dealt by %(bank)s, but the bank belonged to %(expected)s.")),
        "wrong_player": E(
            _("the bank was passed to %(a)s; it should go to %(b)s — %(p)s."), a="player", b="due", p="why"
        ),
    },
}
