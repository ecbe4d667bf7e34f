"""System checks of dealing (`manage.py check`, run at every start of runserver, migrate, a worker's
management commands): a production process refuses to run without the checkpoints' signing key, and
is warned when the witness's key is not pinned."""

from django.conf import settings
from django.core.checks import Error, Warning, register


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


@register()
def witness_key_pinned(app_configs, **kwargs):
    """A witness whose key is not pinned is trusted on its own word (GET /key): whoever can answer at
    WITNESS_URL could countersign a cut log. Production pins it."""
    if not settings.WITNESS_URL or settings.WITNESS_PUBLIC_KEY or settings.DEBUG:
        return []
    return [
        Warning(
            "WITNESS_URL is set but WITNESS_PUBLIC_KEY is not: the witness's key is taken from its own answer.",
            hint="Fetch the key once from the witness's host (`curl WITNESS_URL/key > witness.pem`, compared with "
            "its data directory's witness-public.pem) and set WITNESS_PUBLIC_KEY to that file's path. "
            'See docs/chain.md, "The witness".',
            id="dealing.W001",
        )
    ]
