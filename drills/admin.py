"""The drills in the admin: read what was drilled; standards are set from the pit boss's page."""

from django.contrib import admin

from dealing.admin import ReadOnlyInline

from .models import Certificate, CertificationStandard, Drill, DrillRound


class DrillRoundInline(ReadOnlyInline):
    model = DrillRound
    fields = ("number", "presented_at", "answered_at", "time_ms", "decisions", "correct")
    readonly_fields = fields


@admin.register(Drill)
class DrillAdmin(admin.ModelAdmin):
    list_display = (
        "pk",
        "trainee",
        "kind",
        "variant",
        "preset",
        "table_name",
        "rounds_done",
        "rounds_planned",
        "decisions",
        "correct",
        "status",
        "started_at",
    )
    list_filter = ("kind", "variant", "status")
    search_fields = ("trainee__username", "trainee__first_name", "trainee__last_name")
    readonly_fields = (
        "trainee",
        "variant",
        "preset",
        "kind",
        "seed",
        "options",
        "table_key",
        "table_name",
        "table_min",
        "table_max",
        "chips",
        "rounds_planned",
        "started_at",
        "finished_at",
        "rounds_done",
        "decisions",
        "correct",
        "time_ms",
    )
    inlines = [DrillRoundInline]


@admin.register(CertificationStandard)
class CertificationStandardAdmin(admin.ModelAdmin):
    list_display = (
        "variant",
        "preset",
        "kind",
        "rounds_in_row",
        "min_accuracy",
        "time_limit_s",
        "is_active",
        "set_by",
        "set_at",
    )
    list_filter = ("variant", "kind", "is_active")


@admin.register(Certificate)
class CertificateAdmin(admin.ModelAdmin):
    list_display = ("trainee", "standard", "accuracy", "rounds", "drill", "issued_at")
    readonly_fields = ("trainee", "standard", "drill", "issued_at", "accuracy", "rounds")
