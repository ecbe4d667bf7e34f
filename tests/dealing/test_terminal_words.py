"""The terminal's own words in every language the floor speaks: nothing left in English but the
seed's own terms, no word said twice ("ставка ставка"), HALT and stand never the same word, and
each game's wager by its own name (ochko's Bet is seed 004's "Bet"; blackjack's bet is an apuesta)."""

import re

import pytest
from django.utils import translation

from dealing.games import terminal as term
from dealing.views.terminal import terminal_words
from tests.dealing.test_terminal import EVENTS, PAYMENTS, STAKES, client_of, post, urls

LANGUAGES = ("ru", "es", "pt-br")
# Words that are the same in the floor's language, and why.
SAME = {
    ("ru", "fields.ante"),  # seed 004 writes Ante and Bet as the table calls them ("Аntе", "Веt")
    ("ru", "fields.bet"),
    ("es", "fields.ante"),
    ("es", "fields.bet"),
    ("pt-br", "fields.ante"),
    ("pt-br", "fields.bet"),
    ("ru", "keys.multiple"),  # "Bet 2 × Ante": the two seed terms and numbers
    ("ru", "keys.enterGo"),  # "Enter — %(what)s": a key and what it does, already translated
    ("pt-br", "keys.enterGo"),
    ("pt-br", "box"),  # "Box": the Brazilian floor's word (seed 001)
    ("es", "clock.seconds"),  # "%(s)s s": the second's symbol, s in Spanish and Portuguese too
    ("pt-br", "clock.seconds"),
    # Veintiuno's own words stay the Spanish of seed 000 in every language (docs/languages.md).
    *((language, key) for language in ("ru", "es", "pt-br") for key in ("events.tapo", "events.puje")),
}


def flat(words, prefix=""):
    for k, v in words.items():
        if isinstance(v, dict):
            yield from flat(v, f"{prefix}{k}.")
        else:
            yield prefix + k, str(v)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_terminal_word_is_left_in_english(language):
    game = term.game_of("ochko")
    with translation.override("en"):
        english = dict(flat(terminal_words(game)))
    with translation.override(language):
        own = dict(flat(terminal_words(game)))
    left = sorted(k for k in english if own[k] == english[k] and (language, k) not in SAME)
    assert not left, [(k, own[k]) for k in left]


@pytest.mark.parametrize("language", LANGUAGES)
def test_halt_and_stand_are_two_words(language):
    with translation.override(language):
        words = terminal_words(term.game_of("ochko"))
        halt = words["halt"].casefold()
        stand = words["keys"]["stand"].split("—")[-1].strip().casefold()
        stand_key = translation.gettext("S stand").casefold()
    assert halt not in stand and stand not in halt and halt not in stand_key


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_prompt_says_a_word_twice(staff, tables, language):
    c = client_of(staff.dealer)
    c.cookies["django_language"] = language
    log = EVENTS + PAYMENTS
    labels = []
    for n in (4, len(EVENTS), *range(len(EVENTS), len(log))):
        answer = post(c, urls(tables.ochko)["next"], {"stakes": STAKES, "events": log[:n]}).json()
        labels += [m["label"] for m in answer["moves"]] + [w["label"] for w in answer["owed"]]
    twice = [t for t in labels if re.search(r"\b(\w+)\s+\1\b", t, flags=re.IGNORECASE)]
    assert labels and not twice, twice


@pytest.mark.django_db
@pytest.mark.parametrize("language, word", [("es", "Apuesta"), ("pt-br", "Aposta"), ("ru", "Ставка")])
def test_blackjacks_bet_is_said_in_the_floors_language(staff, tables, language, word):
    c = client_of(staff.pitboss)
    c.cookies["django_language"] = language
    page = c.get(urls(tables.salon)["page"]).content.decode()
    assert f'<th scope="col">{word}</th>' in page
