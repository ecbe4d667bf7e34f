"""The ledger in the admin: read-only (a night changes only through its services)."""

from django.contrib import admin

from dealing.admin import ReadOnlyInline

from .models import BankDraw, GameSession, LimitAnnouncement, SessionPlayer, SessionRound


class PlayerInline(ReadOnlyInline):
    model = SessionPlayer


class DrawInline(ReadOnlyInline):
    model = BankDraw


class AnnouncementInline(ReadOnlyInline):
    model = LimitAnnouncement


class RoundInline(ReadOnlyInline):
    model = SessionRound
    raw_id_fields = ["round"]


@admin.register(GameSession)
class GameSessionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "table", "dealer", "status", "first_bank", "created_at", "ended_at"]
    list_filter = ["status", "table"]
    search_fields = ["name", "players__name"]
    inlines = [PlayerInline, DrawInline, AnnouncementInline, RoundInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
