"""The bell, the notifications page and the API: every floor role reads and marks his own rows
only; another user's row is a 404; trainees and anonymous callers are refused."""

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from notifications import services
from notifications.kinds import Kind
from notifications.models import Notification

pytestmark = pytest.mark.django_db

FLOOR = ["dealer", "inspector", "pitboss", "pitboss_c", "auditor", "admin"]


def tell(user, n=1, kind=Kind.CHAIN_FAILED):
    for k in range(n):
        services.notify(kind=kind, recipients=[user], params={"check": "verification", "message": f"break {k}"})


@pytest.mark.parametrize("who", FLOOR)
def test_each_floor_role_sees_his_own_rows_and_bell_only(staff, who):
    user, other = getattr(staff, who), staff.dealer2
    tell(user, 2)
    tell(other, 3)
    mine = Notification.objects.filter(recipient=user).first()
    theirs = Notification.objects.filter(recipient=other).first()
    page = Client()
    page.force_login(user)
    html = page.get(reverse("notifications:list")).content.decode()
    assert html.count('data-notification="') == 2 and "break 0" in html
    assert "data-bell-count>2<" in html  # the bell in the bar
    # Another's row: 404, and it stays unread.
    assert page.post(reverse("notifications:read", args=[theirs.pk])).status_code == 404
    theirs.refresh_from_db()
    assert theirs.read_at is None
    api = APIClient()
    api.force_login(user)
    body = api.get("/api/v1/notifications/").json()
    assert [r["id"] for r in body["results"]] == list(
        Notification.objects.filter(recipient=user).values_list("pk", flat=True)
    )
    assert api.get("/api/v1/notifications/unread-count/").json() == {"unread": 2}
    assert api.post(f"/api/v1/notifications/{theirs.pk}/read/").status_code == 404
    answer = api.post(f"/api/v1/notifications/{mine.pk}/read/")
    assert answer.status_code == 200 and answer.json()["read_at"]
    assert api.get("/api/v1/notifications/unread-count/").json() == {"unread": 1}
    assert api.get("/api/v1/notifications/?unread=1").json()["results"][0]["id"] != mine.pk
    assert api.post("/api/v1/notifications/read-all/").json() == {"marked": 1}
    assert Notification.objects.filter(recipient=other, read_at__isnull=True).count() == 3


def test_the_page_marks_one_and_all_read_by_post_with_csrf(staff):
    tell(staff.pitboss, 3)
    page = Client(enforce_csrf_checks=True)
    page.force_login(staff.pitboss)
    first = Notification.objects.filter(recipient=staff.pitboss).first()
    assert page.post(reverse("notifications:read", args=[first.pk])).status_code == 403  # no CSRF token
    assert page.get(reverse("notifications:read", args=[first.pk])).status_code == 405
    page = Client()
    page.force_login(staff.pitboss)
    page.post(reverse("notifications:read", args=[first.pk]))
    assert Notification.objects.filter(recipient=staff.pitboss, read_at__isnull=True).count() == 2
    page.post(reverse("notifications:read_all"))
    assert Notification.objects.filter(recipient=staff.pitboss, read_at__isnull=True).count() == 0
    assert "data-bell-count>0<" in page.get(reverse("notifications:list")).content.decode()


def test_the_list_is_paged(staff):
    tell(staff.auditor, 30)
    page = Client()
    page.force_login(staff.auditor)
    first = page.get(reverse("notifications:list")).content.decode()
    second = page.get(reverse("notifications:list") + "?page=2").content.decode()
    assert first.count('data-notification="') == 25 and second.count('data-notification="') == 5
    assert "break 29" in first and "break 0" in second


@pytest.mark.parametrize("who", ["trainee", "nobody"])
def test_trainees_and_users_without_a_role_are_refused(staff, who):
    user = getattr(staff, who)
    page = Client()
    page.force_login(user)
    assert page.get(reverse("notifications:list")).status_code == 403
    assert page.get(reverse("notifications:preferences")).status_code == 403
    tell(user)  # even a row of his own (he held a floor role once) is not his to read now
    own = Notification.objects.get(recipient=user)
    assert page.post(reverse("notifications:read", args=[own.pk])).status_code == 403
    assert page.post(reverse("notifications:read_all")).status_code == 403
    assert "data-bell" not in page.get(reverse("login")).content.decode()
    api = APIClient()
    api.force_login(user)
    assert api.get("/api/v1/notifications/").status_code == 403
    assert api.post(f"/api/v1/notifications/{own.pk}/read/").status_code == 403
    assert api.post("/api/v1/notifications/read-all/").status_code == 403
    assert Notification.objects.get(pk=own.pk).read_at is None


def test_anonymous_is_sent_to_the_login_or_gets_401(staff):
    assert Client().get(reverse("notifications:list")).status_code == 302
    assert APIClient().get("/api/v1/notifications/").status_code == 401
    assert APIClient().get("/api/v1/notifications/unread-count/").status_code == 401
    assert APIClient().post("/api/v1/notifications/read-all/").status_code == 401
    response = Client().post(reverse("notifications:read_all"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_bell_costs_one_query(staff, django_assert_max_num_queries):
    tell(staff.pitboss, 3)
    from notifications.context_processors import bell
    from notifications.selectors import unread_count

    class Request:
        user = staff.pitboss

    staff.pitboss.groups.all()  # roles cached on the user by the page's own checks
    bell(Request())  # warms the role cache
    with django_assert_max_num_queries(1):
        assert bell(Request()) == {"bell": {"unread": 3}}
    assert unread_count(staff.pitboss) == 3


def test_the_api_refuses_a_bad_unread_flag_naming_it(staff):
    api = APIClient()
    api.force_login(staff.pitboss)
    answer = api.get("/api/v1/notifications/?unread=maybe")
    assert answer.status_code == 400 and "unread" in answer.json()["extra"]["fields"]
