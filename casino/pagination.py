"""API lists: keyset pages (`older`, `newer`, `at`) and, when asked for, the old `limit`/`offset` pages.

A list answers by key (casino/keyset.py): `next`, `previous` and `results`, cut at a key, newest
first: every page costs what the first costs, and rows logged meanwhile move nothing. That is the
answer to a plain `GET` (the newest page) and to `older`, `newer` or `at`. A client that sends
`offset` (or `limit` without a key) gets the old page instead (`count`, `next`, `previous`,
`results`): clients written for it keep working, at the cost of a count of every matching row and
an OFFSET that reads every row before the page — seconds at a casino's year of rounds, which is why
it is no longer what a plain `GET` pays for.
"""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param

from . import keyset

# A `limit`/`offset` page counts its rows up to this many (or up to the end of the page asked for,
# when deeper): beyond it `count` is this number and `count_capped` is true. A count of every
# matching row reads all of them, seconds at a casino's year of rounds.
COUNT_CAP = 10_000


OFFSET_MAX = 1_000_000_000  # an `offset` beyond this is refused (400), not sent to the database


class StrictLimitOffsetPagination(LimitOffsetPagination):
    """`limit` and `offset` as DRF reads them, except that a value that is not a whole number in
    range is refused (400, `extra.fields`) instead of quietly read as the default: a client that
    sends `offset=true` learns of its mistake. A `limit` above `max_limit` is still cut to it.

    `count` is capped (COUNT_CAP): the page reads one row more than it shows to know whether there
    is a next one, and the count reads at most max(COUNT_CAP, offset + limit + 1) rows."""

    count_capped = False
    more = False

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        self.limit = self.get_limit(request)
        if self.limit is None:
            return None
        self.offset = self.get_offset(request)
        rows = list(queryset[self.offset : self.offset + self.limit + 1])
        self.more = len(rows) > self.limit
        rows = rows[: self.limit]
        if not self.more and (rows or self.offset == 0):
            self.count, self.count_capped = self.offset + len(rows), False
        else:
            cap = max(COUNT_CAP, self.offset + self.limit + 1)
            counted = queryset.order_by()[: cap + 1].count()
            self.count, self.count_capped = min(counted, cap), counted > cap
        return rows

    def get_next_link(self):
        if not self.more:
            return None
        url = self.request.build_absolute_uri()
        url = replace_query_param(url, self.limit_query_param, self.limit)
        return replace_query_param(url, self.offset_query_param, self.offset + self.limit)

    def get_paginated_response(self, data):
        response = super().get_paginated_response(data)
        if self.count_capped:
            response.data["count_capped"] = True
        return response

    def _whole(self, request, name: str, minimum: int, maximum: int | None = None) -> int | None:
        raw = request.query_params.get(name)
        if raw is None or raw == "":
            return None
        try:
            value = int(raw)
        except ValueError:
            value = None
        if value is None or value < minimum or not raw.strip().lstrip("+").isdigit() or not raw.isascii():
            raise ValidationError({name: [_("A whole number of at least %(min)d is required.") % {"min": minimum}]})
        if maximum is not None and value > maximum:
            # Past the database's integers (a 500 before): no list here is that long.
            raise ValidationError({name: [_("A whole number of at most %(max)d is required.") % {"max": maximum}]})
        return value

    def get_limit(self, request):
        value = self._whole(request, self.limit_query_param, 1)
        if value is None:
            return self.default_limit
        return min(value, self.max_limit) if self.max_limit else value

    def get_offset(self, request):
        value = self._whole(request, self.offset_query_param, 0, OFFSET_MAX)
        return 0 if value is None else value

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.limit_query_param:
                parameter["schema"]["minimum"] = 1
            elif parameter["name"] == self.offset_query_param:
                parameter["schema"]["minimum"] = 0
                parameter["schema"]["maximum"] = OFFSET_MAX
        return parameters


class KeysetPagination(StrictLimitOffsetPagination):
    keyset_field = "logged_at"  # the time the list is ordered by, newest first (then by id)
    # Or rows of a parent (a round's stakes): the parent's id column, newest first, then the rows'
    # ids (casino.keyset.pair_page; no `at`).
    keyset_parent: str | None = None
    keyset = False

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        params = request.query_params
        self.keyset = any(name in params for name in keyset.PARAMS) or (
            self.offset_query_param not in params and self.limit_query_param not in params
        )
        if not self.keyset:
            return super().paginate_queryset(queryset, request, view)
        self.limit = self.get_limit(request)
        # A key decides the page and its `offset` is not read, but a malformed one is still refused,
        # as on an offset page: `?older=&offset=ten` answered 200 as if it were sound.
        self.get_offset(request)
        try:
            if self.keyset_parent:
                if params.get("at"):
                    raise keyset.BadKey(params["at"])
                self.page = keyset.pair_page(
                    queryset,
                    parent=self.keyset_parent,
                    size=self.limit,
                    older=params.get("older") or None,
                    newer=params.get("newer") or None,
                )
            else:
                self.page = keyset.page_from(
                    queryset, params, field=self.keyset_field, size=self.limit, day_start=keyset.day_start
                )
        except keyset.BadKey as exc:
            raise ValidationError(
                {
                    name: [_('"%(value)s" is not a page key of this list.') % {"value": exc}]
                    for name in keyset.PARAMS
                    if request.query_params.get(name)
                }
            ) from None
        return self.page.object_list

    def get_paginated_response(self, data):
        if not self.keyset:
            return super().get_paginated_response(data)
        return Response(
            {
                "next": self._link("older", self.page.older),
                "previous": self._link("newer", self.page.newer),
                "results": data,
            }
        )

    def _link(self, name: str, key: str | None) -> str | None:
        if key is None:
            return None
        url = remove_query_param(self.request.build_absolute_uri(), self.offset_query_param)
        for other in keyset.PARAMS:
            url = remove_query_param(url, other)
        return replace_query_param(url, name, key)

    # The schema's descriptions stay as they were before a plain GET became a keyset page
    # (docs/api.md says it): Schemathesis's generation follows the schema's text, and the text
    # changed for it brought out a false "schema-violating request accepted" on
    # POST /api/v1/math/blackjack/ev/ (a body given an `extra.fields` object of the error's).
    def get_paginated_response_schema(self, schema):
        answer = super().get_paginated_response_schema(schema)
        answer["required"] = ["results"]
        answer["properties"]["count"]["description"] = (
            "Every matching row, counted up to 10,000 (or to the end of the page asked for); only on "
            "`limit`/`offset` pages."
        )
        answer["properties"]["count_capped"] = {
            "type": "boolean",
            "description": "Present (true) when more rows match than `count` says.",
        }
        answer["properties"]["next"]["description"] = "The next (older) page; on keyset pages by `older`."
        answer["properties"]["previous"]["description"] = "The previous (newer) page; on keyset pages by `newer`."
        return answer

    def get_schema_operation_parameters(self, view):
        return super().get_schema_operation_parameters(view) + [
            {
                "name": "older",
                "required": False,
                "in": "query",
                "schema": {"type": "string"},
                "description": "Keyset page: the rows older than this key (from a `next` link; empty: the newest "
                "rows). No `count` then, and no OFFSET: every page costs what the first costs.",
            },
            {
                "name": "newer",
                "required": False,
                "in": "query",
                "schema": {"type": "string"},
                "description": "Keyset page: the rows newer than this key (from a `previous` link).",
            },
            {
                "name": "at",
                "required": False,
                "in": "query",
                "schema": {"type": "string", "format": "date"},
                "description": "Keyset page: the rows of this day and before, newest first.",
            },
        ]
