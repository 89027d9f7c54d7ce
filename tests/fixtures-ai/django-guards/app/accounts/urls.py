from django.urls import path

from . import views

urlpatterns = [
    path("profile/", views.profile),
    path("signup/", views.signup),
    path("report/", views.report),
    path("staff-report/", views.staff_report),
    path("dashboard/", views.DashboardView.as_view()),
    path("audit/", views.AuditView.as_view()),
    path("settings/", views.SettingsView.as_view()),
    path("export/", views.ExportView.as_view()),
]
