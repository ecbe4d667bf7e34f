"""What the round page draws of a stored round, next to the engine's outcome: a wager's line (what
was logged, what was owed, the findings about it), a hand as it lies, and the owed wagers and
findings keyed as a game's page reads them."""

from dataclasses import dataclass, field


@dataclass
class WagerLine:
    label: str
    logged: object = None  # the builder's Result: what the log settled
    owed: object = None  # engine Owed
    findings: list = field(default_factory=list)


@dataclass
class HandDrawing:
    """A hand on the round page: its cards as they lie, its halves when it split."""

    name: str
    cards: list = field(default_factory=list)  # (code, how) with how "", "inherited" or "across"
    split: bool = False
    doubled: bool = False
    children: list = field(default_factory=list)
    lines: list = field(default_factory=list)  # WagerLine: bet, double
    verdict: object = ""  # the bet's Owed (its verdict said by the |verdict filter), or ""

    @property
    def is_root(self) -> bool:
        return "." not in self.name


def owed_and_wrong(outcome, key, finding_key=None) -> tuple[dict, dict[tuple, list]]:
    """The engine's owed wagers by `key(owed)` and its findings about a wager by `finding_key(finding)`
    (`key` too when None): (stake, [hand,] wager). Nothing when the engine could not read the round."""
    finding_key = finding_key or key
    owed = {key(w): w for w in (outcome.wagers or [])} if outcome else {}
    wrong: dict[tuple, list] = {}
    for f in outcome.findings if outcome else []:
        if f.stake and f.wager:
            wrong.setdefault(finding_key(f), []).append(f)
    return owed, wrong
