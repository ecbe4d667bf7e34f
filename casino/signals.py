"""Seams between the apps of the top layer, which may not import one another: the notifications
announce here what the live pit pushes (pyproject.toml's layers keep notifications and live apart).

`user_told(user_id=…, payload=…)` is sent inside the transaction that stored what the user is told;
its receiver stores the push with it, so a page that reconnects reads what it missed."""

from django.dispatch import Signal

user_told = Signal()
