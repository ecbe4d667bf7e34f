"""The authentication backends, and the single sign-on settings read from the environment (issue 37,
item 7); settings.py takes them with `globals().update(sso_settings(env))`.

Always: django-axes first (a locked-out username or address is refused before any password is
checked, and every failure below it is counted), then the site's own passwords. Then, each only
when configured:

- LDAP (casino/ldap_sso.py, django-python3-ldap on ldap3) when LDAP_AUTH_URL is set: the login
  form's username and password are bound against the directory.
- OpenID Connect (casino/sso.py, mozilla-django-oidc) when OIDC_RP_CLIENT_ID is set: a
  "Sign in with …" button on the login page, the authorization code flow with PKCE.

Each maps its directory's groups to roles and pits (casino/directory_groups.py). README.md
("Single sign-on") lists the variables; a required one missing, or a malformed mapping, stops the
start-up with ImproperlyConfigured naming it.
"""

from django.core.exceptions import ImproperlyConfigured

from .directory_groups import group_map_from

AXES_BACKEND = "axes.backends.AxesStandaloneBackend"
PASSWORD_BACKEND = "django.contrib.auth.backends.ModelBackend"
LDAP_BACKEND = "casino.ldap_sso.LDAPBackend"
OIDC_BACKEND = "casino.sso.OIDCBackend"

OIDC_REQUIRED = (
    "OIDC_RP_CLIENT_SECRET",
    "OIDC_OP_AUTHORIZATION_ENDPOINT",
    "OIDC_OP_TOKEN_ENDPOINT",
    "OIDC_OP_USER_ENDPOINT",
    "OIDC_OP_JWKS_ENDPOINT",
)
LDAP_REQUIRED = ("LDAP_AUTH_SEARCH_BASE",)


def require(env, variables: tuple[str, ...], *, because: str) -> dict:
    missing = [name for name in variables if not env.str(name, default="")]
    if missing:
        raise ImproperlyConfigured(f"{because} is set, so {', '.join(missing)} must be set too.")
    return {name: env.str(name) for name in variables}


def mapping(env, source: str) -> dict:
    roles = group_map_from(f"{source}_GROUP_ROLES", env.str(f"{source}_GROUP_ROLES", default=""), roles=True)
    if not roles:
        raise ImproperlyConfigured(
            f"{source}_GROUP_ROLES is empty: nobody could sign in through {source}. Map at least one group "
            f'to a role, e.g. {source}_GROUP_ROLES="casino-pit-bosses=pit_boss".'
        )
    pits = group_map_from(f"{source}_GROUP_PITS", env.str(f"{source}_GROUP_PITS", default=""), roles=False)
    return {f"{source}_GROUP_ROLES": roles, f"{source}_GROUP_PITS": pits}


def oidc_settings(env) -> dict:
    found = {"OIDC_RP_CLIENT_ID": env.str("OIDC_RP_CLIENT_ID")}
    found.update(require(env, OIDC_REQUIRED, because="OIDC_RP_CLIENT_ID"))
    found.update(mapping(env, "OIDC"))
    found.update(
        # RS256 with the provider's published keys (OIDC_OP_JWKS_ENDPOINT); HS256 would sign with
        # the client secret.
        OIDC_RP_SIGN_ALGO=env.str("OIDC_RP_SIGN_ALGO", default="RS256"),
        OIDC_RP_SCOPES=env.str("OIDC_RP_SCOPES", default="openid email profile groups"),
        # The claim holding the groups (Keycloak, Authentik: "groups"; Azure AD: "groups" or "roles").
        OIDC_GROUPS_CLAIM=env.str("OIDC_GROUPS_CLAIM", default="groups"),
        # The claim that becomes the username; an existing account of that username is the person's.
        OIDC_USERNAME_CLAIM=env.str("OIDC_USERNAME_CLAIM", default="preferred_username"),
        OIDC_PROVIDER_NAME=env.str("OIDC_PROVIDER_NAME", default="single sign-on"),
        OIDC_USE_PKCE=env.bool("OIDC_USE_PKCE", default=True),
        OIDC_TIMEOUT=env.int("OIDC_TIMEOUT", default=10),
        # Only where the provider itself asks for a second factor: the site's TOTP is then not asked
        # again after a sign-in through it.
        OIDC_SKIP_OTP=env.bool("OIDC_SKIP_OTP", default=False),
    )
    return found


def ldap_settings(env) -> dict:
    found = {"LDAP_AUTH_URL": env.list("LDAP_AUTH_URL")}
    found.update(require(env, LDAP_REQUIRED, because="LDAP_AUTH_URL"))
    found.update(mapping(env, "LDAP"))
    domain = env.str("LDAP_AUTH_ACTIVE_DIRECTORY_DOMAIN", default="")
    username_attribute = env.str("LDAP_USERNAME_ATTRIBUTE", default="sAMAccountName" if domain else "uid")
    found.update(
        LDAP_AUTH_USE_TLS=env.bool("LDAP_AUTH_USE_TLS", default=False),
        LDAP_AUTH_OBJECT_CLASS=env.str("LDAP_AUTH_OBJECT_CLASS", default="user" if domain else "inetOrgPerson"),
        LDAP_AUTH_USER_FIELDS={
            "username": username_attribute,
            "first_name": "givenName",
            "last_name": "sn",
            "email": "mail",
        },
        LDAP_AUTH_USER_LOOKUP_FIELDS=("username",),
        # How a username becomes the name bound: DOMAIN\name for Active Directory, else
        # uid=name,<LDAP_AUTH_SEARCH_BASE>.
        LDAP_AUTH_FORMAT_USERNAME=(
            "django_python3_ldap.utils.format_username_active_directory"
            if domain
            else "django_python3_ldap.utils.format_username_openldap"
        ),
        LDAP_AUTH_ACTIVE_DIRECTORY_DOMAIN=domain or None,
        # A service account to read the user's entry and groups with, where users may not read their own.
        LDAP_AUTH_CONNECTION_USERNAME=env.str("LDAP_AUTH_CONNECTION_USERNAME", default="") or None,
        LDAP_AUTH_CONNECTION_PASSWORD=env.str("LDAP_AUTH_CONNECTION_PASSWORD", default="") or None,
        # A directory that does not answer must not hold a login (and a worker) for minutes.
        LDAP_AUTH_CONNECT_TIMEOUT=env.int("LDAP_AUTH_CONNECT_TIMEOUT", default=10),
        LDAP_AUTH_RECEIVE_TIMEOUT=env.int("LDAP_AUTH_RECEIVE_TIMEOUT", default=10),
        LDAP_AUTH_SYNC_USER_RELATIONS="casino.ldap_sso.sync_user_relations",
        # The groups: the user's memberOf attribute by default; with LDAP_GROUP_SEARCH_BASE, a search
        # there for the groups listing his DN (directories without memberOf).
        LDAP_GROUP_ATTRIBUTE=env.str("LDAP_GROUP_ATTRIBUTE", default="memberOf"),
        LDAP_GROUP_SEARCH_BASE=env.str("LDAP_GROUP_SEARCH_BASE", default=""),
        LDAP_GROUP_SEARCH_FILTER=env.str(
            "LDAP_GROUP_SEARCH_FILTER", default="(|(member={dn})(uniqueMember={dn})(memberUid={username}))"
        ),
    )
    return found


def sso_settings(env) -> dict:
    backends = [AXES_BACKEND, PASSWORD_BACKEND]
    found: dict = {"OIDC_ENABLED": False, "LDAP_ENABLED": False, "OIDC_SKIP_OTP": False, "OIDC_PROVIDER_NAME": ""}
    if env.str("LDAP_AUTH_URL", default=""):
        found.update(ldap_settings(env), LDAP_ENABLED=True)
        backends.append(LDAP_BACKEND)
    if env.str("OIDC_RP_CLIENT_ID", default=""):
        found.update(oidc_settings(env), OIDC_ENABLED=True)
        backends.append(OIDC_BACKEND)
    found["AUTHENTICATION_BACKENDS"] = backends
    return found
