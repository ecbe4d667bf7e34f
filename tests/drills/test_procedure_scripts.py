"""Procedure scripts: the right move is the engine's next event, every wrong move is one the
engine's audit flags, incidents keep the round clean when handled right."""

import pytest

from dealing import engine
from dealing.engine.errors import RoundError
from drills import procedure, setups

GAMES = [("ochko", ""), ("blackjack", "salon"), ("blackjack", "online"), ("veintiuno", "")]


def _script(variant, preset, seed, incident=None):
    setup = setups.tables_for(variant, preset)[0]
    options = setups.default_options(variant, preset, "procedure")
    doc = setups.deal_round(
        variant=variant,
        preset=preset,
        options=options,
        setup=setup,
        rng=setups.round_rng(seed, 1),
        incidents=1.0 if incident == "dealer_card_exposed" else 0.0,
    )
    return doc, procedure.build_script(doc, setups.round_rng(seed, 1, "script"), incident=incident)


def _moves_match(move, event):
    return move["e"] == event["e"] and all(
        move.get(k) == event.get(k) for k in ("to", "box", "hand", "stake", "wager", "player") if k in move
    )


@pytest.mark.parametrize("variant, preset", GAMES)
def test_scripts_follow_the_engine(variant, preset):
    for seed in range(25):
        doc, script = _script(variant, preset, seed)
        log = script["log"]
        assert not engine.replay({**doc, "events": log}).findings  # the right moves make a clean round
        assert script["steps"]
        for step in script["steps"]:
            keys = [c["key"] for c in step["choices"]]
            assert keys == [str(k) for k in range(1, len(keys) + 1)]
            assert sum(c["correct"] for c in step["choices"]) == 1
            assert 2 <= len(step["choices"]) <= 4
            if step["kind"] == "action":
                # The right move is one the engine lists as "what may happen next".
                moves = engine.next_events({**doc, "events": log[: step["at"]]})
                assert any(_moves_match(m, log[step["at"]]) for m in moves), (seed, log[step["at"]])
                assert step["listed"]
            for choice in step["choices"]:
                if not choice["correct"]:
                    assert choice["code"] and choice["explain"]


def test_every_wrong_move_is_flagged_by_the_engine_with_its_code():
    """Re-checked from outside: each engine-explained wrong move of an ochko step, played into the
    round, makes the engine's audit report that very code."""
    checked = 0
    for seed in range(30):
        doc, script = _script("ochko", "", seed)
        builder = procedure.Builder(doc, setups.round_rng(seed, 1, "script"))
        builder._insert_incident()
        outcome = engine.replay(doc)
        builder.sizes = {(o.stake, o.hand, o.wager): o.size for o in outcome.wagers}
        builder.words = procedure.Words(doc, builder.sizes)
        log = script["log"]
        for step in script["steps"]:
            if step["kind"] != "action":
                continue
            prefix, right, after = log[: step["at"]], log[step["at"] : step["end"]], log[step["end"] :]
            totals, dealer_total = builder.totals_after(prefix)
            candidates = {c.label: c for c in builder._candidates(prefix, right, after, totals, dealer_total)}
            for choice in step["choices"]:
                if choice["correct"] or not choice["engine"]:
                    continue
                cand = candidates[choice["label"]]
                rest = cand.rest if cand.rest is not None else right + after
                try:
                    findings = engine.replay({**doc, "events": prefix + cand.wrong + rest}).findings
                except RoundError:  # pragma: no cover - a wrong move is never an unreadable log
                    pytest.fail("a wrong move made a log the engine cannot read")
                assert choice["code"] in [f.code for f in findings]
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("incident", setups.INCIDENT_KINDS)
def test_each_incident_is_a_step_with_the_pit_boss_in_the_right_handling(incident):
    for seed in range(40):
        doc, script = _script("ochko", "", seed, incident)
        kinds = [s["kind"] for s in script["steps"]]
        expected = "between" if incident in ("shuffle_demand", "paid_burn", "dealer_change") else "incident"
        if expected not in kinds:
            continue  # a misdrawn card needs a box that draws: this round had none
        step = script["steps"][kinds.index(expected)]
        right = next(c for c in step["choices"] if c["correct"])
        wrong = [c for c in step["choices"] if not c["correct"]]
        assert wrong and all(c["code"] for c in wrong)
        assert not engine.replay({**doc, "events": script["log"]}).findings
        if incident == "dealer_card_exposed":
            assert "pit boss" in right["label"] and "burn" in right["label"]
            assert {"INCIDENT_UNAPPROVED", "INCIDENT_RESOLUTION"} <= {c["code"] for c in wrong}
            event = script["log"][step["at"]]
            assert event["approved_by"] == procedure.PIT_BOSS and event["resolution"] == "burned"
        elif incident == "misdrawn_exposed":
            assert "pit boss" in right["label"]
            assert script["log"][step["at"]]["exposed"] is True
        elif incident == "misdrawn_hidden":
            assert "under the shoe" in right["label"]
            assert script["log"][step["at"]]["resolution"] == "under_shoe"
        elif incident == "paid_burn":
            table_min = setups.tables_for("ochko")[0].min
            assert f"{table_min / 2:,.0f}" in right["label"]  # half the table minimum
            assert "BURN_FEE" in {c["code"] for c in wrong}
        elif incident == "dealer_change":
            assert "Burn one card" in right["label"]
            assert {c["code"] for c in wrong} == {"BURN_COUNT"}
        else:
            assert {c["code"] for c in wrong} & {"SHUFFLE_DEMAND", "BURN_FEE", "BURN_COUNT"}
        return
    pytest.fail(f"no round of 40 could carry {incident}")


def test_the_same_seed_builds_the_same_script():
    a = _script("ochko", "", 11, "misdrawn_exposed")
    b = _script("ochko", "", 11, "misdrawn_exposed")
    assert a == b
