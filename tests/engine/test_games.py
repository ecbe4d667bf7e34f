"""The game registry: the built-in games, and a game registered at run time (a toy one here)."""

import types
from decimal import Decimal

import pytest

from dealing import engine
from dealing.engine import document as doc_
from dealing.engine import games, loop
from dealing.engine.base import PAY, TAKE, Outcome, Owed, Settled, compare_settlements, plain_rules
from dealing.engine.cards import pack
from dealing.engine.simulators import module as simulator_of


def test_the_built_in_games_and_their_modules():
    assert engine.VARIANTS == games.names() == ("ochko", "blackjack", "veintiuno")
    for name in engine.VARIANTS:
        game = games.get(name)
        assert engine.variant(name).NAME == name
        assert simulator_of(name).MISTAKES
        assert (game.odds is None) == (name == "veintiuno")
    with pytest.raises(ValueError, match="no dealer odds"):
        games.odds("veintiuno")
    with pytest.raises(ValueError, match="already registered"):
        games.register(games.Game("ochko", "dealing.engine.ochko"))


class _HighCard(loop.Round):
    """A toy game: each stake is dealt one card; an ace wins its bet 1:1, anything else loses it."""

    GAME = "high card"
    PACK_PHRASE = "pack"

    def __init__(self, doc):
        super().__init__(_HANDLERS, loop.card_table(lambda rank: 14 if rank == "A" else 0, _PACK))
        doc = doc_.header(doc, "high_card")
        self.rules = plain_rules("high_card", {}, {}, doc.get("rules"))
        self.stakes = {s["id"]: s for s in doc_.expect_list(doc.get("stakes"), "$.stakes")}
        self.card_of: dict[str, str] = {}

    def _deal(self, i, ev):
        self.card_of[loop.stake_of(self.stakes, i, ev)["id"]] = self._card(i, ev)[0]

    def _settle(self, i, ev):
        stake = loop.stake_of(self.stakes, i, ev)
        self.settled.append(Settled(i, stake["id"], None, ev["wager"], ev["e"], doc_.event_amount(ev, i)))

    def _too_many(self, i, code, n):
        self._flag("CARD_COUNT", f"Event {i}: {code} twice.", i)

    def finish(self):
        owed = {}
        for sid, stake in self.stakes.items():
            bet = Decimal(stake["bet"])
            won = self.card_of.get(sid, "")[:1] == "A"
            owed[(sid, None, "bet")] = Owed(sid, None, "bet", PAY if won else TAKE, bet, bet)
        compare_settlements(
            owed, self.settled, self.findings, who=lambda s, h: {"who": "stake", "stake": s}, game="high_card"
        )
        return Outcome(
            "high_card",
            sorted(owed.values(), key=lambda o: o.stake),
            loop.sort_findings(self.findings),
            self.shoe_cards,
            self.rules,
            settled=self.settled,
        )

    def moves(self):
        return [
            loop.move("deal", f"Deal stake {sid} a card.", needs=["card"], stake=sid)
            for sid in self.stakes
            if sid not in self.card_of
        ]


_PACK = pack("23456789TJQKA")
_HANDLERS = {
    "deal": (_HighCard._deal, frozenset({"e", "stake", "card"})),
    "pay": (_HighCard._settle, frozenset({"e", "stake", "wager", "amount"})),
    "take": (_HighCard._settle, frozenset({"e", "stake", "wager", "amount"})),
}


@pytest.fixture
def high_card():
    module = types.ModuleType("high_card")
    module.NAME, module.PACK, module.WAGERS, module.OPTIONS = "high_card", _PACK, ("bet",), {}
    module.Replay = _HighCard
    module.house_rules = lambda rules: plain_rules("high_card", {}, {}, rules)
    games.register(games.Game(name="high_card", module=module))
    yield module
    games.unregister("high_card")


def _round(*events):
    return {
        "format": "round/1",
        "variant": "high_card",
        "stakes": [{"id": "s1", "bet": 10}, {"id": "s2", "bet": 5}],
        "events": list(events),
    }


def test_a_game_registered_at_run_time_is_played_like_the_others(high_card):
    assert "high_card" in engine.VARIANTS and engine.variant("high_card") is high_card
    doc = _round(
        {"e": "deal", "stake": "s1", "card": "AS"},
        {"e": "deal", "stake": "s2", "card": "7H"},
        {"e": "pay", "stake": "s1", "wager": "bet", "amount": 10},
        {"e": "take", "stake": "s2", "wager": "bet", "amount": 10},
    )
    settlement = engine.settle(doc)
    assert settlement["wagers"] == [
        {"stake": "s1", "wager": "bet", "result": "pay", "amount": "10"},
        {"stake": "s2", "wager": "bet", "result": "take", "amount": "5"},
    ]
    assert [f["code"] for f in settlement["findings"]] == ["WRONG_AMOUNT"]
    assert engine.next_events(_round({"e": "deal", "stake": "s1", "card": "AS"}))[0]["stake"] == "s2"
    with pytest.raises(engine.RoundError) as refused:
        engine.settle(_round({"e": "split", "stake": "s1"}))
    assert refused.value.code == "unknown_event" and "a high card round" in refused.value.message
    with pytest.raises(ValueError, match="no simulator"):
        simulator_of("high_card")


def test_an_unregistered_game_is_unknown_again(high_card):
    games.unregister("high_card")
    try:
        assert "high_card" not in engine.VARIANTS
        with pytest.raises(engine.RoundError) as refused:
            engine.settle(_round())
        assert refused.value.code == "unknown_variant"
    finally:
        games.register(games.Game(name="high_card", module=high_card))  # for the fixture's own unregister


def test_a_game_is_found_by_a_str_subclass_of_its_name():
    """The Django side names games with TextChoices members, which hash as the member, not the text."""
    import enum

    class Variant(str, enum.Enum):
        OCHKO = "ochko"

        def __str__(self):
            return self.value

    assert games.get(Variant.OCHKO).name == "ochko"
    assert engine.variant(Variant.OCHKO) is engine.variant("ochko")
    assert simulator_of(Variant.OCHKO).MISTAKES
    assert games.get(["ochko"]) is None


def test_each_game_s_pure_modules_live_in_its_own_folder():
    """One wing per game: the registry's simulator, odds and math of a game are modules of its folder."""
    for name in engine.VARIANTS:
        game = games.get(name)
        for module in (game.module, game.simulator, game.odds, game.math):
            assert module is None or module == f"dealing.engine.{name}" or module.startswith(f"dealing.engine.{name}.")
        assert games.math(name).cli and games.simulator(name).MISTAKES


def test_the_math_command_line_and_reports_find_a_game_through_the_registry(high_card, capsys):
    """math/cli.py and math/report.py name no game: a game registered with a `math` is asked like the others."""
    from dealing.engine.math import cli, report

    math = types.ModuleType("high_card_math")
    math.cli = lambda args, rules: {"format": "edge/1", "variant": args.variant, "rules": rules}
    math.reports = lambda: {"high_card": lambda: "| the table |\n"}
    games.unregister("high_card")
    games.register(games.Game(name="high_card", module=high_card, math=math))
    assert cli.main(["edge", "high_card", "--rule", "a=b"]) == 0
    assert capsys.readouterr().out == '{"format": "edge/1", "variant": "high_card", "rules": {"a": "b"}}\n'
    assert cli.main(["specials", "high_card"]) == 2
    assert capsys.readouterr().err == "specials: only veintiuno has a table of special hands, not high_card\n"
    assert cli.main(["ev", "nothing", "--cards", "AS"]) == 2
    known = "ochko, blackjack, veintiuno, high_card"
    assert capsys.readouterr().err == f"no game math for 'nothing' here (known: {known})\n"
    assert report.main(["high_card"]) == 0
    assert capsys.readouterr().out == "| the table |\n"
    with pytest.raises(ValueError, match="no game math"):
        games.math("nothing")
