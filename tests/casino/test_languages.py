"""The four languages: every catalogue complete and compiled, and the key pages with no English left.

"English left" is concrete: a page is rendered in Spanish, Brazilian Portuguese and Russian as the
role that uses it, its visible text is read (script, style and the stored round/1 log in <pre> left
out: the log is data in the format's own words), and no word of ENGLISH_WORDS may appear in it. The
list holds the words the English pages are made of (the navigation, the tables, the findings and
verdicts the engine writes, the drills' explanations); each is a word none of the three translations
uses, so a hit is an untranslated string, an engine sentence shown as it is, or a date in English.
"""

import gettext
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from casino.finding_words import finding_text, verdict_text
from casino.roles import TRAINEE
from tests.audit.conftest import golden_round, people  # noqa: F401 (fixtures)
from tests.casino.pofile import parse_po
from tests.ledger.conftest import casa, night  # noqa: F401 (fixtures)

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = {  # Django's code → the locale directory, its plural forms
    "es": ("es", "nplurals=2; plural=(n != 1);"),
    "pt-br": ("pt_BR", "nplurals=2; plural=(n > 1);"),
    "ru": (
        "ru",
        "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    ),
}
PLACEHOLDER = re.compile(
    r"%\([A-Za-z0-9_]+\)[-#0 +]*\d*(?:\.\d+)?[sdifr]|%%|%[sdifr]|\{[A-Za-z0-9_]*\}"
    r"|<[^>]+>|&[a-z]+;|&#\d+;"
)

ENGLISH_WORDS = {
    # navigation, headings, buttons
    "the",
    "and",
    "of",
    "with",
    "your",
    "you",
    "log",
    "out",
    "tables",
    "table",
    "rounds",
    "round",
    "dealer",
    "dealers",
    "shoe",
    "shoes",
    "findings",
    "finding",
    "dashboard",
    "queue",
    "incidents",
    "drills",
    "drill",
    "progress",
    "ledger",
    "save",
    "check",
    "every",
    "played",
    "owed",
    "logged",
    "stake",
    "wager",
    "hand",
    "paid",
    "taken",
    "left",
    "settled",
    "never",
    "should",
    "been",
    "was",
    "were",
    "is",
    "are",
    "not",
    "dark",
    "card",
    "cards",
    "open",
    "confirmed",
    "dismissed",
    "critical",
    "major",
    "minor",
    "player",
    "players",
    "results",
    "right",
    "wrong",
    "next",
    "previous",
    "page",
    "filter",
    "filters",
    "clear",
    "export",
    "period",
    "days",
    "severity",
    "status",
    "code",
    "message",
    "where",
    "when",
    "what",
    "why",
    "start",
    "started",
    "finished",
    "accuracy",
    "standard",
    "standards",
    "trainee",
    "trainees",
    "move",
    "moves",
    "step",
    "night",
    "nights",
    "balances",
    "who",
    "pays",
    "whom",
    "language",
    # the engine's sentences and verdicts
    "box",
    "wins",
    "loses",
    "beats",
    "tie",
    "ties",
    "busts",
    "bust",
    "stands",
    "drew",
    "dealt",
    "before",
    "after",
    "only",
    "outside",
    "limits",
    "burned",
    "shuffle",
    "event",
    "item",
    "returned",
    "float",
    "insurance",
    "double",
    "split",
    "natural",
    "bank",
    "push",
    "soft",
    # dates in English
    "jan",
    "feb",
    "mar",
    "apr",
    "may",
    "jun",
    "jul",
    "aug",
    "sep",
    "oct",
    "nov",
    "dec",
    "january",
    "february",
    "march",
    "april",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
}
# Words an English page shares with a translation: Brazilian Portuguese keeps "box" and "status",
# and "natural" is the Spanish and Portuguese word too.
SHARED = {"pt-br": {"box", "natural", "status"}, "es": {"natural"}, "ru": set()}


class VisibleText(HTMLParser):
    """The text a reader sees: no script, style, template, pre (the round/1 log) or code."""

    HIDDEN = {"script", "style", "template", "pre", "code", "noscript"}

    def __init__(self):
        super().__init__()
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self.depth += 1

    def handle_endtag(self, tag):
        if tag in self.HIDDEN and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if not self.depth and data.strip():
            self.parts.append(data.strip())


# A word on its own: not part of a code (WRONG_AMOUNT), a username or badge (dealer-a, D-4), a format's
# name (round/1) or a table's name.
WORD = re.compile(r"(?<![\w/-])[A-Za-z]+(?![\w/-])")


def english_left(html: str, language: str, names=()) -> list[str]:
    """The visible texts of a page holding a word of ENGLISH_WORDS (`names`: people's names, not words).

    A name counts word by word: a factory's "April Jordan" is a person, not a month left in English."""
    parser = VisibleText()
    parser.feed(html)
    words = ENGLISH_WORDS - SHARED[language] - {w.lower() for n in names for w in WORD.findall(n)}
    return [text for text in parser.parts if any(w.lower() in words for w in WORD.findall(text))]


# --- (a) the catalogues: complete, compiled ----------------------------------------------------


@pytest.fixture(scope="module", params=sorted(LANGUAGES))
def catalogue(request):
    directory, plurals = LANGUAGES[request.param]
    po = LOCALE / directory / "LC_MESSAGES" / "django.po"
    return request.param, directory, plurals, parse_po(po)


def test_every_language_is_offered():
    assert [code for code, _ in settings.LANGUAGES] == ["en", "es", "pt-br", "ru"]


def test_catalogue_header(catalogue):
    code, directory, plurals, entries = catalogue
    header = entries[0]
    fields = dict(line.split(": ", 1) for line in header.msgstr[0].splitlines() if ": " in line)
    assert header.msgid == "" and "fuzzy" not in header.flags
    assert fields["Language"] == directory and fields["Plural-Forms"] == plurals


def test_catalogue_is_complete_without_fuzzy_entries(catalogue):
    code, directory, plurals, entries = catalogue
    messages = [e for e in entries if e.msgid]
    forms = int(re.search(r"nplurals=(\d)", plurals).group(1))
    assert len(messages) > 1500
    untranslated = [e.where for e in messages if not e.msgstr or any(not s.strip() for s in e.msgstr.values())]
    fuzzy = [e.where for e in messages if "fuzzy" in e.flags]
    wrong_forms = [e.where for e in messages if e.msgid_plural is not None and sorted(e.msgstr) != list(range(forms))]
    assert (untranslated, fuzzy, wrong_forms) == ([], [], [])


def test_catalogue_keeps_placeholders_and_edge_spaces(catalogue):
    code, directory, plurals, entries = catalogue
    broken = []
    for e in entries:
        if not e.msgid:
            continue
        sources = [sorted(PLACEHOLDER.findall(e.msgid))]
        if e.msgid_plural:
            sources.append(sorted(PLACEHOLDER.findall(e.msgid_plural)))
        for text in e.msgstr.values():
            if sorted(PLACEHOLDER.findall(text)) not in sources:
                broken.append(f"{e.where}: {text!r}")
            if (e.msgid[:1] == " ") != (text[:1] == " ") or (e.msgid[-1:] == " ") != (text[-1:] == " "):
                broken.append(f"{e.where}: spaces of {text!r}")
    assert broken == []


def test_compiled_catalogue_matches_the_po(catalogue):
    code, directory, plurals, entries = catalogue
    with (LOCALE / directory / "LC_MESSAGES" / "django.mo").open("rb") as fh:
        compiled = gettext.GNUTranslations(fh)
    stale = [
        e.where
        for e in entries
        if e.msgid
        and e.msgid_plural is None
        and (compiled.pgettext(e.msgctxt, e.msgid) if e.msgctxt else compiled.gettext(e.msgid)) != e.msgstr[0]
    ]
    assert stale == [], f"run manage.py compilemessages -l {directory}"


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext's msgfmt is not installed")
def test_msgfmt_counts_no_untranslated_or_fuzzy_entry(catalogue):
    code, directory, plurals, entries = catalogue
    po = LOCALE / directory / "LC_MESSAGES" / "django.po"
    out = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po)], capture_output=True, text=True, check=True
    )
    assert re.fullmatch(r"\d+ translated messages\.\n", out.stderr), out.stderr


# --- (b) the engine's words, by code -------------------------------------------------------------

GOLDEN_FINDINGS = [
    (
        "WRONG_AMOUNT",
        "Box 1, stake 1a: Bet paid 100, owed 300 — box 19 wins; the dealer has 17.",
        {
            "es": "Casilla 1, posición 1a, Bet: se pagó 100; se debían 300 — la casilla gana con 19; el crupier tiene 17.",
            "pt-br": "Box 1, posição 1a, Bet: foi pago 100; eram devidos 300 — o box ganha com 19; o crupiê tem 17.",
            "ru": "Бокс 1, позиция 1a, Bet: выплачено 100, положено 300 — бокс выигрывает с 19; у дилера 17.",
        },
    ),
    (
        "WRONG_RESULT",
        "Box 1, stake 1: insurance paid 200; it should have been taken (100) — the dealer has no blackjack.",
        {
            "es": "Casilla 1, posición 1, seguro: pagado 200; lo debido: recogido (100) — el crupier no tiene blackjack.",
            "pt-br": "Box 1, posição 1, seguro: pago 200; o devido: recolhido (100) — o crupiê não tem blackjack.",
            "ru": "Бокс 1, позиция 1, страховка: выплачено 200; положено: забрано (100) — у дилера нет блэкджека.",
        },
    ),
    (
        "PAYMENT_ORDER",
        "Event 14: box 5 was settled after box 1; settlement goes from box 6 down to box 1.",
        {
            "es": "Evento 14: La casilla 5 se liquidó después de la casilla 1; la liquidación va de la casilla 6 a la "
            "casilla 1.",
            "pt-br": "Evento 14: O box 5 foi liquidado depois do box 1; a liquidação vai do box 6 ao box 1.",
            "ru": "Событие 14: Бокс 5 рассчитан после бокса 1; расчёт идёт с 6-го бокса к 1-му.",
        },
    ),
]


def _golden_finding(message: str) -> dict:
    """The golden round's finding with this English message (its params included)."""
    import json

    from dealing import engine

    for path in sorted((Path(settings.BASE_DIR) / "tests" / "golden").glob("*/*.json")):
        for f in engine.settle(json.dumps(json.loads(path.read_text())["round"]))["findings"]:
            if f["message"] == message:
                return f
    raise AssertionError(f"no golden finding says {message!r}")


@pytest.mark.parametrize("code, message, expected", GOLDEN_FINDINGS)
def test_findings_are_rendered_by_code_in_each_language(code, message, expected):
    """From code and params (casino/finding_words.py); every golden finding in every language is
    tests/casino/test_finding_words.py's."""
    finding = _golden_finding(message)
    assert finding["code"] == code
    for language, text in expected.items():
        with translation.override(language):
            assert finding_text(finding) == text
    with translation.override("en"):
        assert finding_text(finding) == message


def test_a_finding_without_params_falls_back_to_the_codes_meaning():
    finding = {"code": "ILLEGAL_ACTION", "message": "Event 3: something the engine said before params."}
    with translation.override("es"):
        assert finding_text(finding) == "Una jugada que las reglas no permiten."
    with translation.override("ru"):
        assert verdict_text("a verdict kept without its phrase") == ""


# --- (c) the pages, as each role, in each language --------------------------------------------


@pytest.fixture
def pages(people, golden_round, floor, client, make_user):  # noqa: F811
    """The key pages and who reads them: a round with findings (ochko and blackjack), the audit."""
    ochko = golden_round("ochko/" + _golden_with_findings("ochko"))
    blackjack = golden_round("blackjack/" + _golden_with_findings("blackjack"))
    return [
        (people.dealer, reverse("dealing:table_list")),
        (people.dealer, reverse("casino:floor")),
        (people.dealer, reverse("dealing:round_detail", kwargs={"pk": ochko.pk})),
        (people.dealer, reverse("dealing:round_new", args=[floor.table_a.name])),
        (people.pit_boss, reverse("dealing:round_detail", kwargs={"pk": blackjack.pk})),
        (people.pit_boss, reverse("dealing:pit_queue")),
        (people.pit_boss, reverse("drills:trainees")),
        (people.dealer, reverse("ledger:session_list")),
        (people.auditor, reverse("audit:dashboard")),
        (people.auditor, reverse("audit:finding_list")),
        (people.auditor, reverse("audit:round_replay", args=[ochko.pk])),
        (people.auditor, reverse("audit:round_replay", args=[blackjack.pk])),
        (people.auditor, reverse("audit:run_list")),
        (people.dealer, reverse("dealing:incident_list")),
        (people.dealer, reverse("dealing:shoe", args=[floor.table_a.name])),
        (people.pit_boss, reverse("drills:standards")),
    ]


def _golden_with_findings(variant: str) -> str:
    """The first golden case of a game whose round the engine finds fault with."""
    import json

    from dealing import engine

    for path in sorted((Path(settings.BASE_DIR) / "tests" / "golden" / variant).glob("*.json")):
        doc = json.loads(path.read_text())["round"]
        try:
            if any(f.code.startswith("WRONG") for f in engine.replay(doc).findings):
                return path.stem
        except Exception:  # noqa: BLE001 - a golden case of an unreadable round
            continue
    raise AssertionError(f"no golden {variant} round with a wrong payment")


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_key_pages_have_no_english_left(client, pages, language):
    from django.contrib.auth import get_user_model

    usernames = {
        name
        for person in get_user_model().objects.values_list("username", "first_name", "last_name")
        for name in person
    }
    left = {}
    for user, url in pages:
        client.force_login(user)
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers["Content-Language"] == language
        found = english_left(response.content.decode(), language, names=usernames)
        if found:
            left[url] = found
    assert left == {}, "\n".join(f"{url}: {texts}" for url, texts in left.items())


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_a_drill_and_its_explanation_have_no_english_left(client, make_user, language):
    trainee = make_user(TRAINEE)
    client.force_login(trainee)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.post(
        reverse("drills:start"),
        {
            "game": "ochko",
            "kind": "procedure",
            "table": "r100",
            "rounds": "1",
            "incidents": "every",
            "incident_kinds": ["dealer_card_exposed"],
            "seed": "8",
        },
    )
    from drills.models import Drill

    drill = Drill.objects.get(trainee=trainee)
    client.get(reverse("drills:play", args=[drill.pk]))  # deals the round
    # Right moves up to the first step with a wrong move the engine explains (a finding), then that move.
    for k, step in enumerate(drill.rounds.get().script["steps"]):
        wrong = next((c for c in step["choices"] if not c["correct"] and c.get("engine")), None)
        choice = wrong or next(c for c in step["choices"] if c["correct"])
        client.post(reverse("drills:answer", args=[drill.pk]), {"round": "1", "step": str(k), "choice": choice["key"]})
        if wrong is not None:
            break
    assert wrong is not None
    html = client.get(reverse("drills:play", args=[drill.pk])).content.decode()
    assert 'class="why"' in html  # the explanation of the wrong move is on the page
    for url in (reverse("drills:play", args=[drill.pk]), reverse("drills:home"), reverse("drills:my_progress")):
        # The trainee's generated name is data, not the page's words (a "May" in it is no English).
        names = (trainee.username, trainee.get_full_name(), trainee.first_name, trainee.last_name)
        assert english_left(client.get(url).content.decode(), language, names=names) == [], url


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_a_payout_drills_review_has_no_english_left(client, make_user, floor, language):
    from drills import services
    from tests.factories import DrillFactory

    trainee = make_user(TRAINEE, pits=[floor.pit_a])
    client.force_login(trainee)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    drill = DrillFactory(trainee=trainee, rounds_planned=2, seed=12)
    client.get(reverse("drills:play", args=[drill.pk]))
    current = drill.rounds.get(number=1)
    post = {"round": "1"}
    for k, _line in enumerate(current.script["sheet"]):  # every wager paid far too much: findings
        post[f"r{k}_result"] = "pay"
        post[f"r{k}_amount"] = "999999"
    review = client.get(client.post(reverse("drills:answer", args=[drill.pk]), post)["Location"])
    html = review.content.decode()
    assert "WRONG_" in html  # the findings are on the page, by code
    names = (trainee.username, trainee.get_full_name())
    assert english_left(html, language, names=names) == []
    services.drill_next(drill=drill, user=trainee)
    results = client.get(reverse("drills:results", args=[drill.pk])).content.decode()
    assert english_left(results, language, names=names) == []


CHECKED_WRONG_PAYOUT = {
    "es": "Casilla 1, posición 1a, Bet: se pagó 200; se debían 300",
    "pt-br": "Box 1, posição 1a, Bet: foi pago 200; eram devidos 300",
    "ru": "Бокс 1, позиция 1a, Bet: выплачено 200, положено 300",
}


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_round_forms_check_speaks_the_dealers_language(client, people, floor, language):  # noqa: F811
    from tests.dealing.test_pages import round_data

    client.force_login(people.dealer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.post(
        reverse("dealing:round_new", args=[floor.table_a.name]), {**round_data(s1a_bet_amount="200"), "action": "check"}
    )
    html = response.content.decode()
    assert CHECKED_WRONG_PAYOUT[language] in html  # the check panel and the field's own finding
    usernames = {people.dealer.get_username(), people.dealer.get_full_name()}
    assert english_left(html, language, names=usernames) == []


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_ledger_of_a_night_has_no_english_left(client, casa, night, language):  # noqa: F811
    from tests.ledger.test_views import form

    session = night()
    client.force_login(casa.dealer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    url = reverse("ledger:session_list")
    new_round = f"/ledger/{session.pk}/rounds/new/"
    checked = client.post(new_round, {**form(), "action": "check"})
    data = {
        **form(),
        "pay_1_result": "pay",
        "pay_1_amount": "10",
        "pay_2_result": "take",
        "pay_2_amount": "5",
        "bank_to": "Ana",
        "action": "save",
    }
    assert client.post(new_round, data).status_code == 302
    names = {casa.dealer.get_username(), casa.dealer.get_full_name()}
    for page in (
        checked,
        client.get(url),
        client.get(f"/ledger/{session.pk}/"),
        client.get(f"/ledger/{session.pk}/rounds/1/"),
    ):
        assert page.status_code == 200
        assert english_left(page.content.decode(), language, names=names) == [], page.request["PATH_INFO"]


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_switching_language_keeps_the_page(client, people, language):  # noqa: F811
    client.force_login(people.dealer)
    page = reverse("dealing:table_list")
    response = client.post(reverse("set_language"), {"language": language, "next": page})
    assert response.status_code == 302 and response["Location"] == page
    html = client.get(page).content.decode()
    assert f'<html lang="{language}">' in html
    assert "onchange" not in html  # the switcher is submitted by a static script (no inline script)
