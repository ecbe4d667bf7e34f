"""The project package (settings, urls, the Celery app) and the floor app: pits, tables, staff, roles."""

# Loaded with Django so that @shared_task binds to this app, whatever process imports a task.
from .celery import app as celery_app

__all__ = ["celery_app"]
