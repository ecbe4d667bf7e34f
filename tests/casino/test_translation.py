"""The Russian translation: complete, faithful to its placeholders, compiled, and served.

The .po is read with a small parser (polib is not a dependency of the project); the compiled .mo
is read with Python's own gettext, the same catalogue format Django loads.
"""

import gettext
import re
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from casino.roles import DEALER
from tests.casino.pofile import Entry, parse_po
from tests.factories import TableFactory

LC_MESSAGES = Path(settings.BASE_DIR) / "locale" / "ru" / "LC_MESSAGES"
PO = LC_MESSAGES / "django.po"
MO = LC_MESSAGES / "django.mo"
RUSSIAN_PLURALS = (
    "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
)
# What must survive translation unchanged: %(name)s / %d / %% (python-format and templates),
# {name} (str.format), HTML tags and entities.
PLACEHOLDER = re.compile(
    r"%\([A-Za-z0-9_]+\)[-#0 +]*\d*(?:\.\d+)?[sdifr]|%%|%[sdifr]|\{[A-Za-z0-9_]*\}"
    r"|<[^>]+>|&[a-z]+;|&#\d+;"
)


def placeholders(text: str) -> Counter:
    return Counter(PLACEHOLDER.findall(text))


@pytest.fixture(scope="module")
def po_entries() -> list[Entry]:
    return parse_po(PO)


@pytest.fixture(scope="module")
def messages(po_entries) -> list[Entry]:
    return [e for e in po_entries if e.msgid]


# --- (a) the .po: complete, not fuzzy, placeholders kept ----------------------------------


def test_po_header_is_russian_with_three_plural_forms(po_entries):
    header = po_entries[0]
    assert header.msgid == "" and "fuzzy" not in header.flags
    fields = dict(line.split(": ", 1) for line in header.msgstr[0].splitlines() if ": " in line)
    assert fields["Language"] == "ru"
    assert fields["Content-Type"] == "text/plain; charset=UTF-8"
    assert fields["Plural-Forms"] == RUSSIAN_PLURALS


def test_po_holds_the_whole_ui(messages):
    # makemessages found about 1,500 strings; a much smaller file means a truncated catalogue.
    assert len(messages) > 1400
    ids = {e.msgid for e in messages}
    assert {"Log in", "Log out", "dark card", "Pit queue", "Audit dashboard"} <= ids


def test_every_entry_is_translated_and_none_is_fuzzy(messages):
    untranslated = [e.where for e in messages if not e.msgstr or any(not s.strip() for s in e.msgstr.values())]
    fuzzy = [e.where for e in messages if "fuzzy" in e.flags]
    assert untranslated == [] and fuzzy == []


def test_plural_entries_have_the_three_russian_forms(messages):
    wrong = [e.where for e in messages if e.msgid_plural is not None and sorted(e.msgstr) != [0, 1, 2]]
    singular_with_forms = [e.where for e in messages if e.msgid_plural is None and list(e.msgstr) != [0]]
    assert wrong == [] and singular_with_forms == []


def test_every_translation_keeps_the_placeholders_of_its_msgid(messages):
    broken = []
    for e in messages:
        sources = [placeholders(e.msgid)] + ([placeholders(e.msgid_plural)] if e.msgid_plural else [])
        for index, text in e.msgstr.items():
            if placeholders(text) not in sources:
                broken.append(
                    f"{e.where} [{index}]: {sorted(placeholders(text).elements())} "
                    f"instead of {sorted(sources[-1].elements())}"
                )
    assert broken == []


def test_leading_and_trailing_spaces_are_kept(messages):
    # Fragments such as " or " and ", then " are joined into sentences: their spaces matter.
    broken = [
        e.where
        for e in messages
        for text in e.msgstr.values()
        if (e.msgid[:1] == " ") != (text[:1] == " ") or (e.msgid[-1:] == " ") != (text[-1:] == " ")
    ]
    assert broken == []


def test_keyboard_letters_named_in_a_string_are_kept(messages):
    by_id = {e.msgid: e.msgstr[0] for e in messages if e.msgid_plural is None}
    for msgid, key in [
        ("Double: a second bet equal to the first, and exactly one card (key D)", "(клавиша D)"),
        ("Split the pair into two hands, a second bet equal to the first (key P)", "(клавиша P)"),
    ]:
        assert key in by_id[msgid]
    hand_keys = by_id[
        "in a hand's cards, before a card: H hit (type the card), S stand (next hand), "
        "D double (the next card is the double), P split the pair"
    ]
    assert all(f"{k} —" in hand_keys for k in "HSDP")
    assert all(f"{k} —" in by_id["in a result: pay, take, leave"] for k in "ptl")


# --- (b) the .mo is compiled from this .po --------------------------------------------------


def test_mo_is_compiled_from_the_current_po(messages):
    assert MO.exists(), "run: manage.py compilemessages -l ru"
    with MO.open("rb") as fh:
        catalogue = gettext.GNUTranslations(fh)
    assert catalogue.info()["plural-forms"] == RUSSIAN_PLURALS
    stale = []
    for e in messages:
        if e.msgid_plural is None:
            got = catalogue.pgettext(e.msgctxt, e.msgid) if e.msgctxt is not None else catalogue.gettext(e.msgid)
            if got != e.msgstr[0]:
                stale.append(e.where)
            continue
        # 1 → form 0, 3 → form 1, 5 → form 2, 21 → form 0, 12 → form 2
        for n, form in ((1, 0), (3, 1), (5, 2), (21, 0), (12, 2)):
            got = (
                catalogue.npgettext(e.msgctxt, e.msgid, e.msgid_plural, n)
                if e.msgctxt is not None
                else catalogue.ngettext(e.msgid, e.msgid_plural, n)
            )
            if got != e.msgstr[form]:
                stale.append(f"{e.where} n={n}")
    assert stale == [], "the .mo is older than the .po: run manage.py compilemessages -l ru"


# --- (c) the pages speak Russian --------------------------------------------------------------


def test_django_serves_the_russian_catalogue():
    with translation.override("ru"):
        assert translation.gettext("Log in") == "Войти"
        assert translation.gettext("Pit boss") == "Старший по питу"
        assert translation.ngettext("%(counter)s table", "%(counter)s tables", 3) == "%(counter)s стола"
    with translation.override("en"):
        assert translation.gettext("Log in") == "Log in"


@pytest.mark.django_db
def test_login_page_in_russian_by_accept_language(client):
    html = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert '<html lang="ru">' in html
    assert "Войти" in html
    assert "Дилеры, инспекторы, старшие по питу, аудиторы и стажёры входят под своей учётной записью зала." in html
    assert "Dealers, inspectors, pit bosses" not in html


@pytest.mark.django_db
def test_login_page_stays_english_by_default(client):
    html = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Log in" in html and "Войти" not in html


def test_floor_page_in_russian_by_cookie(client_for, floor):
    client = client_for(DEALER)
    client.cookies["django_language"] = "ru"
    response = client.get(reverse("casino:floor"))
    html = response.content.decode()
    assert response.headers["Content-Language"] == "ru"
    assert "Питы и столы, где вы работаете" in html
    assert "Лимиты Ante" in html
    assert "6 боксов" in html  # plural form 2 of "%(counter)s box"
    assert "Выйти" in html
    assert "Pits and tables you work in" not in html and "Log out" not in html


def test_tables_page_in_russian(client_for, floor):
    TableFactory(name="R-3", pit=floor.pit_a)
    client = client_for(DEALER)
    client.cookies["django_language"] = "ru"
    html = client.get(reverse("dealing:table_list")).content.decode()
    assert "Столы ваших питов" in html
    assert "The tables of your pits" not in html


def test_round_form_in_russian(client_for, floor):
    client = client_for(DEALER)
    html = client.get(
        reverse("dealing:round_new", args=[floor.table_a.name]), HTTP_ACCEPT_LANGUAGE="ru"
    ).content.decode()
    assert "Ставка на дилера" in html
    assert "Втемную" in html
    assert "Bet и Ante оплачиваются 1 к 1" in html
