from django.contrib import admin

from .models import Notification, Preference


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("created_at", "recipient", "kind", "read_at", "emailed_at")
    list_filter = ("kind",)
    raw_id_fields = ("recipient",)


@admin.register(Preference)
class PreferenceAdmin(admin.ModelAdmin):
    list_display = ("user", "digest", "digest_sent_at")
    raw_id_fields = ("user",)
