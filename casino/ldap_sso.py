"""LDAP sign-in (django-python3-ldap on ldap3, pure Python), on when LDAP_AUTH_URL is set
(casino/sso_settings.py).

The login form's username and password are bound against the directory (after the site's own
passwords fail: a local admin account keeps working when the directory is down). The entry's groups
(its memberOf values, or a search under LDAP_GROUP_SEARCH_BASE) then set the person's roles and
pits (casino/directory_groups.py). A group is named by its cn: "cn=casino-pit-bosses,ou=groups,…"
is the group casino-pit-bosses of LDAP_GROUP_ROLES. Someone in no mapped group is refused and not
created. django-axes counts a failed LDAP login like any other (it is the same login form).
"""

import ldap3
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django_python3_ldap.auth import LDAPBackend as DirectoryBackend
from ldap3.utils.conv import escape_filter_chars
from ldap3.utils.dn import parse_dn

from .directory_groups import DirectoryRefusal, apply_assignment, assignment_from, check_account, refuse


def group_name(value: str) -> str:
    """A group's name from its DN (its first RDN's value: cn=pit-a,ou=groups,… → pit-a), or the
    value itself when it is not a DN (memberUid-style directories list plain names)."""
    try:
        parts = parse_dn(value)
    except Exception:  # ldap3 raises several kinds for a value that is not a DN
        return value
    return parts[0][1] if parts else value


def attribute_values(attributes: dict, name: str) -> list[str]:
    for key, value in attributes.items():
        if key.lower() == name.lower():
            return [value] if isinstance(value, str | bytes) else list(value)
    return []


def searched_groups(connection, dn: str, username: str) -> list[str]:
    connection.search(
        search_base=settings.LDAP_GROUP_SEARCH_BASE,
        search_filter=settings.LDAP_GROUP_SEARCH_FILTER.format(
            dn=escape_filter_chars(dn), username=escape_filter_chars(username)
        ),
        search_scope=ldap3.SUBTREE,
        attributes=["cn"],
    )
    names = []
    for entry in connection.response or []:
        if entry.get("type") == "searchResEntry":
            names.extend(attribute_values(entry.get("attributes") or {}, "cn") or [group_name(entry["dn"])])
    return names


def sync_user_relations(user, ldap_attributes, *, connection=None, dn=None):
    """LDAP_AUTH_SYNC_USER_RELATIONS: the roles and pits from the entry's groups; NoMappedGroup for
    someone in none, SuperuserAccount for a superuser's account (LDAPBackend then undoes the
    account just created or updated)."""
    check_account(user)
    if settings.LDAP_GROUP_SEARCH_BASE and connection is not None and dn:
        groups = searched_groups(connection, dn, user.get_username())
    else:
        groups = [group_name(str(value)) for value in attribute_values(ldap_attributes, settings.LDAP_GROUP_ATTRIBUTE)]
    assignment = assignment_from(
        groups, role_map=settings.LDAP_GROUP_ROLES, pit_map=settings.LDAP_GROUP_PITS, who=user.get_username()
    )
    apply_assignment(user, assignment)


class LDAPBackend(DirectoryBackend):
    """django-python3-ldap's backend, refusing (and not creating) someone in no mapped group."""

    def authenticate(self, request=None, *args, **kwargs):
        try:
            # The library creates or updates the account before it asks for the groups: a refusal
            # rolls that back.
            with transaction.atomic():
                return super().authenticate(request, *args, **kwargs)
        except DirectoryRefusal as refusal:
            user_model = get_user_model()
            existing = user_model.objects.filter(**{user_model.USERNAME_FIELD: str(refusal)}).first()
            refuse(request, existing, refusal, source="LDAP")
            return None

    async def aauthenticate(self, request=None, *args, **kwargs):
        from asgiref.sync import sync_to_async

        return await sync_to_async(self.authenticate)(request, *args, **kwargs)
