"""Admin pages of dealing: shoes (with their events), rounds, stakes, incidents, approvals — to look,
not to edit.

Every write of dealing goes through `dealing.services` (the engine's checks, the hash chain, the
four-eyes rules); an edit here would bypass all three, so these pages are read-only. A round
record in particular is never changed: corrections are new revisions a pit boss approves.
"""

import json

from django.contrib import admin
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from .choices import AuditStatus, RoundStatus
from .models import (
    Approval,
    ChainCheck,
    HaltOverride,
    Incident,
    IncidentAttachment,
    IncidentReview,
    Round,
    Shoe,
    ShoeEvent,
    Stake,
    Supersession,
    audit_status_q,
    status_q,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown, never added, changed or deleted through the admin."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class ShoeEventInline(ReadOnlyInline):
    model = ShoeEvent
    fields = ["position", "kind", "card", "reason", "fee", "dealer", "recorded_by", "recorded_at"]
    ordering = ["position"]


@admin.register(Shoe)
class ShoeAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "table", "number", "decks", "loaded_at", "shuffled_by", "ended_at"]
    list_filter = ["table"]
    list_select_related = ["table", "shuffled_by"]
    date_hierarchy = "loaded_at"
    inlines = [ShoeEventInline]


class StakeInline(ReadOnlyInline):
    model = Stake
    fields = ["stake_id", "box", "player", "ante", "bet", "dealer_bet", "owed_net", "paid_net"]


class _DerivedFilter(admin.SimpleListFilter):
    """A filter by a round's derived status (from the facts beside it, not a column)."""

    enum = None
    q = None

    def lookups(self, request, model_admin):
        return self.enum.choices

    def queryset(self, request, queryset):
        value = self.value()
        return queryset.filter(type(self).q(value)) if value in self.enum.values else queryset


class AuditStatusFilter(_DerivedFilter):
    title = _("audit")
    parameter_name = "audit_status"
    enum = AuditStatus
    q = staticmethod(audit_status_q)


class StatusFilter(_DerivedFilter):
    title = _("status")
    parameter_name = "status"
    enum = RoundStatus
    q = staticmethod(status_q)


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = [
        "__str__",
        "table",
        "shoe",
        "number",
        "dealer",
        "revision",
        "status",
        "audit_status",
        "played_at",
        "logged_at",
    ]
    list_filter = ["table", AuditStatusFilter, StatusFilter, "dealer"]
    list_select_related = ["table", "shoe__table", "dealer"]
    search_fields = ["uid", "sha256"]
    date_hierarchy = "played_at"
    exclude = ["document"]
    readonly_fields = ["pretty_document"]
    inlines = [StakeInline]

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        # The list needs no documents; the page of one round shows it.
        return queryset if request.resolver_match.url_name.endswith("_change") else queryset.defer("document")

    @admin.display(description=_("round log"))
    def pretty_document(self, record):
        return format_html("<pre>{}</pre>", json.dumps(record.document, indent=2, ensure_ascii=False))


@admin.register(Stake)
class StakeAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "player", "box", "ante", "bet", "dealer_bet", "owed_net", "paid_net"]
    list_filter = ["round__table"]
    list_select_related = ["round__table"]
    search_fields = ["player", "stake_id"]


class ApprovalInline(ReadOnlyInline):
    model = Approval
    fk_name = "incident"
    fields = ["decision", "decided_by", "decided_at", "comment"]


class IncidentReviewInline(ReadOnlyInline):
    model = IncidentReview
    fields = ["classification", "money_direction", "money", "reason", "reviewed_by", "second_by", "second_at"]


class IncidentAttachmentInline(ReadOnlyInline):
    # The file itself is downloaded from the incident's page (scoped), never from MEDIA_URL.
    model = IncidentAttachment
    fields = ["kind", "name", "content_type", "size", "sha256", "camera", "video_start", "video_end", "added_by"]


@admin.register(Incident)
class IncidentAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "kind", "card", "table", "dealer", "reported_by", "reported_at", "status"]
    list_filter = ["status", "kind", "table"]
    list_select_related = ["table", "dealer", "reported_by"]
    search_fields = ["evidence", "note"]
    date_hierarchy = "reported_at"
    inlines = [ApprovalInline, IncidentReviewInline, IncidentAttachmentInline]


@admin.register(Approval)
class ApprovalAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "decision", "decided_by", "decided_at", "incident", "round"]
    list_filter = ["decision"]
    list_select_related = ["decided_by", "incident__table", "round__table"]


@admin.register(ChainCheck)
class ChainCheckAdmin(ReadOnlyAdmin):
    list_display = ["at", "kind", "ok", "records", "seq", "message"]
    list_filter = ["kind", "ok"]
    date_hierarchy = "at"


@admin.register(Supersession)
class SupersessionAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "superseded", "superseding", "approval", "at"]
    list_select_related = ["superseded__table", "superseding__table", "approval"]


@admin.register(HaltOverride)
class HaltOverrideAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "round", "event", "codes", "overridden_by", "at", "reason"]
    list_select_related = ["round__table", "overridden_by"]
    date_hierarchy = "at"
