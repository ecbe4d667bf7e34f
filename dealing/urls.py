"""The pages of dealing (the API's routes are in dealing/api_urls.py)."""

from django.urls import path, register_converter

from . import views
from .converters import TableNameConverter

app_name = "dealing"
register_converter(TableNameConverter, "table")

urlpatterns = [
    path("tables/", views.table_list, name="table_list"),
    path("tables/<table:name>/rounds/new", views.round_new, name="round_new"),
    path("tables/<table:name>/shoe/", views.shoe_page, name="shoe"),
    path("tables/<table:name>/shoes/<int:number>/", views.shoe_page, name="shoe_number"),
    path("tables/<table:name>/incidents/", views.table_incidents, name="table_incidents"),
    path("tables/<table:name>/terminal/", views.table_terminal, name="terminal"),
    path("tables/<table:name>/terminal/next", views.terminal_next, name="terminal_next"),
    path("tables/<table:name>/terminal/save", views.terminal_save, name="terminal_save"),
    path("tables/<table:name>/terminal/override", views.terminal_override, name="terminal_override"),
    path("tables/<table:name>/terminal/takeover", views.terminal_takeover, name="terminal_takeover"),
    path("tables/<table:name>/terminal/drafts/<int:pk>/void", views.terminal_draft_void, name="terminal_draft_void"),
    path("rounds/new", views.round_pick_table, name="round_pick_table"),
    path("rounds/<int:pk>/", views.round_detail, name="round_detail"),
    path("rounds/<int:pk>/correct", views.round_correct, name="round_correct"),
    path("incidents/", views.incident_list, name="incident_list"),
    path("incidents/new", views.incident_new, name="incident_new"),
    path("incidents/<int:pk>.pdf", views.incident_file, name="incident_file"),
    path("incidents/<int:pk>/", views.incident_detail, name="incident_detail"),
    path("incidents/<int:pk>/review", views.incident_review, name="incident_review"),
    path("incidents/<int:pk>/sign-off", views.incident_sign_off, name="incident_sign_off"),
    path("incidents/<int:pk>/attachments/new", views.incident_attach, name="incident_attach"),
    path("incidents/<int:pk>/videos/new", views.incident_video, name="incident_video"),
    path("incidents/attachments/<int:pk>", views.incident_attachment, name="incident_attachment"),
    path("queue/", views.pit_queue, name="pit_queue"),
    path("queue/incidents/<int:pk>/", views.incident_decide, name="incident_decide"),
    path("queue/rounds/<int:pk>/", views.amendment_decide, name="amendment_decide"),
]
