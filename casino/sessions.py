"""The session store (SESSION_ENGINE): Django's database sessions, the session read in SQL of its own.

Every signed-in request reads its session first; the ORM's building of that one-row query cost
more CPU than the query (a tenth of a terminal entry's). The row, the expiry check, the decoding
and everything the store writes are Django's own.
"""

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.db import connection
from django.utils import timezone

from .db import model_from_row


class SessionStore(DatabaseSessionStore):
    _sql = None

    def _get_session_from_db(self):
        model = self.model
        fields = list(model._meta.concrete_fields)
        cls = type(self)
        if cls._sql is None:
            q = connection.ops.quote_name
            cls._sql = (
                f"SELECT {', '.join(q(f.column) for f in fields)} FROM {q(model._meta.db_table)} "
                f"WHERE {q(model._meta.get_field('session_key').column)} = %s "
                f"AND {q(model._meta.get_field('expire_date').column)} > %s"
            )
        key = self.session_key
        if key is not None:
            expire = model._meta.get_field("expire_date").get_db_prep_value(timezone.now(), connection)
            with connection.cursor() as cursor:
                cursor.execute(cls._sql, [key, expire])
                row = cursor.fetchone()
            if row is not None:
                return model_from_row(model, fields, row)
        self._session_key = None
        return None
