"""Single sign-on (issue 37, item 7): OpenID Connect and LDAP, each off unless configured, mapping a
directory's groups to roles and pits at every sign-in, refusing (and not creating) someone in no
mapped group, the second factor still asked after OIDC unless OIDC_SKIP_OTP.

No network: the OIDC tests run the real backend and views against a fake provider (an RSA key made
here signs the ID tokens; the token, userinfo and JWKS calls are answered in-process), the LDAP tests
the real backend against ldap3's offline MOCK_SYNC server.
"""

import time
from urllib.parse import parse_qs, urlsplit

import environ
import jwt
import ldap3
import pytest
from axes.models import AccessAttempt
from cryptography.hazmat.primitives.asymmetric import rsa
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.urls import reverse
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino import sso
from casino.directory_groups import ROLE_NAMES, group_map_from
from casino.ldap_sso import group_name
from casino.models import SecurityEvent, Staff
from casino.roles import AUDITOR, DEALER, PIT_BOSS, ROLES, user_pits, user_roles
from casino.sso_settings import (
    AXES_BACKEND,
    LDAP_BACKEND,
    OIDC_BACKEND,
    PASSWORD_BACKEND,
    sso_settings,
)
from tests.factories import PASSWORD, PitFactory

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
CLIENT_ID = "casino-pit-desk"
ISSUER = "https://idp.casino.example/realms/casino"
ENDPOINTS = {
    "OIDC_OP_AUTHORIZATION_ENDPOINT": f"{ISSUER}/auth",
    "OIDC_OP_TOKEN_ENDPOINT": f"{ISSUER}/token",
    "OIDC_OP_USER_ENDPOINT": f"{ISSUER}/userinfo",
    "OIDC_OP_JWKS_ENDPOINT": f"{ISSUER}/certs",
}
User = get_user_model()


def test_role_names_of_the_mapping_are_the_roles():
    assert ROLE_NAMES == ROLES


# --- the mapping's syntax ---------------------------------------------------------------------


def test_group_map_reads_groups_to_values():
    assert group_map_from("X", " Casino-Pit-Bosses=pit_boss, auditors=auditor,auditors=dealer,", roles=True) == {
        "casino-pit-bosses": ["pit_boss"],
        "auditors": ["auditor", "dealer"],
    }
    assert group_map_from("X", "pit-a=Pit A", roles=False) == {"pit-a": ["Pit A"]}
    assert group_map_from("X", "", roles=True) == {}


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("casino-pit-bosses", "is not group=value"),
        ("=pit_boss", "is not group=value"),
        ("casino-pit-bosses=", "is not group=value"),
        ("casino-pit-bosses=pitboss", '"pitboss" (for group "casino-pit-bosses") is not a role'),
    ],
)
def test_a_malformed_mapping_stops_the_start_up_naming_the_variable(monkeypatch, value, says):
    monkeypatch.setenv("OIDC_RP_CLIENT_ID", CLIENT_ID)
    monkeypatch.setenv("OIDC_RP_CLIENT_SECRET", "s3cret")
    for name, url in ENDPOINTS.items():
        monkeypatch.setenv(name, url)
    monkeypatch.setenv("OIDC_GROUP_ROLES", value)
    with pytest.raises(ImproperlyConfigured, match="^OIDC_GROUP_ROLES: ") as raised:
        sso_settings(environ.Env())
    assert says in str(raised.value)


def test_a_malformed_pit_mapping_names_its_variable(monkeypatch):
    monkeypatch.setenv("LDAP_AUTH_URL", "ldap://ldap.casino.example")
    monkeypatch.setenv("LDAP_AUTH_SEARCH_BASE", "ou=people,dc=casino,dc=example")
    monkeypatch.setenv("LDAP_GROUP_ROLES", "dealers=dealer")
    monkeypatch.setenv("LDAP_GROUP_PITS", "pit-a")
    with pytest.raises(ImproperlyConfigured, match='^LDAP_GROUP_PITS: "pit-a" is not group=value'):
        sso_settings(environ.Env())


def test_a_missing_endpoint_or_an_empty_role_mapping_stops_the_start_up(monkeypatch):
    monkeypatch.setenv("OIDC_RP_CLIENT_ID", CLIENT_ID)
    monkeypatch.setenv("OIDC_RP_CLIENT_SECRET", "s3cret")
    with pytest.raises(ImproperlyConfigured, match="OIDC_OP_AUTHORIZATION_ENDPOINT, OIDC_OP_TOKEN_ENDPOINT"):
        sso_settings(environ.Env())
    for name, url in ENDPOINTS.items():
        monkeypatch.setenv(name, url)
    with pytest.raises(ImproperlyConfigured, match="^OIDC_GROUP_ROLES is empty"):
        sso_settings(environ.Env())


def test_backends_by_environment(monkeypatch):
    for name in ("OIDC_RP_CLIENT_ID", "LDAP_AUTH_URL"):
        monkeypatch.delenv(name, raising=False)
    off = sso_settings(environ.Env())
    assert off["AUTHENTICATION_BACKENDS"] == [AXES_BACKEND, PASSWORD_BACKEND]
    assert not off["OIDC_ENABLED"] and not off["LDAP_ENABLED"] and not off["OIDC_SKIP_OTP"]
    monkeypatch.setenv("OIDC_RP_CLIENT_ID", CLIENT_ID)
    monkeypatch.setenv("OIDC_RP_CLIENT_SECRET", "s3cret")
    for name, url in ENDPOINTS.items():
        monkeypatch.setenv(name, url)
    monkeypatch.setenv("OIDC_GROUP_ROLES", "casino-pit-bosses=pit_boss")
    monkeypatch.setenv("LDAP_AUTH_URL", "ldaps://ldap1.casino.example,ldaps://ldap2.casino.example")
    monkeypatch.setenv("LDAP_AUTH_SEARCH_BASE", "ou=people,dc=casino,dc=example")
    monkeypatch.setenv("LDAP_GROUP_ROLES", "dealers=dealer")
    on = sso_settings(environ.Env())
    # Axes still first: every backend's failures are counted, a locked-out caller refused before any.
    assert on["AUTHENTICATION_BACKENDS"] == [AXES_BACKEND, PASSWORD_BACKEND, LDAP_BACKEND, OIDC_BACKEND]
    assert on["OIDC_RP_SIGN_ALGO"] == "RS256" and on["OIDC_GROUPS_CLAIM"] == "groups"
    assert on["LDAP_AUTH_URL"] == ["ldaps://ldap1.casino.example", "ldaps://ldap2.casino.example"]
    assert on["LDAP_GROUP_ROLES"] == {"dealers": ["dealer"]}


# --- OpenID Connect: a fake provider ----------------------------------------------------------


class Answer:
    """What `requests` hands back, as far as mozilla-django-oidc reads it."""

    def __init__(self, url: str, body: dict, status: int = 200):
        self.url, self.body, self.status_code = url, body, status
        self.headers = {"content-type": "application/json"}
        self.text = str(body)

    def json(self):
        return self.body

    def raise_for_status(self):
        if self.status_code != 200:
            raise AssertionError(f"{self.url}: {self.status_code}")


class FakeProvider:
    """The provider's token, userinfo and JWKS endpoints, answering in-process: the ID token signed
    with a key of its own, carrying the nonce the authorization request sent."""

    def __init__(self):
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.userinfo: dict = {}
        self.nonce = ""
        self.audience = CLIENT_ID
        self.calls: list[str] = []

    def jwks(self) -> dict:
        public = jwt.algorithms.RSAAlgorithm.to_jwk(self.key.public_key(), as_dict=True)
        return {"keys": [{**public, "kid": "k1", "alg": "RS256", "use": "sig"}]}

    def id_token(self) -> str:
        now = int(time.time())
        claims = {
            "iss": ISSUER,
            "aud": self.audience,
            "sub": self.userinfo.get("sub", "subject"),
            "iat": now,
            "exp": now + 300,
            "nonce": self.nonce,
        }
        return jwt.encode(claims, self.key, algorithm="RS256", headers={"kid": "k1"})

    def post(self, url, data=None, **kwargs):
        self.calls.append(url)
        assert url == ENDPOINTS["OIDC_OP_TOKEN_ENDPOINT"]
        assert data["client_id"] == CLIENT_ID and data["code"] == "the-code" and data["code_verifier"]
        return Answer(url, {"access_token": "the-access-token", "id_token": self.id_token(), "token_type": "Bearer"})

    def get(self, url, headers=None, **kwargs):
        self.calls.append(url)
        if url == ENDPOINTS["OIDC_OP_JWKS_ENDPOINT"]:
            return Answer(url, self.jwks())
        assert url == ENDPOINTS["OIDC_OP_USER_ENDPOINT"]
        assert headers == {"Authorization": "Bearer the-access-token"}
        return Answer(url, self.userinfo)


@pytest.fixture
def provider(settings, monkeypatch):
    settings.OIDC_ENABLED = True
    settings.OIDC_RP_CLIENT_ID = CLIENT_ID
    settings.OIDC_RP_CLIENT_SECRET = "s3cret"
    for name, url in ENDPOINTS.items():
        setattr(settings, name, url)
    settings.OIDC_RP_SIGN_ALGO = "RS256"
    settings.OIDC_RP_SCOPES = "openid email profile groups"
    settings.OIDC_GROUPS_CLAIM = "groups"
    settings.OIDC_USERNAME_CLAIM = "preferred_username"
    settings.OIDC_PROVIDER_NAME = "Casino SSO"
    settings.OIDC_USE_PKCE = True
    settings.OIDC_SKIP_OTP = False
    settings.OIDC_GROUP_ROLES = group_map_from(
        "OIDC_GROUP_ROLES", "casino-pit-bosses=pit_boss,casino-auditors=auditor,casino-dealers=dealer", roles=True
    )
    settings.OIDC_GROUP_PITS = group_map_from("OIDC_GROUP_PITS", "pit-a=Pit A,pit-b=Pit B", roles=False)
    settings.AUTHENTICATION_BACKENDS = [AXES_BACKEND, PASSWORD_BACKEND, OIDC_BACKEND]
    fake = FakeProvider()
    # The library's only way out: its module's `requests`.
    monkeypatch.setattr("mozilla_django_oidc.auth.requests", fake)
    return fake


def sign_in(client: Client, provider: FakeProvider, userinfo: dict, *, next_url: str = ""):
    """The browser's round trip: to the provider (which asks who it is) and back with a code."""
    start = client.get(reverse("oidc_authentication_init") + (f"?next={next_url}" if next_url else ""))
    assert start.status_code == 302
    sent = urlsplit(start["Location"])
    assert f"{sent.scheme}://{sent.netloc}{sent.path}" == ENDPOINTS["OIDC_OP_AUTHORIZATION_ENDPOINT"]
    query = {name: values[0] for name, values in parse_qs(sent.query).items()}
    assert query["client_id"] == CLIENT_ID and query["code_challenge_method"] == "S256"
    provider.nonce = query["nonce"]
    provider.userinfo = userinfo
    return client.get(reverse("oidc_authentication_callback"), {"code": "the-code", "state": query["state"]})


def person(username: str, *groups: str) -> dict:
    return {
        "sub": f"sub-{username}",
        "preferred_username": username,
        "email": f"{username}@casino.example",
        "given_name": "Vera",
        "family_name": "Petrova",
        "groups": list(groups),
    }


def test_a_mapped_group_gives_its_role_and_its_pit(provider):
    pit_a, _pit_b = PitFactory(name="Pit A"), PitFactory(name="Pit B")
    client = Client()
    answer = sign_in(client, provider, person("vera", "casino-dealers", "pit-a", "unrelated-group"))
    assert answer.status_code == 302 and answer["Location"] == reverse("casino:home")
    vera = User.objects.get(username="vera")
    assert user_roles(vera) == {DEALER}
    assert list(user_pits(vera)) == [pit_a]
    assert (vera.email, vera.first_name, vera.last_name) == ("vera@casino.example", "Vera", "Petrova")
    assert not vera.has_usable_password()
    # Signed in: the session is hers, and the page her role opens answers.
    assert client.get(reverse("casino:home")).status_code in (200, 302)
    assert int(client.session["_auth_user_id"]) == vera.pk
    assert client.session["_auth_user_backend"] == OIDC_BACKEND
    assert provider.calls == [
        ENDPOINTS["OIDC_OP_TOKEN_ENDPOINT"],
        ENDPOINTS["OIDC_OP_JWKS_ENDPOINT"],
        ENDPOINTS["OIDC_OP_USER_ENDPOINT"],
    ]
    assert SecurityEvent.objects.filter(kind=SecurityEvent.Kind.LOGIN, username="vera").exists()


def test_a_changed_group_changes_the_role_at_the_next_sign_in(provider):
    pit_a, pit_b = PitFactory(name="Pit A"), PitFactory(name="Pit B")
    sign_in(Client(), provider, person("oleg", "casino-dealers", "pit-a"))
    oleg = User.objects.get(username="oleg")
    assert user_roles(oleg) == {DEALER} and list(user_pits(oleg)) == [pit_a]
    sign_in(Client(), provider, person("oleg", "casino-pit-bosses", "pit-b"))
    oleg = User.objects.get(username="oleg")
    assert user_roles(oleg) == {PIT_BOSS}
    assert list(Staff.objects.get(user=oleg).pits.all()) == [pit_b]
    assert User.objects.filter(username="oleg").count() == 1


def test_an_existing_account_of_that_username_is_the_persons(provider, make_user):
    PitFactory(name="Pit A")
    local = make_user(DEALER, username="irina")
    sign_in(Client(), provider, person("irina", "casino-auditors"))
    assert User.objects.get(username="irina").pk == local.pk
    assert user_roles(User.objects.get(pk=local.pk)) == {AUDITOR}


def test_no_mapped_group_is_refused_and_nobody_is_created(provider):
    client = Client()
    answer = sign_in(client, provider, person("stranger", "marketing", "pit-a"))
    assert answer.status_code == 302 and answer["Location"] == reverse("login")
    assert not User.objects.filter(username="stranger").exists()
    assert "_auth_user_id" not in client.session
    page = client.get(answer["Location"])
    assert "is in no group that gives a role on this site" in page.content.decode()
    # Counted as a failed login by django-axes, and in the security log.
    assert AccessAttempt.objects.filter(failures_since_start__gte=1).exists()
    assert SecurityEvent.objects.filter(kind=SecurityEvent.Kind.LOGIN_FAILED).exists()


def test_an_account_whose_groups_are_gone_loses_its_roles_and_is_refused(provider):
    PitFactory(name="Pit A")
    sign_in(Client(), provider, person("nina", "casino-pit-bosses", "pit-a"))
    client = Client()
    sign_in(client, provider, person("nina", "marketing"))
    nina = User.objects.get(username="nina")
    assert user_roles(nina) == frozenset() and not Staff.objects.get(user=nina).pits.exists()
    assert "_auth_user_id" not in client.session


def test_a_superusers_account_is_not_signed_into_through_the_provider(provider, make_user):
    admin = make_user("superuser", username="admin", first_name="Local")
    client = Client()
    answer = sign_in(client, provider, person("admin", "casino-auditors"))
    assert answer["Location"] == reverse("login") and "_auth_user_id" not in client.session
    assert "signs in with its own password" in client.get(answer["Location"]).content.decode()
    admin.refresh_from_db()
    assert admin.is_superuser and admin.first_name == "Local"


def test_the_button_speaks_the_pages_language(provider):
    page = Client().get(LOGIN, headers={"accept-language": "ru"}).content.decode()
    assert "Войти через Casino SSO" in page


def test_an_id_token_issued_to_another_client_signs_nobody_in(provider):
    provider.audience = "another-client"
    client = Client(raise_request_exception=False)
    answer = sign_in(client, provider, person("vera", "casino-dealers"))
    assert answer.status_code == 400
    assert not User.objects.filter(username="vera").exists()


def test_a_failure_at_the_provider_lands_on_the_login_page_with_a_message(provider):
    client = Client()
    client.get(reverse("oidc_authentication_init"))
    answer = client.get(reverse("oidc_authentication_callback"), {"error": "access_denied"})
    assert answer.status_code == 302 and answer["Location"] == reverse("login")
    texts = [str(message) for message in get_messages(answer.wsgi_request)]
    assert texts == ["Sign-in through Casino SSO did not complete. Try again, or ask an administrator."]


def test_the_login_page_offers_the_provider(provider):
    page = Client().get(LOGIN + "?next=/audit/").content.decode()
    assert "Sign in with Casino SSO" in page
    assert f'href="{reverse("oidc_authentication_init")}?next=/audit/"' in page


def test_off_unless_configured_no_button_no_backend_no_urls(settings):
    assert not settings.OIDC_ENABLED and not settings.LDAP_ENABLED
    assert OIDC_BACKEND not in settings.AUTHENTICATION_BACKENDS
    assert LDAP_BACKEND not in settings.AUTHENTICATION_BACKENDS
    client = Client()
    page = client.get(LOGIN).content.decode()
    assert "Sign in with" not in page and reverse("oidc_authentication_init") not in page
    assert client.get(reverse("oidc_authentication_init")).status_code == 404
    assert client.get(reverse("oidc_authentication_callback"), {"code": "c", "state": "s"}).status_code == 404


def test_the_second_factor_still_applies_after_oidc(provider, settings):
    settings.OTP_REQUIRED_ROLES = ("pit_boss", "auditor", "admin")
    client = Client()
    sign_in(client, provider, person("boris", "casino-pit-bosses"))
    boris = User.objects.get(username="boris")
    assert not TOTPDevice.objects.filter(user=boris).exists()
    answer = client.get(reverse("casino:home"))
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("casino:otp_enrol"))


def test_oidc_skip_otp_trusts_the_providers_second_factor(provider, settings):
    settings.OTP_REQUIRED_ROLES = ("pit_boss", "auditor", "admin")
    settings.OIDC_SKIP_OTP = True
    client = Client()
    sign_in(client, provider, person("boris", "casino-pit-bosses"))
    answer = client.get(reverse("casino:home"))
    assert not (answer.status_code == 302 and "otp" in answer["Location"])


def test_oidc_skip_otp_does_not_spare_a_password_sign_in(provider, settings, make_user):
    settings.OTP_REQUIRED_ROLES = ("pit_boss", "auditor", "admin")
    settings.OIDC_SKIP_OTP = True
    boss = make_user(PIT_BOSS)
    client = Client()
    client.force_login(boss, backend=PASSWORD_BACKEND)
    answer = client.get(reverse("casino:home"))
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("casino:otp_enrol"))


def test_the_backend_module_serves_the_two_urls():
    names = {pattern.name for pattern in sso.urlpatterns}
    assert names == {"oidc_authentication_init", "oidc_authentication_callback"}


# --- LDAP: ldap3's offline mock server --------------------------------------------------------

BASE = "ou=people,dc=casino,dc=example"
GROUPS = "ou=groups,dc=casino,dc=example"


@pytest.fixture
def directory(settings, monkeypatch):
    """An LDAP server in memory (ldap3 MOCK_SYNC) with two people; every connection the library
    opens goes to it."""
    settings.LDAP_ENABLED = True
    settings.LDAP_AUTH_URL = ["ldap://ldap.casino.example"]
    settings.LDAP_AUTH_SEARCH_BASE = BASE
    settings.LDAP_AUTH_OBJECT_CLASS = "inetOrgPerson"
    settings.LDAP_AUTH_USER_FIELDS = {"username": "uid", "first_name": "givenName", "last_name": "sn", "email": "mail"}
    settings.LDAP_AUTH_USER_LOOKUP_FIELDS = ("username",)
    settings.LDAP_AUTH_SYNC_USER_RELATIONS = "casino.ldap_sso.sync_user_relations"
    settings.LDAP_GROUP_ATTRIBUTE = "memberOf"
    settings.LDAP_GROUP_SEARCH_BASE = ""
    settings.LDAP_GROUP_ROLES = group_map_from(
        "LDAP_GROUP_ROLES", "Casino-Dealers=dealer,casino-audit=auditor", roles=True
    )
    settings.LDAP_GROUP_PITS = group_map_from("LDAP_GROUP_PITS", "pit-b=Pit B", roles=False)
    settings.AUTHENTICATION_BACKENDS = [AXES_BACKEND, PASSWORD_BACKEND, LDAP_BACKEND]

    server = ldap3.Server("mock-ldap")
    real_connection = ldap3.Connection
    admin = real_connection(server, user="cn=admin,dc=casino,dc=example", password="x", client_strategy=ldap3.MOCK_SYNC)

    def add_person(uid: str, password: str, *groups: str) -> None:
        """Adds a person, or replaces him (another set of groups)."""
        admin.strategy.remove_entry(f"uid={uid},{BASE}")
        admin.strategy.add_entry(
            f"uid={uid},{BASE}",
            {
                "objectClass": ["inetOrgPerson"],
                "uid": uid,
                "givenName": "Anna",
                "sn": "Smirnova",
                "mail": f"{uid}@casino.example",
                "userPassword": password,
                "memberOf": [f"cn={group},{GROUPS}" for group in groups],
            },
        )

    def connection(server_pool, **kwargs):
        return real_connection(server, client_strategy=ldap3.MOCK_SYNC, **kwargs)

    monkeypatch.setattr(ldap3, "Connection", connection)
    add_person.admin = admin
    add_person("anna", "anna-secret", "casino-dealers", "pit-b", "canteen")
    add_person("mark", "mark-secret", "marketing", "pit-b")
    return add_person


def test_ldap_bind_maps_groups_to_roles_and_pits(directory):
    PitFactory(name="Pit A")
    pit_b = PitFactory(name="Pit B")
    client = Client()
    answer = client.post(LOGIN, {"username": "anna", "password": "anna-secret"})
    assert answer.status_code == 302, answer.content.decode()[:400]
    anna = User.objects.get(username="anna")
    assert user_roles(anna) == {DEALER}
    assert list(user_pits(anna)) == [pit_b]
    assert (anna.email, anna.first_name) == ("anna@casino.example", "Anna")
    assert client.session["_auth_user_backend"] == LDAP_BACKEND


def test_ldap_wrong_password_is_refused_and_counted(directory):
    answer = Client().post(LOGIN, {"username": "anna", "password": "wrong"})
    assert answer.status_code == 200 and "_auth_user_id" not in answer.wsgi_request.session
    assert not User.objects.filter(username="anna").exists()
    assert AccessAttempt.objects.get(username="anna").failures_since_start == 1
    assert SecurityEvent.objects.filter(kind=SecurityEvent.Kind.LOGIN_FAILED, username="anna").exists()


def test_ldap_user_outside_the_mapped_groups_is_refused_and_not_created(directory):
    PitFactory(name="Pit B")
    client = Client()
    answer = client.post(LOGIN, {"username": "mark", "password": "mark-secret"})
    assert answer.status_code == 200
    assert not User.objects.filter(username="mark").exists()
    assert "is in no group that gives a role on this site" in answer.content.decode()
    assert AccessAttempt.objects.get(username="mark").failures_since_start == 1


def test_ldap_group_change_changes_the_role_at_the_next_sign_in(directory):
    directory("lena", "lena-secret", "casino-dealers")
    assert Client().post(LOGIN, {"username": "lena", "password": "lena-secret"}).status_code == 302
    assert user_roles(User.objects.get(username="lena")) == {DEALER}
    directory("lena", "lena-secret", "casino-audit")  # the entry replaced: moved to another group
    assert Client().post(LOGIN, {"username": "lena", "password": "lena-secret"}).status_code == 302
    assert user_roles(User.objects.get(username="lena")) == {AUDITOR}


def test_ldap_does_not_sign_into_a_superusers_account(directory, make_user):
    directory("root", "directory-secret", "casino-dealers")
    root = make_user("superuser", username="root", first_name="Local")
    answer = Client().post(LOGIN, {"username": "root", "password": "directory-secret"})
    assert answer.status_code == 200 and "signs in with its own password" in answer.content.decode()
    root.refresh_from_db()
    # The library's update of the account is rolled back with the refusal.
    assert root.is_superuser and root.first_name == "Local" and not root.groups.exists()


def test_a_local_password_still_signs_in_with_ldap_on(directory, make_user):
    local = make_user(DEALER, username="local-admin")
    client = Client()
    assert client.post(LOGIN, {"username": local.username, "password": PASSWORD}).status_code == 302
    assert client.session["_auth_user_backend"] == PASSWORD_BACKEND


def test_ldap_groups_by_search_where_entries_have_no_member_of(directory, settings):
    settings.LDAP_GROUP_SEARCH_BASE = GROUPS
    settings.LDAP_GROUP_SEARCH_FILTER = "(|(member={dn})(uniqueMember={dn})(memberUid={username}))"
    directory("pavel", "pavel-secret")  # no memberOf: the groups list him instead
    directory.admin.strategy.add_entry(
        f"cn=casino-audit,{GROUPS}",
        {"objectClass": ["groupOfNames"], "cn": "casino-audit", "member": [f"uid=pavel,{BASE}"]},
    )
    directory.admin.strategy.add_entry(
        f"cn=pit-b,{GROUPS}", {"objectClass": ["posixGroup"], "cn": "pit-b", "memberUid": ["pavel"]}
    )
    directory.admin.strategy.add_entry(
        f"cn=casino-dealers,{GROUPS}",
        {"objectClass": ["groupOfNames"], "cn": "casino-dealers", "member": [f"uid=anna,{BASE}"]},
    )
    pit_b = PitFactory(name="Pit B")
    assert Client().post(LOGIN, {"username": "pavel", "password": "pavel-secret"}).status_code == 302
    pavel = User.objects.get(username="pavel")
    assert user_roles(pavel) == {AUDITOR}
    assert list(Staff.objects.get(user=pavel).pits.all()) == [pit_b]


@pytest.mark.parametrize(
    ("value", "name"),
    [
        ("cn=casino-dealers,ou=groups,dc=casino,dc=example", "casino-dealers"),
        ("CN=Pit B Staff,OU=Groups,DC=casino,DC=example", "Pit B Staff"),
        ("casino-dealers", "casino-dealers"),
    ],
)
def test_a_group_is_named_by_its_cn(value, name):
    assert group_name(value) == name
