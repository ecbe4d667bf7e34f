"""Admin pages of the floor: pits, tables, staff (with their roles and pits)."""

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy as _

from .forms import TableForm
from .models import DeviceToken, Pit, SecurityEvent, Staff, Table
from .roles import ROLE_LABELS, ROLES


class TableInline(admin.TabularInline):
    model = Table
    form = TableForm
    fields = ["name", "variant", "min_bet", "max_bet", "boxes", "is_active"]
    extra = 0
    show_change_link = True


@admin.register(Pit)
class PitAdmin(admin.ModelAdmin):
    list_display = ["name", "description", "table_count"]
    search_fields = ["name", "description"]
    inlines = [TableInline]

    @admin.display(description=_("tables"))
    def table_count(self, pit):
        return pit.tables.count()


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    form = TableForm
    list_display = ["name", "pit", "variant", "min_bet", "max_bet", "boxes", "is_active"]
    list_filter = ["pit", "variant", "is_active"]
    list_editable = ["is_active"]
    list_select_related = ["pit"]
    search_fields = ["name", "pit__name"]


class RoleFilter(admin.SimpleListFilter):
    title = _("role")
    parameter_name = "role"

    def lookups(self, request, model_admin):
        return [(role, ROLE_LABELS[role]) for role in ROLES]

    def queryset(self, request, queryset):
        if self.value() in ROLES:
            return queryset.filter(user__groups__name=self.value())
        return queryset


@admin.register(Staff)
class StaffAdmin(admin.ModelAdmin):
    list_display = ["user", "full_name", "badge", "role_list", "pit_list"]
    list_filter = ["pits", RoleFilter]
    search_fields = ["user__username", "user__first_name", "user__last_name", "badge"]
    filter_horizontal = ["pits"]
    autocomplete_fields = ["user"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("user").prefetch_related("pits", "user__groups")

    @admin.display(description=_("name"))
    def full_name(self, staff):
        return staff.user.get_full_name()

    @admin.display(description=_("roles"))
    def role_list(self, staff):
        if staff.user.is_superuser:
            return _("Superuser")
        return ", ".join(str(ROLE_LABELS[g.name]) for g in staff.user.groups.all() if g.name in ROLE_LABELS)

    @admin.display(description=_("pits"))
    def pit_list(self, staff):
        return ", ".join(pit.name for pit in staff.pits.all())


class StaffInline(admin.StackedInline):
    model = Staff
    can_delete = False
    filter_horizontal = ["pits"]
    verbose_name_plural = _("staff profile")


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class CasinoUserAdmin(UserAdmin):
    """Django's user admin, with the staff profile (pits, badge) on the same page as the roles."""

    inlines = [StaffInline]
    list_filter = UserAdmin.list_filter + ("staff__pits",)


admin.site.site_header = _("Casino floor administration")
admin.site.site_title = _("Casino floor")


@admin.register(DeviceToken)
class DeviceTokenAdmin(admin.ModelAdmin):
    """Device tokens: issued here with a name and the account the machine acts as; the key is shown
    once, on the page after saving. Revoking (the action, or deleting) ends the token at once."""

    list_display = ["name", "user", "issued_by", "issued_at", "expiry", "revoked_at", "live"]
    list_filter = ["revoked_at"]
    search_fields = ["name", "user__username"]
    fields = ["name", "user"]
    actions = ["revoke"]

    def get_readonly_fields(self, request, obj=None):
        return ["name", "user"] if obj is not None else []

    @admin.display(description=_("expires"))
    def expiry(self, device):
        return device.token.expiry if device.token_id and device.token.expiry else "—"

    @admin.display(description=_("live"), boolean=True)
    def live(self, device):
        return device.is_live

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("user", "issued_by", "token")

    def save_model(self, request, obj, form, change):
        if change:
            return
        from . import services

        device, key = services.device_token_issue(name=obj.name, user=obj.user, issued_by=request.user)
        obj.pk = device.pk
        messages.warning(
            request, _("The token of %(name)s, shown only now: %(key)s") % {"name": device.name, "key": key}
        )

    def delete_model(self, request, obj):
        self._revoke(request, [obj])

    def delete_queryset(self, request, queryset):
        self._revoke(request, queryset)

    @admin.action(description=_("Revoke the selected device tokens"))
    def revoke(self, request, queryset):
        self._revoke(request, queryset)

    def _revoke(self, request, devices):
        from . import services

        for device in devices:
            services.device_token_revoke(device=device, revoked_by=request.user)


@admin.register(SecurityEvent)
class SecurityEventAdmin(admin.ModelAdmin):
    """The security log, read-only: it is appended to by the application only."""

    list_display = ["at", "kind", "username", "address", "detail"]
    list_filter = ["kind", "at"]
    search_fields = ["username", "detail", "address"]
    date_hierarchy = "at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
