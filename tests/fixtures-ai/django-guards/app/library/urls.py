from django.urls import include, path
from rest_framework.routers import DefaultRouter

from . import views

router = DefaultRouter()
router.register(r"books", views.BookViewSet, basename="book")

urlpatterns = [
    path("", include(router.urls)),
    path("shelves/", views.ShelfList.as_view()),
    path("stats/", views.StatsView.as_view()),
    path("health/", views.health),
    path("borrow/", views.borrow),
]
