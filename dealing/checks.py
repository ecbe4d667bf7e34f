"""System checks of dealing (`manage.py check`, run at every start of runserver, migrate, a worker's
management commands): a production process refuses to run without the checkpoints' signing key."""

from django.conf import settings
from django.core.checks import Error, register


@register()
def checkpoint_signing_key(app_configs, **kwargs):
    if settings.CHECKPOINT_SIGNING_KEY or settings.CHECKPOINT_DEV_KEY:
        return []
    return [
        Error(
            "CHECKPOINT_SIGNING_KEY is not set: the chains' checkpoints cannot be signed.",
            hint="Set CHECKPOINT_SIGNING_KEY to the path of an Ed25519 private key in PEM (for example made with "
            "`openssl genpkey -algorithm ed25519 -out checkpoint.pem`) or to the base64 of its raw 32 bytes, "
            "kept outside the database and outside CHECKPOINT_DIR; or set DEBUG=1 on a development machine. "
            'See README, "Configuration".',
            id="dealing.E001",
        )
    ]
