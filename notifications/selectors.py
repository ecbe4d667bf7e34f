"""Reads: who is told of what, and each user's own notifications (nobody reads another's)."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from casino.roles import AUDITOR, PIT_BOSS

from .kinds import DEFAULT_CHANNEL, Channel
from .models import Notification, Preference


def pit_bosses(pit_id: int) -> QuerySet:
    """The active pit bosses on the staff of the pit (the people who may act at its tables)."""
    return get_user_model().objects.filter(is_active=True, groups__name=PIT_BOSS, staff__pits=pit_id).distinct()


def auditors() -> QuerySet:
    return get_user_model().objects.filter(is_active=True, groups__name=AUDITOR).distinct()


def admins() -> QuerySet:
    return get_user_model().objects.filter(is_active=True, is_superuser=True)


def channels_for(user_ids) -> dict[int, dict[str, str]]:
    """Each user's channel per kind: his choices over the defaults."""
    chosen = dict(Preference.objects.filter(user_id__in=list(user_ids)).values_list("user_id", "channels"))
    out = {}
    for pk in user_ids:
        mine = chosen.get(pk) or {}
        out[pk] = {
            kind: mine.get(kind, default) if mine.get(kind) in Channel.values else default
            for kind, default in ((k.value, v.value) for k, v in DEFAULT_CHANNEL.items())
        }
    return out


def preference_for(user) -> Preference:
    return Preference.objects.filter(user=user).first() or Preference(user=user)


def reading_language(chosen: str, last: str) -> str:
    """The language a user reads his e-mails and toasts in: his choice, else the language he last
    used (at a sign-in, on his notification settings), else the site's."""
    known = {code for code, _name in settings.LANGUAGES}
    return next((code for code in (chosen, last) if code in known), settings.LANGUAGE_CODE)


def languages_for(user_ids) -> dict[int, str]:
    out = dict.fromkeys(user_ids, settings.LANGUAGE_CODE)
    rows = Preference.objects.filter(user_id__in=list(user_ids)).values_list("user_id", "language", "last_language")
    for pk, chosen, last in rows:
        out[pk] = reading_language(chosen, last)
    return out


def notification_list(user) -> QuerySet:
    """The user's notifications shown on the page, newest first."""
    return Notification.objects.filter(recipient=user, on_page=True)


def unread_count(user) -> int:
    """One count on a partial index: what the bell shows on every page."""
    return Notification.objects.filter(recipient=user, on_page=True, read_at__isnull=True).count()


def notification_for(user, pk) -> Notification:
    """The user's own notification; another's id is a 404, as one that does not exist."""
    return get_object_or_404(Notification, pk=pk, recipient=user, on_page=True)
