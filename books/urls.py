from django.urls import path

app_name = "books"
urlpatterns = []
