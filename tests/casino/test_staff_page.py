"""The staff page (issue 37, item 7): administrators manage people, their roles and pits outside
/admin/ — a list filtered and cut into pages, a new person with a password the validators accept,
roles and pits changed, deactivation, the second factor reset; never their own lockout. Every
change is in the security log and the change history; every other role is refused."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino.errors import ServiceError
from casino.models import SecurityEvent, Staff
from casino.people import selectors, services
from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, ROLES, TRAINEE
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

Kind = SecurityEvent.Kind
GOOD_PASSWORD = "felt-shoe-Ante-7731"


@pytest.fixture
def admin(make_user, floor):
    return make_user("superuser", pits=floor.pits, username="boss-admin")


@pytest.fixture
def admin_client(admin):
    client = Client()
    client.force_login(admin)
    return client


@pytest.fixture
def dealer(make_user, floor):
    return make_user(DEALER, pits=[floor.pit_a], username="dealer-a")


def _signed_in(username: str, password: str = PASSWORD) -> Client | None:
    """A client signed in through the login page (axes wants the request), or None when refused."""
    client = Client()
    response = client.post(reverse("login"), {"username": username, "password": password})
    return client if response.status_code == 302 else None


def _pages(person) -> list[str]:
    return [
        reverse("casino:staff_list"),
        reverse("casino:staff_create"),
        reverse("casino:staff_edit", args=[person.pk]),
    ]


# --- who may open it ----------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["anonymous", "no role", *ROLES, "superuser"])
def test_only_an_administrator_opens_the_staff_pages(make_user, floor, dealer, who):
    client = Client()
    if who == "no role":
        client.force_login(make_user(None, pits=floor.pits))
    elif who != "anonymous":
        client.force_login(make_user(who, pits=floor.pits))
    for url in _pages(dealer):
        response = client.get(url)
        if who == "anonymous":
            assert response.status_code == 302 and response["Location"].startswith(reverse("login")), url
        elif who == "superuser":
            assert response.status_code == 200, url
        else:
            assert response.status_code == 403, (who, url)


@pytest.mark.parametrize("role", [DEALER, INSPECTOR, PIT_BOSS, AUDITOR, TRAINEE])
def test_no_other_role_changes_anyone(make_user, floor, dealer, role):
    client = Client()
    client.force_login(make_user(role, pits=floor.pits))
    posts = [
        (reverse("casino:staff_active", args=[dealer.pk]), {"username": dealer.username, "active": "0"}),
        (reverse("casino:staff_second_factor_reset", args=[dealer.pk]), {"username": dealer.username}),
        (reverse("casino:staff_edit", args=[dealer.pk]), {"roles": [PIT_BOSS]}),
        (reverse("casino:staff_create"), {"username": "intruder", "password": GOOD_PASSWORD}),
    ]
    for url, data in posts:
        assert client.post(url, data).status_code == 403, url
    dealer.refresh_from_db()
    assert dealer.is_active and selectors.person_roles(dealer) == [DEALER]
    assert not get_user_model().objects.filter(username="intruder").exists()


def test_the_navigation_offers_the_page_to_administrators_only(admin_client, client_for, floor):
    url = reverse("casino:staff_list")
    assert f'href="{url}"' in admin_client.get(reverse("casino:floor")).content.decode()
    for role in (PIT_BOSS, AUDITOR):
        assert f'href="{url}"' not in client_for(role).get(reverse("casino:floor")).content.decode()


# --- the list -----------------------------------------------------------------------------------


def test_the_list_shows_each_persons_roles_pits_status_and_second_factor(admin_client, make_user, floor, dealer):
    boss = make_user(PIT_BOSS, pits=floor.pits, username="boss-b")
    TOTPDevice.objects.create(user=boss, name="authenticator", confirmed=True)
    gone = make_user(AUDITOR, username="gone-auditor", is_active=False)
    response = admin_client.get(reverse("casino:staff_list"))
    rows = {person.username: person for person in response.context["page"].people}
    assert {"boss-admin", "dealer-a", "boss-b", "gone-auditor"} <= set(rows)
    assert rows["boss-b"].role_labels == ["Pit boss"] and rows["boss-b"].second_factor
    assert [p.name for p in rows["dealer-a"].pits] == ["Pit A"] and not rows["dealer-a"].second_factor
    assert rows["boss-admin"].roles[0] == "admin"
    assert not rows["gone-auditor"].is_active
    html = response.content.decode()
    assert "deactivated" in html and "enrolled" in html and reverse("casino:staff_edit", args=[gone.pk]) in html


def test_the_list_filters_by_role_pit_status_and_name(admin_client, make_user, floor, dealer):
    make_user(PIT_BOSS, pits=[floor.pit_b], username="boss-b")
    make_user(DEALER, pits=[floor.pit_b], username="dealer-b", is_active=False)

    def names(**query):
        response = admin_client.get(reverse("casino:staff_list"), query)
        assert response.status_code == 200
        return [p.username for p in response.context["page"].people]

    assert names(role=DEALER) == ["dealer-a", "dealer-b"]
    assert names(role="admin") == ["boss-admin"]
    assert names(pit=floor.pit_b.pk) == ["boss-admin", "boss-b", "dealer-b"]
    assert names(pit=floor.pit_b.pk, active="yes") == ["boss-admin", "boss-b"]
    assert names(active="no") == ["dealer-b"]
    assert names(q="boss-") == ["boss-admin", "boss-b"]
    assert names(role=DEALER, pit=floor.pit_a.pk) == ["dealer-a"]


def test_the_list_is_read_a_page_at_a_time(admin_client, make_user, floor, monkeypatch, django_assert_max_num_queries):
    monkeypatch.setattr(selectors, "PAGE", 2)
    monkeypatch.setattr(
        selectors.person_list, "__kwdefaults__", {"filters": None, "after": "", "before": "", "size": 2}
    )
    for n in range(5):
        make_user(DEALER, pits=floor.pits, username=f"p{n}")
    url = reverse("casino:staff_list")
    first = admin_client.get(url, {"role": DEALER})
    assert [p.username for p in first.context["page"].people] == ["p0", "p1"]
    assert first.context["newer_query"] == "" and "after=p1" in first.context["older_query"]
    second = admin_client.get(f"{url}?{first.context['older_query']}")
    assert [p.username for p in second.context["page"].people] == ["p2", "p3"]
    back = admin_client.get(f"{url}?{second.context['newer_query']}")
    assert [p.username for p in back.context["page"].people] == ["p0", "p1"]
    last = admin_client.get(f"{url}?{second.context['older_query']}")
    assert [p.username for p in last.context["page"].people] == ["p4"] and last.context["older_query"] == ""
    # The page's queries do not grow with the people shown (roles and pits are prefetched).
    with django_assert_max_num_queries(12):
        admin_client.get(url)


# --- a new person -------------------------------------------------------------------------------


def _new(**fields) -> dict:
    data = {
        "username": "dealer-new",
        "first_name": "Vera",
        "last_name": "Nikolaeva",
        "email": "vera@casino.example",
        "badge": "D-900",
        "roles": [DEALER],
        "password": GOOD_PASSWORD,
        "password_again": GOOD_PASSWORD,
    }
    data.update(fields)
    return data


@pytest.mark.parametrize("weak", ["12345678", "password", "vera", "dealer-new1"])
def test_a_weak_password_is_refused_by_the_validators_and_nothing_is_stored(admin_client, floor, weak):
    people, profiles, events = get_user_model().objects.count(), Staff.objects.count(), SecurityEvent.objects.count()
    response = admin_client.post(reverse("casino:staff_create"), _new(password=weak, password_again=weak))
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert list(errors) == ["password"], errors
    assert get_user_model().objects.count() == people and Staff.objects.count() == profiles
    assert SecurityEvent.objects.count() == events
    assert 'class="field-error"' in response.content.decode()


def test_other_mistakes_are_named_by_their_field(admin_client, dealer, floor):
    url = reverse("casino:staff_create")
    cases = [
        (_new(username="DEALER-A"), "username"),  # dealer-a exists: the same name in capitals
        (_new(username="no spaces"), "username"),
        (_new(password_again="something-else-9"), "password_again"),
        (_new(email="not-an-address"), "email"),
        (_new(roles=["croupier"]), "roles"),
        (_new(pits=[999999]), "pits"),
        (_new(badge="B" * 17), "badge"),
    ]
    for data, field in cases:
        response = admin_client.post(url, data)
        assert response.status_code == 400 and field in response.context["form"].errors, (field, data)
    assert not get_user_model().objects.filter(username__in=["dealer-new", "no spaces"]).exists()


def test_one_post_shows_every_mistake_at_once(admin_client, dealer):
    data = _new(username="Dealer-A", email="nope", password="12345678", password_again="12345678")
    errors = admin_client.post(reverse("casino:staff_create"), data).context["form"].errors
    assert {"username", "email", "password"} <= set(errors), errors
    assert errors["username"] == ["A person with that username exists already."]


def test_a_new_person_signs_in_with_his_roles_and_pits(admin_client, admin, floor):
    response = admin_client.post(reverse("casino:staff_create"), _new(pits=[floor.pit_a.pk]))
    person = get_user_model().objects.get(username="dealer-new")
    assert response.status_code == 302 and response["Location"] == reverse("casino:staff_edit", args=[person.pk])
    assert selectors.person_roles(person) == [DEALER] and selectors.person_pits(person) == [floor.pit_a]
    assert person.staff.badge == "D-900" and person.email == "vera@casino.example" and not person.is_superuser
    event = SecurityEvent.objects.get(kind=Kind.STAFF_CREATED)
    assert event.user == admin and event.detail == "dealer-new: roles dealer; pits Pit A"
    assert person.history.filter(history_user=admin).exists()
    client = _signed_in("dealer-new", GOOD_PASSWORD)
    assert client is not None
    tables = client.get(reverse("casino:floor")).content.decode()
    assert "R-1" in tables and "R-2" not in tables


def test_an_administrator_can_be_created(admin_client, floor):
    admin_client.post(reverse("casino:staff_create"), _new(username="second-admin", roles=["admin"]))
    person = get_user_model().objects.get(username="second-admin")
    assert person.is_superuser and person.is_staff


# --- roles and pits -----------------------------------------------------------------------------


def _edit(person, **fields) -> dict:
    data = {
        "first_name": person.first_name,
        "last_name": person.last_name,
        "email": person.email,
        "badge": person.staff.badge,
        "roles": selectors.person_roles(person),
        "pits": [p.pk for p in selectors.person_pits(person)],
    }
    data.update(fields)
    return data


def test_a_new_role_and_pit_take_effect_at_his_next_page(admin_client, admin, dealer, floor):
    theirs = Client()
    theirs.force_login(dealer)
    assert theirs.get(reverse("casino:lockouts")).status_code == 403
    assert "R-2" not in theirs.get(reverse("casino:floor")).content.decode()

    url = reverse("casino:staff_edit", args=[dealer.pk])
    response = admin_client.post(url, _edit(dealer, roles=[PIT_BOSS], pits=[floor.pit_b.pk]))
    assert response.status_code == 302

    assert theirs.get(reverse("casino:lockouts")).status_code == 200  # a pit boss's page
    tables = theirs.get(reverse("casino:floor")).content.decode()
    assert "R-2" in tables and "R-1" not in tables
    event = SecurityEvent.objects.get(kind=Kind.STAFF_CHANGED)
    assert event.user == admin and event.detail == "dealer-a: roles dealer -> pit_boss; pits Pit A -> Pit B"
    # The change history names the admin for the roles (user's groups) and the pits (staff's pits).
    assert dealer.history.filter(history_user=admin).exists()
    assert Staff.history.filter(user_id=dealer.pk, history_user=admin).exists()


def test_saving_what_is_stored_changes_nothing(admin_client, dealer):
    response = admin_client.post(reverse("casino:staff_edit", args=[dealer.pk]), _edit(dealer), follow=True)
    assert "Nothing changed." in response.content.decode()
    assert not SecurityEvent.objects.filter(kind=Kind.STAFF_CHANGED).exists()


def test_an_administrator_cannot_take_away_his_own_administrator_role(admin_client, admin):
    response = admin_client.post(reverse("casino:staff_edit", args=[admin.pk]), _edit(admin, roles=[PIT_BOSS]))
    assert response.status_code == 400
    assert "your own administrator role" in response.context["form"].errors["roles"][0]
    admin.refresh_from_db()
    assert admin.is_superuser and not admin.groups.exists()
    assert not SecurityEvent.objects.filter(kind=Kind.STAFF_CHANGED).exists()


def test_another_administrator_may_take_it_away(admin_client, make_user, floor):
    other = make_user("superuser", username="other-admin")
    admin_client.post(reverse("casino:staff_edit", args=[other.pk]), _edit(other, roles=[AUDITOR]))
    other.refresh_from_db()
    assert not other.is_superuser and not other.is_staff and selectors.person_roles(other) == [AUDITOR]


# --- deactivation and the second factor ---------------------------------------------------------


def test_a_deactivated_person_cannot_sign_in_and_his_session_ends(admin_client, admin, dealer):
    theirs = _signed_in(dealer.username)
    assert theirs is not None
    url = reverse("casino:staff_active", args=[dealer.pk])
    assert admin_client.post(url, {"username": dealer.username, "active": "0"}).status_code == 302
    dealer.refresh_from_db()
    assert not dealer.is_active
    assert theirs.get(reverse("casino:floor"))["Location"].startswith(reverse("login"))
    assert _signed_in(dealer.username) is None
    event = SecurityEvent.objects.get(kind=Kind.STAFF_DEACTIVATED)
    assert event.user == admin and event.detail == dealer.username
    assert get_user_model().objects.filter(pk=dealer.pk).exists()  # never deleted

    admin_client.post(url, {"username": dealer.username, "active": "1"})
    assert _signed_in(dealer.username) is not None
    assert SecurityEvent.objects.filter(kind=Kind.STAFF_REACTIVATED, user=admin).exists()


def test_an_administrator_cannot_deactivate_himself(admin_client, admin):
    url = reverse("casino:staff_active", args=[admin.pk])
    response = admin_client.post(url, {"username": admin.username, "active": "0"}, follow=True)
    assert "You cannot deactivate yourself" in response.content.decode()
    admin.refresh_from_db()
    assert admin.is_active


def test_a_post_that_does_not_name_the_person_changes_nothing(admin_client, dealer):
    TOTPDevice.objects.create(user=dealer, name="authenticator", confirmed=True)
    for url in (
        reverse("casino:staff_active", args=[dealer.pk]),
        reverse("casino:staff_second_factor_reset", args=[dealer.pk]),
    ):
        response = admin_client.post(url, {}, follow=True)
        assert "nothing was changed" in response.content.decode()
    assert admin_client.post(reverse("casino:staff_active", args=[999999]), {}).status_code == 404
    dealer.refresh_from_db()
    assert dealer.is_active and TOTPDevice.objects.filter(user=dealer).exists()


def test_a_reset_second_factor_is_enrolled_again_at_the_next_sign_in(admin_client, admin, make_user, floor, settings):
    boss = make_user(PIT_BOSS, pits=floor.pits, username="boss-phone-lost")
    TOTPDevice.objects.create(user=boss, name="authenticator", confirmed=True)
    assert "Reset the second factor" in admin_client.get(reverse("casino:staff_edit", args=[boss.pk])).content.decode()
    url = reverse("casino:staff_second_factor_reset", args=[boss.pk])
    assert admin_client.post(url, {"username": boss.username}).status_code == 302
    assert not TOTPDevice.objects.filter(user=boss).exists()
    event = SecurityEvent.objects.get(kind=Kind.SECOND_FACTOR_RESET)
    assert event.user == admin and event.detail == "boss-phone-lost: 1 device(s) removed"
    settings.OTP_REQUIRED_ROLES = (PIT_BOSS,)
    client = _signed_in(boss.username)
    assert client.get(reverse("casino:floor"))["Location"].startswith(reverse("casino:otp_enrol"))


# --- the forms ----------------------------------------------------------------------------------


def test_every_form_is_csrf_protected(admin, dealer, floor):
    client = Client(enforce_csrf_checks=True)
    client.force_login(admin)
    token = 'name="csrfmiddlewaretoken"'
    bar = client.get(reverse("casino:staff_list")).content.decode().count(token)  # the bar's own forms
    page = client.get(reverse("casino:staff_edit", args=[dealer.pk])).content.decode()
    assert page.count(token) == bar + 2  # the details form and deactivation
    assert 'name="csrfmiddlewaretoken"' in client.get(reverse("casino:staff_create")).content.decode()
    posts = [
        (reverse("casino:staff_create"), _new()),
        (reverse("casino:staff_edit", args=[dealer.pk]), _edit(dealer, roles=[PIT_BOSS])),
        (reverse("casino:staff_active", args=[dealer.pk]), {"username": dealer.username, "active": "0"}),
        (reverse("casino:staff_second_factor_reset", args=[dealer.pk]), {"username": dealer.username}),
    ]
    for url, data in posts:
        assert client.post(url, data).status_code == 403, url
    dealer.refresh_from_db()
    assert dealer.is_active and selectors.person_roles(dealer) == [DEALER]
    assert not get_user_model().objects.filter(username="dealer-new").exists()


def test_the_services_refuse_anyone_but_an_administrator(make_user, dealer):
    boss = make_user(PIT_BOSS)
    for call in (
        lambda: services.person_active_set(by=boss, person=dealer, active=False),
        lambda: services.person_second_factor_reset(by=boss, person=dealer),
        lambda: services.person_create(by=boss, username="x", password=GOOD_PASSWORD),
    ):
        with pytest.raises(ServiceError) as refused:
            call()
        assert refused.value.status == 403


@pytest.mark.parametrize("language", ["es", "pt-br", "ru"])
def test_the_staff_pages_have_no_english_left(admin_client, dealer, settings, language):
    from tests.casino.test_languages import english_left

    names = {
        w for person in get_user_model().objects.values_list("username", "first_name", "last_name") for w in person
    }
    admin_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    for url in _pages(dealer):
        response = admin_client.get(url)
        assert response.status_code == 200
        assert english_left(response.content.decode(), language, names=names) == [], url
    refused = admin_client.post(reverse("casino:staff_create"), _new(password="12345678", password_again="12345678"))
    assert english_left(refused.content.decode(), language, names=names) == []
