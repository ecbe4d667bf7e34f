"""The ledger in the admin: read-only (a night changes only through its services)."""

from django.contrib import admin

from .models import BankDraw, GameSession, LimitAnnouncement, SessionPlayer, SessionRound


class _ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class PlayerInline(_ReadOnlyInline):
    model = SessionPlayer


class DrawInline(_ReadOnlyInline):
    model = BankDraw


class AnnouncementInline(_ReadOnlyInline):
    model = LimitAnnouncement


class RoundInline(_ReadOnlyInline):
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
