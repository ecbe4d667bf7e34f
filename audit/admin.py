"""Admin pages of audit: findings (with their review history), audit runs (with their chunks) and
shoe checks — to look, not to edit. Findings are written by the audit and reviewed through the
audit pages or the API (audit.services), which keep the history; nothing here bypasses that."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from dealing.admin import ReadOnlyAdmin, ReadOnlyInline

from .models import AuditRun, AuditRunChunk, Finding, Review, ShoeAudit


class ReviewInline(ReadOnlyInline):
    model = Review
    fields = ["at", "auditor", "status", "classification", "comment"]
    readonly_fields = fields


@admin.register(Finding)
class FindingAdmin(ReadOnlyAdmin):
    list_display = ["played_at", "code", "severity", "table", "dealer", "round", "shoe", "player_delta", "status"]
    list_filter = ["severity", "status", "classification", "code", "table__pit"]
    search_fields = ["message", "code", "stake", "round__uid"]
    date_hierarchy = "played_at"
    list_select_related = ["table", "dealer", "round", "shoe", "shoe__table", "round__table"]
    inlines = [ReviewInline]


@admin.register(Review)
class ReviewAdmin(ReadOnlyAdmin):
    list_display = ["at", "code", "auditor", "status", "classification", "finding", "round"]
    list_filter = ["status", "classification"]
    search_fields = ["comment", "code"]
    list_select_related = ["auditor", "finding", "round", "round__table"]


class ChunkInline(ReadOnlyInline):
    model = AuditRunChunk
    fields = ["number", "status", "rounds", "clean", "with_findings", "errors", "done_at"]
    readonly_fields = fields


@admin.register(AuditRun)
class AuditRunAdmin(ReadOnlyAdmin):
    list_display = [
        "run_number",
        "created_at",
        "trigger",
        "started_by",
        "status",
        "rounds_done",
        "rounds_total",
        "findings_total",
        "finished_at",
    ]
    list_filter = ["status", "trigger"]
    inlines = [ChunkInline]

    @admin.display(description=_("run"), ordering="pk")
    def run_number(self, run):
        return f"#{run.pk}"


@admin.register(ShoeAudit)
class ShoeAuditAdmin(ReadOnlyAdmin):
    list_display = ["shoe", "status", "findings", "rounds", "audited_at", "engine_version"]
    list_filter = ["status"]
    list_select_related = ["shoe", "shoe__table"]
