"""Celery tasks of audit (to come): one task per stored round, batch audit runs.

Tasks here are found by `app.autodiscover_tasks()` in casino/celery.py. Like an API, a task takes
ids, calls a service and keeps retries to itself; callers queue it with `transaction.on_commit`.
"""
