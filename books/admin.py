"""The books in the admin: read only (every change goes through books.services and its four-eyes
checks; a signal is reviewed by an auditor on its page, books.integrity.services)."""

from django.contrib import admin

from .models import FloatEvent, IntegritySignal, TableShift


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
    fields = (
        "kind",
        "status",
        "chips",
        "amount",
        "requested_by",
        "requested_at",
        "approved_by",
        "approved_at",
        "received_by",
        "received_at",
    )
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(TableShift)
class TableShiftAdmin(_ReadOnly):
    list_display = ("table", "status", "dealer", "opened_at", "opening_total", "closing_total", "closed_at")
    list_filter = ("status", "table__pit")
    search_fields = ("table__name", "dealer__username")
    inlines = [FloatEventInline]


@admin.register(IntegritySignal)
class IntegritySignalAdmin(_ReadOnly):
    list_display = (
        "kind",
        "status",
        "dealer",
        "player",
        "box",
        "table",
        "period_start",
        "period_end",
        "p_value_adjusted",
        "reviewed_by",
    )
    list_filter = ("kind", "status", "table__pit")
    search_fields = ("dealer__username", "player", "table__name", "key")
    date_hierarchy = "period_end"

    @admin.display(description=IntegritySignal._meta.get_field("p_adjusted").verbose_name, ordering="p_adjusted")
    def p_value_adjusted(self, signal: IntegritySignal) -> str:
        return f"{signal.p_adjusted:.2g}"  # 17 digits of a p-value of 1e-11 pushed the column off the page
