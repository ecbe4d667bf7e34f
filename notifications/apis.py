"""The notifications' endpoints (under /api/v1/notifications/): each user reads and marks only his own.

GET  /                  his notifications, newest first (keyset pages: older, newer, at; ?unread=1)
GET  unread-count/      {"unread": n}: what the bell shows
POST <id>/read/         mark one read (another user's id: 404)
POST read-all/          mark all read: {"marked": n}
"""

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_errors import errors
from casino.pagination import KeysetPagination
from casino.roles import HasRole

from . import selectors, services
from .kinds import Kind
from .views import READERS


class NotificationPagination(KeysetPagination):
    keyset_field = "created_at"
    default_limit = 50
    max_limit = 200


@extend_schema_serializer(component_name="Notification")
class NotificationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Kind.choices)
    title = serializers.CharField(help_text="In the language of the request.")
    text = serializers.CharField()
    url = serializers.CharField(help_text="The page of what it is about (a path on this site).")
    params = serializers.DictField(help_text="The facts the title and text are made of.")
    created_at = serializers.DateTimeField()
    read_at = serializers.DateTimeField(allow_null=True)


class NotificationListApi(APIView):
    permission_classes = [HasRole(*READERS)]
    pagination_class = NotificationPagination

    @extend_schema(
        parameters=[OpenApiParameter("unread", OpenApiTypes.BOOL, description="Only the unread ones.")],
        responses=NotificationSerializer(many=True),
    )
    def get(self, request):
        rows = selectors.notification_list(request.user)
        unread = request.query_params.get("unread", "")
        if unread not in ("", "0", "1", "true", "false"):
            raise serializers.ValidationError({"unread": [_("Say 1 or 0 (true or false).")]})
        if unread in ("1", "true"):
            rows = rows.filter(read_at__isnull=True)
        paginator = NotificationPagination()
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response(NotificationSerializer(page, many=True).data)


class UnreadCountApi(APIView):
    permission_classes = [HasRole(*READERS)]

    @extend_schema(
        operation_id="notifications_unread_count",
        responses=inline_serializer("NotificationUnreadCount", {"unread": serializers.IntegerField()}),
    )
    def get(self, request):
        return Response({"unread": selectors.unread_count(request.user)})


class MarkReadApi(APIView):
    permission_classes = [HasRole(*READERS)]

    @extend_schema(
        operation_id="notifications_mark_read", request=None, responses={200: NotificationSerializer, **errors(404)}
    )
    def post(self, request, pk: int):
        notification = selectors.notification_for(request.user, pk)
        return Response(NotificationSerializer(services.mark_read(user=request.user, notification=notification)).data)


class MarkAllReadApi(APIView):
    permission_classes = [HasRole(*READERS)]

    @extend_schema(
        operation_id="notifications_mark_all_read",
        request=None,
        responses=inline_serializer("NotificationsMarked", {"marked": serializers.IntegerField()}),
    )
    def post(self, request):
        return Response({"marked": services.mark_all_read(user=request.user)})
