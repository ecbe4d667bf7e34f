"""Password reset by e-mail: Django's views with the project's templates, the request throttled.

The request page answers the same whether the address belongs to an account or not (Django's
view sends nothing for an unknown one), so it tells no one who has an account. Like the login's
lockout, requests are counted per address and per e-mail address in the shared cache: over
PASSWORD_RESET_LIMIT an hour, the page refuses (429) and sends nothing.
"""

import hashlib

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.utils.translation import gettext as _

from .security import client_ip

WINDOW_S = 60 * 60


def _over(key: str) -> bool:
    """Count one request under `key`; True once more than the limit were made within the hour."""
    cache.add(key, 0, WINDOW_S)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, WINDOW_S)
        count = 1
    return count > settings.PASSWORD_RESET_LIMIT


class ThrottledPasswordResetView(auth_views.PasswordResetView):
    def form_valid(self, form):
        email = (form.cleaned_data.get("email") or "").strip().lower()
        by_address = f"password-reset:ip:{client_ip(self.request) or '-'}"
        by_email = "password-reset:email:" + hashlib.sha256(email.encode()).hexdigest()
        # Both counted (no short-circuit): a flood for many addresses from one place, or for one
        # address from many, is held back either way.
        over = [_over(by_address), _over(by_email)]
        if any(over):
            form.add_error(None, _("Too many password reset requests. Try again in an hour."))
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        return super().form_valid(form)
