"""The Celery app, `casino.celery:app` (`celery -A casino worker`).

Its configuration is the CELERY_* names of the Django settings: with CELERY_BROKER_URL unset the
tasks run eagerly in the calling process, with it set they go to that broker.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Finds `tasks.py` in every installed app (audit/tasks.py, ...).
app.autodiscover_tasks()
