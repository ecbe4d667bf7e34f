"""The books in the admin: read only (every change goes through books.services and its four-eyes checks)."""

from django.contrib import admin

from .models import FloatEvent, TableShift


class _ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class FloatEventInline(admin.TabularInline):
    model = FloatEvent
    extra = 0
    can_delete = False
    fields = ("kind", "status", "chips", "amount", "requested_by", "requested_at", "approved_by", "approved_at",
              "received_by", "received_at")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(TableShift)
class TableShiftAdmin(_ReadOnly):
    list_display = ("table", "status", "dealer", "opened_at", "opening_total", "closing_total", "closed_at")
    list_filter = ("status", "table__pit")
    search_fields = ("table__name", "dealer__username")
    inlines = [FloatEventInline]
