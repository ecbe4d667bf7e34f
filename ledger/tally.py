"""Running balances of a game night, from the engine's settlement of each round (no database).

For each round the engine says what every hand was owed (`settlement/1`): a player's gain is
Σ pay − Σ take on his stakes (a returned bet counts 0), the bank's gain is the round's float
(Σ take − Σ pay). So each round's gains sum to zero, and so do the balances after every round.

The money counted is what the rules owed, not what the log shows changing hands: where the two
differ the round carries a finding (WRONG_AMOUNT, WRONG_RESULT, … with its `player_delta`), and
the ledger still shows what each player is owed.

Who holds the bank comes from the engine too: the first declared natural takes it (`bank_next`).
A round dealt by someone else than the bank's rightful holder carries a BANK_SUCCESSION finding
of the ledger's own (the engine's BANK_SUCCESSION judges a round's own `bank_to` event).
"""

from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _

from dealing import engine
from dealing.engine import sentences
from dealing.engine.findings import Finding
from dealing.engine.money import ZERO, fmt


class UnsettledRound(ValueError):
    """A round whose settlement the engine cannot give (a card not in the pack): no balances."""


@dataclass
class RoundLine:
    """One round of the night as the ledger counts it."""

    number: int
    doc: dict
    outcome: engine.Outcome
    bank: str
    bank_next: str
    gains: dict[str, Decimal]
    balances: dict[str, Decimal]  # after this round
    findings: list[Finding] = field(default_factory=list)  # the engine's, then the ledger's

    @property
    def limits(self) -> tuple[Decimal, Decimal]:
        table = self.doc["table"]
        return Decimal(str(table["min"])), Decimal(str(table["max"]))

    @property
    def total(self) -> Decimal:
        return sum(self.balances.values(), ZERO)


@dataclass
class Tally:
    players: list[str]
    first_bank: str
    lines: list[RoundLine]
    balances: dict[str, Decimal]

    @property
    def bank(self) -> str:
        """Who holds the bank for the next round."""
        return self.lines[-1].bank_next if self.lines else self.first_bank


def gains_of(doc: dict, outcome: engine.Outcome, players: list[str] | None = None) -> dict[str, Decimal]:
    """Each player's gain in one round: Σ pay − Σ take on his stakes; the bank's is the float."""
    if outcome.wagers is None:
        raise UnsettledRound("the engine cannot settle this round (a card not in the pack)")
    gains = {p: ZERO for p in (players or [])}
    owner = {s["id"]: s["player"] for s in doc["stakes"]}
    bank = doc["bank"]
    gains.setdefault(bank, ZERO)
    for w in outcome.wagers:
        player = owner[w.stake]
        gains[player] = gains.get(player, ZERO) + w.delta
    gains[bank] += outcome.float
    return gains


def tally(players: list[str], first_bank: str, docs: list[dict], outcomes: list[engine.Outcome] | None = None) -> Tally:
    """The night round by round: gains, balances after each round, the bank, the findings."""
    balances = {p: ZERO for p in players}
    lines: list[RoundLine] = []
    expected = first_bank
    for k, doc in enumerate(docs):
        outcome = outcomes[k] if outcomes is not None else engine.replay(doc)
        gains = gains_of(doc, outcome, players)
        for player, gain in gains.items():
            balances[player] = balances.get(player, ZERO) + gain
        bank = doc["bank"]
        findings = list(outcome.findings)
        if bank != expected:
            findings.append(
                Finding(
                    "BANK_SUCCESSION",
                    _("Round %(n)d was dealt by %(bank)s, but the bank belonged to %(expected)s.")
                    % {"n": k + 1, "bank": bank, "expected": expected},
                    expected={"player": expected},
                    actual={"player": bank},
                    params={"rule": "night_dealt_by", "n": k + 1, "bank": bank, "expected": expected},
                )
            )
        nxt = outcome.extra.get("bank_next") or bank
        lines.append(RoundLine(k + 1, doc, outcome, bank, nxt, gains, dict(balances), findings))
        expected = nxt
    return Tally(list(players), first_bank, lines, balances)


def pack_findings(docs: list[dict], *, rules: dict | None = None) -> dict[int, list[Finding]]:
    """CARD_COUNT across the night, by round number: one shuffled pack is dealt to the end before
    it is gathered and shuffled again (no reshuffle mid-pack), whoever holds the bank."""
    if not docs:
        return {}
    items: list[dict] = [{"e": "shuffle"}]
    for doc in docs:
        items.append({"e": "round", "round": doc})
    first = docs[0]["table"]
    shoe = {
        "format": "shoe/1",
        "variant": "veintiuno",
        "table": {"min": first["min"], "max": first["max"]},
        "rules": rules or {},
        "items": items,
    }
    out: dict[int, list[Finding]] = {}
    for finding in engine.check_shoe(shoe):
        number = finding.event  # item k is round k (item 0 is the shuffle)
        if not number:
            continue
        params = sentences.headless(finding.params)  # the sentence without the shoe item's head
        said = sentences.english(finding.code, params)
        params["night_round"] = number  # said in front: "Round 3: …" (casino/finding_words.py)
        message = _("Round %(n)d: %(said)s") % {"n": number, "said": said}
        out.setdefault(number, []).append(Finding(finding.code, message, params=params))
    return out


def as_text(balances: dict[str, Decimal]) -> dict[str, str]:
    return {player: fmt(amount) for player, amount in balances.items()}
