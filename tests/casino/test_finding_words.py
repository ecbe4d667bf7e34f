"""Findings carry their own words (round-format.md, third wave): every finding of every golden round,
and of simulated rounds with dealer mistakes, is said in English, Spanish, Brazilian Portuguese and
Russian from its code and params alone; in English it is the engine's message, byte for byte."""

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from casino.finding_labels import CODE_LABELS
from casino.finding_words import PHRASES, SENTENCES, Unsaid, finding_text, render, verdict_text
from dealing import engine
from dealing.engine import sentences as engine_sentences
from dealing.engine.findings import CODES
from dealing.engine.simulators import simulate
from tests.casino.test_languages import ENGLISH_WORDS

GOLDEN = Path(settings.BASE_DIR) / "tests" / "golden"
CASES = sorted(GOLDEN.glob("*/*.json"))
LANGUAGES = ["es", "pt-br", "ru"]
WORD = re.compile(r"(?<![\w/-])[A-Za-z]+(?![\w/-])")
# Words of a finding that are the same in every language: the games' own terms, cards, names in the logs.
# Brazilian Portuguese keeps "box", and "natural" is the Spanish and Portuguese word too.
KEPT = {"ochko", "mnogo", "ante", "bet", "al", "puje", "tapo", "y", "quedo", "pie", "de", "banco", "box", "natural"}


def _outcomes(variant=None):
    docs = [
        json.loads(p.read_text(encoding="utf-8"))["round"] for p in CASES if variant is None or p.parent.name == variant
    ]
    for doc in docs:
        yield doc, engine.replay(doc)


def _english_left(text: str, doc: dict) -> set[str]:
    """English words in a rendered sentence that are not names or ids from the round's own log."""
    own = set(WORD.findall(json.dumps(doc)))
    return {w for w in WORD.findall(text) if w.lower() in ENGLISH_WORDS and w not in own and w.lower() not in KEPT}


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_every_golden_finding_is_said_in_each_language_from_its_params(path):
    doc = json.loads(path.read_text(encoding="utf-8"))["round"]
    settlement = engine.settle(json.dumps(doc))
    for f in settlement["findings"]:
        params = json.loads(json.dumps(f["params"]))  # as stored: through JSON
        assert params.get("rule") in engine_sentences.SENTENCES[f["code"]], f
        with translation.override("en"):
            assert render(f["code"], params) == f["message"]
        for language in LANGUAGES:
            with translation.override(language):
                text = render(f["code"], params)  # Unsaid (no words) or a KeyError fail the test
                assert "%(" not in text and "{" not in text, (language, text)
                assert text != f["message"], (language, text)
                assert not _english_left(text, doc), (language, text, _english_left(text, doc))


@pytest.mark.parametrize("variant", ["ochko", "blackjack", "veintiuno"])
def test_simulated_mistakes_and_their_verdicts_are_said_in_each_language(variant):
    """Rounds the simulator deals with many dealer mistakes: every finding and every verdict is said
    in each language (no sentence or phrase of the engine without its msgid here)."""
    sims = simulate(variant, 300, seed=3, mistake_rate=0.6)
    seen = 0
    for sim in sims:
        try:
            outcome = engine.replay(sim.doc)
        except engine.RoundError:
            continue
        for f in outcome.findings:
            with translation.override("en"):
                assert render(f.code, f.params) == f.message
            for language in LANGUAGES:
                with translation.override(language):
                    render(f.code, f.params)
            seen += 1
        for w in outcome.wagers or []:
            with translation.override("en"):
                assert verdict_text(w) == w.why
            for language in LANGUAGES:
                with translation.override(language):
                    assert verdict_text(w), w.why
    assert seen


def test_every_declared_sentence_and_phrase_has_its_msgid():
    for name in engine.VARIANTS:
        engine.variant(name)
    missing = [
        (code, rule)
        for code, rules in engine_sentences.SENTENCES.items()
        for rule in rules
        if rule not in SENTENCES.get(code, {})
    ]
    assert missing == []
    assert sorted(set(engine_sentences.PHRASES) - set(PHRASES)) == []


def test_every_code_has_one_label():
    assert set(CODE_LABELS) == set(CODES)
    from drills.choices import CODE_LABELS as DRILL_LABELS

    assert all(DRILL_LABELS[code] is CODE_LABELS[code] for code in CODES)


def test_a_finding_stored_without_params_is_said_by_its_codes_label():
    old = {"code": "ILLEGAL_ACTION", "message": "Event 3: something the engine said before params.", "params": {}}
    with translation.override("en"):
        assert finding_text(old) == old["message"]
    with translation.override("es"):
        assert finding_text(old) == "Una jugada que las reglas no permiten."


def test_a_rule_this_module_does_not_know_falls_back_to_the_label():
    with translation.override("ru"):
        with pytest.raises(Unsaid):
            render("ILLEGAL_ACTION", {"rule": "something_new", "event": 1})
        assert (
            finding_text({"code": "ILLEGAL_ACTION", "message": "x", "params": {"rule": "something_new"}})
            == f"{CODE_LABELS['ILLEGAL_ACTION']}."
        )


def test_no_module_reads_a_findings_message_back_with_a_regular_expression():
    """The words come from code + params: no module of the apps matches the engine's sentences."""
    base = Path(settings.BASE_DIR)
    offenders = []
    for app in ("casino", "dealing", "audit", "drills", "books", "ledger"):
        for path in (base / app).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if "finding_shapes" in text or re.search(r"re\.\w+\([^)]*\.message", text):
                offenders.append(str(path.relative_to(base)))
    assert offenders == []
    assert not (base / "casino" / "finding_shapes.py").exists()


def test_a_drills_explanation_is_said_from_its_params_without_the_event():
    """The procedure drill keeps a wrong move's finding without its "Event n: " head (drills.moves.plain):
    its English is the sentence capitalised, and the same params say it in another language."""
    from drills.moves import plain
    from drills.templatetags.drill_tags import step_findings

    doc = json.loads((GOLDEN / "ochko" / "23-error-payment-order.json").read_text(encoding="utf-8"))["round"]
    finding = next(f for f in engine.replay(doc).findings if f.params.get("event") is not None)
    explain, params = plain(finding)
    assert "event" not in params and not explain.startswith("Event")
    assert finding.message.endswith(explain[1:])

    class Step:
        codes, messages = [finding.code], [explain]

    Step.params = [params]
    with translation.override("en"):
        assert step_findings(Step) == [explain]
    with translation.override("ru"):
        (said,) = step_findings(Step)
        assert said != explain and "Событие" not in said and said[:1].isupper()


def test_docs_list_every_codes_sentences():
    """docs/findings.md lists each (code, rule) the engine declares, so the params of each code are
    documented beside its code in the engine and once in the docs."""
    for name in engine.VARIANTS:
        engine.variant(name)
    doc = (Path(settings.BASE_DIR) / "docs" / "findings.md").read_text(encoding="utf-8")
    missing = [
        (code, rule)
        for code, rules in engine_sentences.SENTENCES.items()
        for rule in rules
        if f"| `{code}` | `{rule}` |" not in doc
    ]
    assert missing == []


def test_a_game_nights_own_findings_are_said_from_their_params():
    """The ledger's findings about a night (the bank dealt by the wrong player, a card out again before
    the pack ran out) carry params too: said in each language, in English as their message."""
    from dealing.engine.findings import Finding

    dealt_by = Finding(
        "BANK_SUCCESSION",
        "Round 3 was dealt by Beto, but the bank belonged to Ana.",
        params={"rule": "night_dealt_by", "n": 3, "bank": "Beto", "expected": "Ana"},
    )
    doc = json.loads((GOLDEN / "veintiuno" / "01-bank-stands-ties-go-to-bank.json").read_text())["round"]
    from ledger.tally import pack_findings

    pack = [f for found in pack_findings([doc, doc]).values() for f in found]
    assert pack, "the same round twice deals its cards twice from one pack"
    for finding in [dealt_by, *pack]:
        with translation.override("en"):
            assert finding_text(finding) == finding.message
        for language in LANGUAGES:
            with translation.override(language):
                text = finding_text(finding)
                assert text != finding.message and "%(" not in text
                assert not _english_left(text, doc), (language, text)
