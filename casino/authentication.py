"""API token authentication in one query (REST_FRAMEWORK's DEFAULT_AUTHENTICATION_CLASSES).

Tokens are django-rest-knox's: only a digest of each is stored, a person's token expires
(REST_KNOX["TOKEN_TTL"]) and can be revoked; a machine's token (`DeviceToken`) is a knox token too.
The digest is the token table's primary key, so the row is found by it directly (knox itself looks
tokens up by their first characters and then compares digests, and sweeps the user's other expired
tokens on every call: more queries). An expired token is refused as an unknown one, and deleted.

knox's `TokenAuthentication` reads the token and its user; then the role check reads the user's
groups (`casino.roles.user_roles`) and the pit check his pits (`dealing.access.works_at`): three
queries before an endpoint does anything, each one built by the ORM anew on every request. On
PostgreSQL this class reads all of it at once — the token, its user, the role names he holds and
the ids of the pits he works in — and leaves the last two where those checks look for them (on the
user object, which lives for one request). The checks themselves are unchanged: an unknown token or
an inactive user is refused exactly as knox refuses them, and roles and pits are still judged by
`has_role` and `works_at`. On other databases it is knox's class.
"""

import binascii

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connection, connections
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from knox import auth
from knox.crypto import hash_token
from knox.models import get_token_model
from rest_framework import exceptions

from casino import roles
from casino.db import model_from_row
from casino.models import Staff
from casino.scope import PITS_CACHE  # where `casino.scope.works_at` keeps the ids of the user's pits


class TokenAuthentication(auth.TokenAuthentication):
    _sql = None

    def get_model(self):
        return get_token_model()

    def _query(self) -> str:
        cls = type(self)
        if cls._sql is None:
            token_model, user_model = self.get_model(), get_user_model()
            cls._token_fields = list(token_model._meta.concrete_fields)
            cls._user_fields = list(user_model._meta.concrete_fields)
            groups = user_model._meta.get_field("groups")
            group_model, user_groups = groups.related_model, groups.remote_field.through
            pits = Staff._meta.get_field("pits")
            q = connection.ops.quote_name
            columns = ", ".join(
                [f"t.{q(f.column)}" for f in cls._token_fields] + [f"u.{q(f.column)}" for f in cls._user_fields]
            )
            token_user = token_model._meta.get_field("user").column
            cls._sql = (
                f"SELECT {columns}, "
                f"ARRAY(SELECT g.{q(group_model._meta.get_field('name').column)} "
                f"FROM {q(group_model._meta.db_table)} g JOIN {q(user_groups._meta.db_table)} ug "
                f"ON ug.{q(groups.m2m_reverse_name())} = g.{q(group_model._meta.pk.column)} "
                f"WHERE ug.{q(groups.m2m_column_name())} = u.{q(user_model._meta.pk.column)}), "
                f"ARRAY(SELECT sp.{q(pits.m2m_reverse_name())} "
                f"FROM {q(Staff._meta.db_table)} s JOIN {q(pits.remote_field.through._meta.db_table)} sp "
                f"ON sp.{q(pits.m2m_column_name())} = s.{q(Staff._meta.pk.column)} "
                f"WHERE s.{q(Staff._meta.get_field('user').column)} = u.{q(user_model._meta.pk.column)}) "
                f"FROM {q(token_model._meta.db_table)} t JOIN {q(user_model._meta.db_table)} u "
                f"ON u.{q(user_model._meta.pk.column)} = t.{q(token_user)} "
                f"WHERE t.{q(token_model._meta.pk.column)} = %s"
            )
        return cls._sql

    def _fetch(self, key):
        """The token's row. On a connection kept from an earlier request (CONN_MAX_AGE) this query is
        also the connection's health check: Django would first send a `SELECT 1` of its own, a
        round trip on every API call. A connection found dead (a restart, a cut) is replaced and
        the query run once more, as Django does after a failed check — it only reads."""
        db = connections[DEFAULT_DB_ALIAS]
        kept = db.connection is not None and not db.in_atomic_block and not db.health_check_done
        if kept:
            db.health_check_done = True
        try:
            return self._read(db, key)
        except (OperationalError, InterfaceError):
            if not kept:
                raise
            db.close()
            return self._read(db, key)

    def _read(self, db, key):
        with db.cursor() as cursor:
            cursor.execute(self._query(), [key])
            return cursor.fetchone()

    def authenticate_credentials(self, token):
        if connection.vendor != "postgresql":
            return super().authenticate_credentials(token)
        try:
            digest = hash_token(token.decode("utf-8"))
        except (UnicodeError, TypeError, ValueError, binascii.Error):  # not a token knox could have made
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        row = self._fetch(digest)
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        n_token, n_user = len(self._token_fields), len(self._user_fields)
        token = model_from_row(self.get_model(), self._token_fields, row[:n_token])
        if token.expiry is not None and token.expiry < timezone.now():
            token.delete()
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        user = model_from_row(get_user_model(), self._user_fields, row[n_token : n_token + n_user])
        token.user = user
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        group_names, pit_ids = row[n_token + n_user :]
        names = frozenset(name for name in group_names if name in roles.ROLES)
        setattr(user, roles.CACHE_ATTR, names)  # what user_roles reads first
        # Superusers and auditors work in every pit: `user_pits` answers for them as before.
        if not user.is_superuser and names.isdisjoint(roles.SEES_EVERY_PIT):
            user.__dict__[PITS_CACHE] = frozenset(pit_ids)
        return user, token


class TokenScheme(OpenApiAuthenticationExtension):
    """The schema's security scheme for this class: `Authorization: Token <key>`, under the name it
    had as DRF's token authentication (`tokenAuth`), so clients generated from the schema keep it."""

    target_class = TokenAuthentication
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix=self.target.authenticate_header(None)
        )
