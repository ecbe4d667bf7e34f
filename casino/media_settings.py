"""Where uploaded files are kept (incidents' attachments, through Django's default storage) and how
large one may be; settings.py takes them with `globals().update(… media_settings(env, BASE_DIR))`.

MEDIA_ROOT (default: media/ beside manage.py) is outside the database: `manage.py backup` copies it
into the backup. Files are never served from MEDIA_URL: each download is a view that checks who may
see the incident.
"""

from pathlib import Path


def media_settings(env, base_dir: Path) -> dict:
    max_bytes = env.int("INCIDENT_ATTACHMENT_MAX_BYTES", default=10 * 1024 * 1024)
    return {
        "MEDIA_ROOT": env.str("MEDIA_ROOT", default=str(base_dir / "media")),
        "MEDIA_URL": "/media/",
        "INCIDENT_ATTACHMENT_MAX_BYTES": max_bytes,
    }
