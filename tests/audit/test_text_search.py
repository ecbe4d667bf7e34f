"""The findings' text filter (`?q=`): what it finds, and on PostgreSQL the index it reads.

The filter searches a finding's message, code and stake as one expression (audit/filters.py,
SearchText) so that the trigram index of audit/0007 serves it; if the filter's SQL and the index's
expression ever drift apart, the index is silently unused and the page grows with the findings
again: the PostgreSQL test asks the planner."""

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from audit.filters import FindingFilter
from audit.models import Finding

pytestmark = pytest.mark.django_db


def _findings(people, floor, log_rounds, eager):
    log_rounds(floor.table_a, people.dealer, n=30, seed=51, mistake_rate=0.6)
    template = Finding.objects.exclude(round=None).first()
    assert template is not None, "the seeded rounds gave no finding"
    made = {}
    for key, message, code, stake in [
        ("message", "Paid the ante twice on box 2", "WRONG_AMOUNT", "box 2 ante"),
        ("code", "a plain message", "BURN_MISSING", ""),
        ("stake", "another plain message", "WRONG_AMOUNT", "box 5 dealer_bet"),
        ("percent", "a 100% payout on box 4", "WRONG_AMOUNT", ""),
        ("cyrillic", "Дилер выплатил лишнее", "WRONG_AMOUNT", ""),
    ]:
        made[key] = Finding.objects.create(
            round=template.round,
            table=template.table,
            dealer=template.dealer,
            played_at=template.played_at,
            code=code,
            severity=template.severity,
            stake=stake,
            message=message,
            engine_version="t",
            fingerprint=f"search-{key}",
        )
    return made


def _search(people, value) -> set[int]:
    filterset = FindingFilter({"q": value}, queryset=Finding.objects.all(), user=people.auditor)
    assert filterset.is_valid(), filterset.errors
    return set(filterset.qs.values_list("pk", flat=True))


def test_the_text_filter_finds_message_code_and_stake_case_insensitively(people, floor, log_rounds, eager):
    made = _findings(people, floor, log_rounds, eager)
    assert made["message"].pk in _search(people, "ANTE TWICE")
    assert made["code"].pk in _search(people, "burn_miss")
    assert _search(people, "box 5 dealer_bet") == {made["stake"].pk}
    assert _search(people, "twice on box 2") == {made["message"].pk}
    # `%` and `_` are the user's characters, not patterns.
    assert _search(people, "100%") == {made["percent"].pk}
    assert made["percent"].pk not in _search(people, "1_0")
    assert _search(people, "no finding says this") == set()
    # Blank is no filter.
    assert len(_search(people, "   ")) == Finding.objects.count()


def test_the_findings_page_filters_by_text(people, floor, log_rounds, eager):
    made = _findings(people, floor, log_rounds, eager)
    client = Client()
    client.force_login(people.auditor)
    page = client.get(reverse("audit:finding_list"), {"q": "ante twice"}).context["page"]
    assert [f.pk for f in page] == [made["message"].pk]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the trigram index is PostgreSQL's")
def test_on_postgresql_the_text_filter_reads_the_trigram_index(people, floor, log_rounds, eager):
    made = _findings(people, floor, log_rounds, eager)
    assert _search(people, "дилер") == {made["cyrillic"].pk}  # PostgreSQL's UPPER knows Cyrillic
    filterset = FindingFilter({"q": "ante twice"}, queryset=Finding.objects.all(), user=people.auditor)
    assert filterset.is_valid()
    with connection.cursor() as cursor:
        # A table this small is read whole (or walked by time) by choice; without those choices
        # the index must serve the filter's own expression.
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_indexscan = off")
        sql, params = filterset.qs.order_by().values("pk").query.sql_with_params()
        cursor.execute(f"EXPLAIN {sql}", params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "finding_text_trgm" in plan, plan


def test_a_search_that_matches_nothing_says_so(people, floor, log_rounds, eager):
    _findings(people, floor, log_rounds, eager)
    client = Client()
    client.force_login(people.auditor)
    html = client.get(reverse("audit:finding_list"), {"q": "no finding says this"}).content.decode()
    assert "No findings match these filters." in html
