"""Roles: the groups exist, the one mechanism decides, and every page checks it on the server."""

import pytest
from django.contrib.auth.models import AnonymousUser, Group
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory
from django.urls import reverse
from rest_framework.test import APIRequestFactory, force_authenticate
from rest_framework.views import APIView

from casino import navigation
from casino.models import Pit
from casino.roles import (
    AUDITOR,
    DEALER,
    FLOOR_ROLES,
    INSPECTOR,
    PIT_BOSS,
    ROLES,
    TRAINEE,
    HasRole,
    RoleRequiredMixin,
    has_role,
    role_required,
    user_pits,
)

pytestmark = pytest.mark.django_db

# Every page and endpoint, with the roles that may use it. A new page adds its row here.
PAGES = [
    ("casino:floor", FLOOR_ROLES),  # trainees see only drills (SPEC)
    ("api:table-list", FLOOR_ROLES),  # not trainees (issue 18)
    ("schema", ROLES),
    ("swagger-ui", ROLES),
    ("drills:home", (TRAINEE,)),
    ("drills:trainees", (PIT_BOSS, AUDITOR)),
    ("drills:standards", (PIT_BOSS, AUDITOR)),
    ("api:drill-list", (TRAINEE, PIT_BOSS, AUDITOR)),
    ("api:drill-standard-list", (PIT_BOSS, AUDITOR)),
    ("ledger:session_list", (DEALER, PIT_BOSS, AUDITOR)),
    ("ledger:session_new", (DEALER, PIT_BOSS)),
    ("api:ledger:session-list", (DEALER, PIT_BOSS, AUDITOR)),
    ("dealing:table_list", (DEALER, INSPECTOR, PIT_BOSS, AUDITOR)),
    ("dealing:round_pick_table", (DEALER, PIT_BOSS)),
    ("dealing:incident_list", (DEALER, INSPECTOR, PIT_BOSS, AUDITOR)),
    ("dealing:incident_new", (INSPECTOR, PIT_BOSS)),
    ("dealing:pit_queue", (PIT_BOSS,)),
    ("casino:lockouts", (PIT_BOSS,)),  # unlocking: pit bosses (their pits' staff) and admins
    ("casino:security_log", (AUDITOR,)),  # the security log: auditors and admins
    ("casino:staff_list", ()),  # the staff page: admins (superusers) only
    ("gamemath:ochko", ROLES),  # the engine's figures only, no floor data: every role
    ("gamemath:ochko_ask", ROLES),
    ("api:math-ochko-edge", ROLES),
    ("api:math-ochko-strategy", ROLES),
    ("notifications:list", FLOOR_ROLES),  # each his own; trainees see only their drills
    ("notifications:preferences", FLOOR_ROLES),
    ("api:notifications:list", FLOOR_ROLES),
]
API = {
    "api:table-list",
    "schema",
    "swagger-ui",
    "api:drill-list",
    "api:drill-standard-list",
    "api:ledger:session-list",
    "api:math-ochko-edge",
    "api:math-ochko-strategy",
    "api:notifications:list",
}


def test_the_role_groups_exist_after_migrations():
    assert set(Group.objects.values_list("name", flat=True)) >= {
        "dealer",
        "inspector",
        "pit_boss",
        "auditor",
        "trainee",
    }
    assert set(ROLES) == {DEALER, INSPECTOR, PIT_BOSS, AUDITOR, TRAINEE}


@pytest.mark.django_db(transaction=True)
def test_the_role_groups_come_back_after_a_flush():
    # A flush (as after every transactional test, or `manage.py flush` on a demo box) empties
    # the tables the groups' migration filled; without the groups nobody could be given a role.
    from django.core.management import call_command

    call_command("flush", interactive=False, verbosity=0)
    assert set(Group.objects.values_list("name", flat=True)) >= set(ROLES)


@pytest.mark.parametrize("url_name, allowed", PAGES)
def test_anonymous_is_sent_to_login_or_refused(client, url_name, allowed):
    url = reverse(url_name)
    response = client.get(url)
    if url_name in API:
        assert response.status_code == 401
    else:
        assert response.status_code == 302
        assert response["Location"] == f"{reverse('login')}?next={url}"


@pytest.mark.parametrize("url_name, allowed", PAGES)
@pytest.mark.parametrize("role", [*ROLES, "superuser", None])
def test_each_role_sees_only_its_pages(client_for, floor, make_user, url_name, allowed, role):
    client = client_for(role) if role else client_for(None)
    if role is None:  # logged in, but holding no role at all
        client.force_login(make_user(None, pits=floor.pits))
    response = client.get(reverse(url_name))
    expected = 200 if (role == "superuser" or role in allowed) else 403
    assert response.status_code == expected, (role, url_name)


def test_the_admin_is_for_superusers_only(client_for, role):
    assert client_for(role).get(reverse("admin:index")).status_code == 302  # to the admin's login
    assert client_for("superuser").get(reverse("admin:index")).status_code == 200


def test_has_role(make_user):
    dealer = make_user(DEALER)
    assert has_role(dealer, DEALER)
    assert has_role(dealer, PIT_BOSS, DEALER)
    assert not has_role(dealer, PIT_BOSS)
    assert not has_role(dealer)  # no roles named: superusers only
    assert has_role(make_user("superuser"), PIT_BOSS)
    assert has_role(make_user("superuser"))
    assert not has_role(make_user(None), *ROLES)
    assert not has_role(AnonymousUser(), *ROLES)
    inactive = make_user(DEALER, is_active=False)
    assert not has_role(inactive, DEALER)
    with pytest.raises(ValueError, match="unknown role"):
        has_role(dealer, "croupier")


def test_user_pits_come_from_the_staff_profile(make_user, floor):
    assert list(user_pits(make_user(DEALER, pits=[floor.pit_a]))) == [floor.pit_a]
    assert list(user_pits(make_user(PIT_BOSS, pits=[]))) == []
    # Auditors and superusers read every pit, assigned or not.
    assert set(user_pits(make_user(AUDITOR, pits=[]))) == set(Pit.objects.all())
    assert set(user_pits(make_user("superuser"))) == set(Pit.objects.all())
    assert list(user_pits(AnonymousUser())) == []


def test_role_required_decorator_and_mixin(make_user):
    @role_required(PIT_BOSS)
    def view(request):
        return "ok"

    class View(RoleRequiredMixin):
        roles = (PIT_BOSS,)

        def dispatch(self, request):
            return super().dispatch(request)

    class Base:
        def dispatch(self, request):
            return "ok"

    class ClassView(View, Base):
        pass

    request = RequestFactory().get("/somewhere/")
    request.user = AnonymousUser()
    assert view(request).status_code == 302
    assert ClassView().dispatch(request).status_code == 302
    request.user = make_user(DEALER)
    with pytest.raises(PermissionDenied):
        view(request)
    with pytest.raises(PermissionDenied):
        ClassView().dispatch(request)
    request.user = make_user(PIT_BOSS)
    assert view(request) == "ok"
    assert ClassView().dispatch(request) == "ok"


def test_has_role_permission_class(make_user):
    class PitBossOnly(APIView):
        permission_classes = [HasRole(PIT_BOSS)]

        def get(self, request):
            from rest_framework.response import Response

            return Response({"ok": True})

    factory = APIRequestFactory()
    assert PitBossOnly.as_view()(factory.get("/x/")).status_code == 401
    for user, status in [(make_user(DEALER), 403), (make_user(PIT_BOSS), 200), (make_user("superuser"), 200)]:
        request = factory.get("/x/")
        force_authenticate(request, user=user)
        response = PitBossOnly.as_view()(request)
        assert response.status_code == status
    with pytest.raises(ValueError):
        HasRole("croupier")


def test_navigation_shows_each_role_what_it_may_use(make_user):
    labels = lambda user: [str(item["label"]) for item in navigation.items_for(user)]  # noqa: E731
    expected = {
        # A dealer's performance page shows only his own row.
        DEALER: [
            "Floor",
            "Tables",
            "Log a round",
            "Incidents",
            "Game nights",
            "Float",
            "Dealer performance",
            "Findings",
            "Game math",
        ],
        INSPECTOR: ["Floor", "Tables", "Incidents", "Float", "Findings", "Game math"],
        PIT_BOSS: [
            "Floor",
            "Tables",
            "Log a round",
            "Live floor",
            "Incidents",
            "Pit queue",
            "Game nights",
            "Float",
            "Dealer performance",
            "Audit",
            "Findings",
            "Theory against actual",
            "Period report",
            "Integrity signals",
            "Trainees",
            "Certification",
            "Game math",
            "Lockouts",
        ],
        AUDITOR: [
            "Floor",
            "Tables",
            "Live floor",
            "Incidents",
            "Game nights",
            "Float",
            "Dealer performance",
            "Audit",
            "Findings",
            "Theory against actual",
            "Period report",
            "Integrity signals",
            "Trainees",
            "Certification",
            "Game math",
            "Security log",
            "Change history",
        ],
        # No floor: trainees see their drills, and the game math (the engine's figures, no floor data).
        TRAINEE: ["Drills", "My progress", "Game math"],
    }
    for role in ROLES:
        assert labels(make_user(role)) == expected[role], role
    assert labels(make_user("superuser")) == [
        "Floor",
        "Tables",
        "Log a round",
        "Live floor",
        "Drills",
        "Incidents",
        "My progress",
        "Pit queue",
        "Game nights",
        "Float",
        "Dealer performance",
        "Audit",
        "Findings",
        "Theory against actual",
        "Period report",
        "Integrity signals",
        "Trainees",
        "Certification",
        "Game math",
        "Lockouts",
        "Security log",
        "Change history",
        "Staff",
        "Admin",
    ]
    assert labels(make_user(None)) == []
    assert labels(AnonymousUser()) == []
