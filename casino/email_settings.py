"""The e-mail settings (notifications, password resets), read from the environment; settings.py takes
them with `globals().update(email_settings(env, debug=DEBUG))`.

SMTP from EMAIL_URL (smtp+tls://user:password@host:587, smtps://… for SSL), or EMAIL_HOST, EMAIL_PORT,
EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS. With neither, the console backend under DEBUG
(the e-mail printed by `make run`), and Django's default otherwise (SMTP to localhost:25, a local
mail relay).
"""


def email_settings(env, *, debug: bool) -> dict:
    sender = env.str("DEFAULT_FROM_EMAIL", default="casino@localhost")
    found: dict = {"DEFAULT_FROM_EMAIL": sender, "SERVER_EMAIL": env.str("SERVER_EMAIL", default=sender)}
    if env.str("EMAIL_URL", default=""):
        found.update(env.email_url("EMAIL_URL"))
    elif env.str("EMAIL_HOST", default=""):
        found.update(
            EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
            EMAIL_HOST=env.str("EMAIL_HOST"),
            EMAIL_PORT=env.int("EMAIL_PORT", default=587),
            EMAIL_HOST_USER=env.str("EMAIL_HOST_USER", default=""),
            EMAIL_HOST_PASSWORD=env.str("EMAIL_HOST_PASSWORD", default=""),
            EMAIL_USE_TLS=env.bool("EMAIL_USE_TLS", default=True),
        )
    elif debug:
        found["EMAIL_BACKEND"] = "django.core.mail.backends.console.EmailBackend"
    found["EMAIL_TIMEOUT"] = env.int("EMAIL_TIMEOUT", default=10)
    # The site's address the notifications' e-mails link to (a password reset links to the host it
    # was asked on).
    found["SITE_URL"] = env.str("SITE_URL", default="http://localhost:8000")
    # Password reset requests allowed per hour from one address, and for one e-mail address.
    found["PASSWORD_RESET_LIMIT"] = env.int("PASSWORD_RESET_LIMIT", default=5)
    return found
