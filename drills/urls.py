"""URLs of the drills: pages under /drills/ (namespace "drills"), endpoints under /api/v1/drills/."""

from django.urls import path

from . import apis, views

app_name = "drills"

urlpatterns = [
    path("", views.home, name="home"),
    path("start/", views.start, name="start"),
    path("progress/", views.my_progress, name="my_progress"),
    path("trainees/", views.trainees, name="trainees"),
    path("trainees/<int:pk>/", views.progress, name="progress"),
    path("standards/", views.standards, name="standards"),
    path("<int:pk>/", views.play, name="play"),
    path("<int:pk>/answer/", views.answer, name="answer"),
    path("<int:pk>/finish/", views.finish, name="finish"),
    path("<int:pk>/results/", views.results, name="results"),
    path("<int:pk>/round/<int:number>/", views.round_review, name="round"),
]

# Mounted by casino/urls.py under /api/v1/drills/, in the "api" namespace.
api_urlpatterns = [
    path("", apis.DrillListApi.as_view(), name="drill-list"),
    path("start/", apis.DrillStartApi.as_view(), name="drill-start"),
    path("standards/", apis.StandardListApi.as_view(), name="drill-standard-list"),
    path("standards/set/", apis.StandardSetApi.as_view(), name="drill-standard-set"),
    path("<int:pk>/next/", apis.DrillNextApi.as_view(), name="drill-next"),
    path("<int:pk>/answer/", apis.DrillAnswerApi.as_view(), name="drill-answer"),
    path("<int:pk>/results/", apis.DrillResultsApi.as_view(), name="drill-results"),
]
