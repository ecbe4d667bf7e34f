"""Every URL pattern × every role, against the permission each view declares (like NetBox's view
test cases).

The walk takes every pattern of the project's resolver (the admin site excepted: it is for staff
users only, tested in test_roles.py), builds a real URL for it from the demo floor and a few
factory objects, and requests it as anonymous, as a logged-in user without a role, as each role of
`casino.roles.ROLES` and as a superuser — GET, and every other method the view serves with an
empty body. What a view admits is read from the view itself:

- `role_required(...)` (function views) and `RoleRequiredMixin.roles` (class-based views);
- `HasRole(...)` in `permission_classes`, or `method_roles` (DRF endpoints);
- `NOT_BY_ROLE` below for the few views that are open to anyone or to any logged-in user.

A pattern with none of these fails `test_every_url_pattern_declares_who_may_open_it` with its name.
A role outside the declaration must get the login redirect (anonymous page), 401 (anonymous API)
or 403; a role inside it must get none of 401, 403 or a 5xx.
"""

import datetime as dt
from dataclasses import dataclass

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.permissions import AllowAny, IsAuthenticated

from casino.roles import ROLES

pytestmark = pytest.mark.django_db

PUBLIC = "public"  # anyone, logged in or not
LOGGED_IN = "logged in"  # any logged-in user, whatever his roles

# The views whose access is not a matter of roles (Django's own account pages, the language
# switcher, the health probe, the page a login lands on): who may open them, per method or for all.
NOT_BY_ROLE = {
    "login": PUBLIC,
    "logout": PUBLIC,
    "password_reset": PUBLIC,
    "password_reset_done": PUBLIC,
    "password_reset_confirm": PUBLIC,
    "password_reset_complete": PUBLIC,
    "password_change": LOGGED_IN,
    "password_change_done": LOGGED_IN,
    "set_language": PUBLIC,
    "healthz": PUBLIC,
    "readyz": PUBLIC,
    # Loopback (the test client's address) or a token, whatever the role: test_metrics_access.py.
    "metrics": PUBLIC,
    # The second factor's pages: any signed-in user enrols and verifies his own authenticator.
    "casino:otp_enrol": LOGGED_IN,
    "casino:otp_qr": LOGGED_IN,
    "casino:otp_verify": LOGGED_IN,
    # OpenID Connect's start and return (casino/sso.py): open to anyone, 404 unless configured.
    "oidc_authentication_init": PUBLIC,
    "oidc_authentication_callback": PUBLIC,
}
# Where a login lands: the first page the user's roles open; 403 for an account without a role.
NOT_BY_ROLE["casino:home"] = ROLES
# Only the drill's own trainee plays it: a superuser, who started none, is refused like anyone else.
OWNER_ONLY = {"drills:answer", "drills:finish", "api:drill-next", "api:drill-answer"}
# Anonymous callers of these get 401 (JSON), not the login page.
API_PREFIXES = ("/api/",)
METHODS = ("get", "post", "put", "patch", "delete")


@dataclass
class Pattern:
    name: str
    route: str
    callback: object

    @property
    def view_class(self):
        return getattr(self.callback, "cls", None) or getattr(self.callback, "view_class", None)


def url_patterns(resolver=None, prefix="", namespaces=()) -> list[Pattern]:
    """Every pattern of the project, recursively, with its namespaced name (the admin's excepted)."""
    resolver = resolver or get_resolver()
    found = []
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace == "admin":
                continue
            names = namespaces + ((entry.namespace,) if entry.namespace else ())
            found += url_patterns(entry, prefix + str(entry.pattern), names)
        elif isinstance(entry, URLPattern):
            name = ":".join(namespaces + (entry.name or f"<unnamed {prefix}{entry.pattern}>",))
            found.append(Pattern(name, prefix + str(entry.pattern), entry.callback))
    return found


def _roles_of_permission(permission) -> str | tuple | None:
    if hasattr(permission, "roles"):
        return tuple(permission.roles)
    if permission is AllowAny:
        return PUBLIC
    if permission is IsAuthenticated:
        return LOGGED_IN
    return None


def declared(pattern: Pattern, method: str):
    """Who may use `method` of the pattern's view: a tuple of roles, PUBLIC, LOGGED_IN, or None
    when the view declares nothing."""
    if pattern.name in NOT_BY_ROLE:
        return NOT_BY_ROLE[pattern.name]
    roles = getattr(pattern.callback, "roles", None)  # role_required
    if roles is not None:
        return tuple(getattr(pattern.callback, "method_roles", {}).get(method.upper(), roles))
    cls = pattern.view_class
    if cls is None:
        return None
    if getattr(cls, "roles", None):  # RoleRequiredMixin
        return tuple(cls.roles)
    by_method = getattr(cls, "method_roles", None)
    if by_method:
        return tuple(by_method.get(method.upper(), next(iter(by_method.values()))))
    if cls.__name__ == "TokenCreateApi":  # logging in is open; revoking takes the token
        return PUBLIC if method == "post" else LOGGED_IN
    permissions = [_roles_of_permission(p) for p in getattr(cls, "permission_classes", ())]
    if len(permissions) != 1 or permissions[0] is None:
        return None
    return permissions[0]


def served_methods(pattern: Pattern) -> list[str]:
    """The methods a class-based view serves; GET and POST for function views (a method a view
    does not serve answers 405 to everyone, which the walk skips)."""
    cls = pattern.view_class
    if cls is None:
        return ["get", "post"]
    return [m for m in METHODS if hasattr(cls, m)]


def test_every_url_pattern_declares_who_may_open_it():
    undeclared = sorted({p.name for p in url_patterns() for m in served_methods(p) if declared(p, m) is None})
    assert not undeclared, "declare who may open " + ", ".join(undeclared)


def test_the_walk_sees_every_app():
    names = {p.name.split(":")[0] if ":" in p.name else p.name for p in url_patterns()}
    assert {"api", "casino", "dealing", "ledger", "drills", "audit", "gamemath", "login", "healthz"} <= names
    assert len(url_patterns()) > 90


# --- the objects the URLs are built from --------------------------------------------------------


@pytest.fixture
def walk_floor(settings, django_capture_on_commit_callbacks, eager):
    """The demo floor (its users work in both pits), a drill of trainee1, an audit run and its
    findings, a pending incident and a pending correction: an object for every URL kwarg. The
    audits run in this process (eager), also where CI's broker is set, so the findings exist."""
    from django.contrib.auth import get_user_model

    from audit.models import AuditRun, Finding
    from audit.services.runs import audit_run_start
    from casino.demo import demo_floor_load
    from dealing.choices import RoundStatus
    from dealing.models import Incident, Round, Shoe
    from drills.services import drill_start
    from ledger.models import GameSession

    settings.DEBUG = True
    with django_capture_on_commit_callbacks(execute=True):
        demo_floor_load()
    User = get_user_model()
    users = {u.username: u for u in User.objects.all()}
    with django_capture_on_commit_callbacks(execute=True):
        run = audit_run_start(started_by=users["auditor1"])
    trainee = users["trainee1"]
    drill = drill_start(trainee=trainee, variant="ochko", preset="", kind="payout")
    # The float's books: a shift of R-1 opened (counted and signed) with a fill waiting for approval.
    from books import services as books
    from casino.models import Table

    r1 = Table.objects.get(name="R-1")
    chip = str(r1.chips[0])
    shift = books.shift_open(table=r1, counted_by=users["dealer1"], counts={chip: 10})
    shift = books.shift_open_sign(shift=shift, signed_by=users["pitboss1"])
    transfer = books.transfer_request(shift=shift, kind="fill", counts={chip: 5}, requested_by=users["dealer1"])
    session = GameSession.objects.order_by("pk").first()
    # An integrity signal about dealer1 at R-1, open for review.
    from books.models import IntegritySignal

    signal = IntegritySignal.objects.create(
        kind="lean",
        key=f"lean:d{users['dealer1'].pk}",
        dealer=users["dealer1"],
        table=r1,
        period_start=dt.date(2026, 1, 1),
        period_end=dt.date(2026, 1, 31),
        statistic=0.9,
        p_value=0.0001,
        p_adjusted=0.001,
    )
    objects = {
        "table": "R-1",
        "round": Round.objects.filter(table__name="R-1").order_by("pk").first(),
        "pending_round": Round.objects.filter(status=RoundStatus.PENDING).first(),
        "shoe": Shoe.objects.filter(table__name="R-1").order_by("pk").first(),
        "incident": Incident.objects.order_by("-pk").first(),
        "drill": drill,
        "trainee": trainee,
        "run": AuditRun.objects.get(pk=run.pk),
        "finding": Finding.objects.order_by("pk").first(),
        "session": session,
        "shift": shift,
        "transfer": transfer,
        "dealer": users["dealer1"],
        "signal": signal,
        # The staff page's person (casino/people); the walk's empty posts name no one: nothing changes.
        "person": users["dealer1"],
    }
    return users, objects


PENDING_ROUND = {"dealing:amendment_decide", "api:round-approve", "api:round-reject"}


def build_url(pattern: Pattern, objects) -> str:
    """A real URL of the pattern: its kwargs filled from the walk's objects."""
    name = pattern.name
    route = pattern.route
    kwargs = {}
    if "<table:name>" in route:
        kwargs["name"] = objects["table"]
    if "<int:number>" in route:
        kwargs["number"] = objects["shoe"].number if "shoes" in route else 1
    if "<uidb64>" in route:
        kwargs.update(uidb64="MQ", token="set-password")
    if "<str:table>" in route:
        kwargs["table"] = objects["table"]
    if "<int:dealer>" in route:
        kwargs["dealer"] = objects["dealer"].pk
    if "<path:player>" in route:
        kwargs["player"] = "P-7"  # a player of the demo floor's rounds
    if "<int:event>" in route:
        kwargs["event"] = objects["transfer"].pk
    if "<int:pk>" in route:
        owner = (
            "person"
            if name.startswith("casino:staff_")
            else "signal"
            if "signal" in name
            else "shift"
            if name.startswith("books:") or "shifts/" in route
            else "pending_round"
            if name in PENDING_ROUND
            else "drill"
            if name.startswith("drills:") and "trainees" not in route or "api:drill" in name
            else "trainee"
            if "trainees" in route
            else "session"
            if "ledger" in name
            else "run"
            if "run" in name
            else "finding"
            if "finding" in name
            else "shoe"
            if "shoe" in name
            else "incident"
            if "incident" in name
            else "round"
        )
        obj = objects[owner]
        assert obj is not None, f"the walk has no {owner} for {name}"
        kwargs["pk"] = obj.pk
    return reverse(name, kwargs=kwargs)


def _is_refusal(response, *, anonymous: bool, api: bool, url: str) -> bool:
    if not anonymous:
        return response.status_code == 403
    if api:
        return response.status_code == 401
    return response.status_code == 302 and response["Location"].startswith(reverse("login"))


def _admits(declaration, who: str) -> bool:
    if declaration == PUBLIC:
        return True
    if who == "anonymous":
        return False
    if declaration == LOGGED_IN or who == "superuser":
        return True
    return who in declaration


WHO = ["anonymous", "no role", *ROLES, "superuser"]
DEMO_USER = {
    "dealer": "dealer1",
    "inspector": "inspector1",
    "pit_boss": "pitboss1",
    "auditor": "auditor1",
    "trainee": "trainee1",
    "superuser": "admin",
}


@pytest.mark.parametrize("who", WHO)
@pytest.mark.timeout(900)  # every URL of the site for one role; a role that may read the game math solves it cold
def test_every_url_admits_its_declared_roles_and_refuses_the_others(walk_floor, make_user, who):
    users, objects = walk_floor
    client = Client(raise_request_exception=False)
    if who == "no role":
        client.force_login(make_user(None, pits=list(users["dealer1"].staff.pits.all())))
    elif who != "anonymous":
        client.force_login(users[DEMO_USER[who]])
    superuser = Client(raise_request_exception=False)
    superuser.force_login(users["admin"])

    problems, checked = [], 0
    # Logging out last: it ends the client's session.
    for pattern in sorted(url_patterns(), key=lambda p: p.name == "logout"):
        url = build_url(pattern, objects)
        api = url.startswith(API_PREFIXES)
        for method in served_methods(pattern):
            declaration = declared(pattern, method)
            if pattern.view_class is None and superuser.generic(method.upper(), url).status_code == 405:
                continue  # a function view that does not serve this method
            response = (
                getattr(client, method)(url, content_type="application/json")
                if api and method != "get"
                else getattr(client, method)(url)
            )
            checked += 1
            status = response.status_code
            if who == "superuser" and pattern.name in OWNER_ONLY:
                continue
            if _admits(declaration, who):
                if status in (401, 403) or status >= 500:
                    problems.append(
                        f"{method.upper()} {url} ({pattern.name}) as {who}: {status}, "
                        f"but {who} is admitted ({declaration})"
                    )
            elif not _is_refusal(response, anonymous=who == "anonymous", api=api, url=url):
                problems.append(
                    f"{method.upper()} {url} ({pattern.name}) as {who}: {status}, but only {declaration} may"
                )
    assert checked > 100
    assert not problems, "\n".join(problems)
