"""The demo floor's dealing: shoes with burns, a few hundred chained and audited rounds (some with a
dealer's mistake), incidents and a correction for pitboss1; running it twice adds nothing."""

import io

import pytest
from django.core.management import call_command

from dealing import engine, selectors
from dealing.choices import AuditStatus, IncidentStatus, RoundStatus
from dealing.incident_models import IncidentReview
from dealing.models import Approval, Incident, Round, Shoe, ShoeEvent, Stake

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def _counts():
    return [m.objects.count() for m in (Shoe, ShoeEvent, Round, Stake, Incident, Approval, IncidentReview)]


def test_the_demo_floor_deals_rounds_once(settings, django_capture_on_commit_callbacks):
    settings.DEBUG = True
    with django_capture_on_commit_callbacks(execute=True):  # the audits run once the load commits
        call_command("demo_floor", stdout=io.StringIO())
    rounds = Round.objects.all()
    assert rounds.count() >= 300
    assert set(rounds.values_list("table__name", flat=True)) == {
        "R-1",
        "R-2",
        "R-3",
        "Escribas",
        "Sacerdotes",
        "Faraón",
        "Online-1",
        "Casa-21",
    }
    assert set(rounds.values_list("dealer__username", flat=True)) == {"dealer1"}
    if settings.CELERY_TASK_ALWAYS_EAGER:  # audited in-process; with a broker the worker does it
        assert not rounds.filter(status=RoundStatus.RECORDED, audit_status=AuditStatus.PENDING).exists()
        assert rounds.filter(audit_status=AuditStatus.FINDINGS).count() >= 5
    out = io.StringIO()
    call_command("verify_chain", stdout=out)
    assert out.getvalue().startswith("chain intact")

    # Ochko shoes start with six burns and judge clean as the engine sees them (mistakes are in rounds).
    shoe = Shoe.objects.filter(table__name="R-1").order_by("number").first()
    assert list(shoe.events.order_by("position").values_list("kind", flat=True)[:7]) == ["shuffle"] + ["burn"] * 6
    codes = {f.code for f in engine.check_shoe(selectors.shoe_document(shoe=shoe))}
    assert "BURN_COUNT" not in codes and "CARD_COUNT" not in codes

    pitboss = Round.objects.get(status=RoundStatus.PENDING).logged_by
    from django.contrib.auth import get_user_model

    boss = get_user_model().objects.get(username="pitboss1")
    assert pitboss.username == "dealer1"
    assert selectors.pending_amendments(user=boss).count() == 1
    assert selectors.pending_incidents(user=boss).count() == 1
    assert set(Incident.objects.values_list("status", flat=True)) == {
        IncidentStatus.APPROVED,
        IncidentStatus.REJECTED,
        IncidentStatus.REPORTED,
    }

    # Surveillance's file: one review signed off by a second person, one waiting for its second reviewer.
    reviews = {r.incident.table.name: r for r in IncidentReview.objects.select_related("incident__table")}
    assert set(reviews) == {"R-1", "Escribas"}
    assert reviews["R-1"].signed_off and reviews["R-1"].second_by.username == "auditor1"
    assert not reviews["Escribas"].signed_off and reviews["Escribas"].reviewed_by.username == "pitboss1"

    before = _counts()
    call_command("demo_floor", stdout=io.StringIO())
    assert _counts() == before
