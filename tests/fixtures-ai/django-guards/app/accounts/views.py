from django.contrib.auth.decorators import login_required, permission_required, user_passes_test
from django.contrib.auth.mixins import LoginRequiredMixin, PermissionRequiredMixin
from django.utils.decorators import method_decorator
from django.views import View
from django.views.generic import TemplateView


@login_required
def profile(request):
    return None


# @login_required
def signup(request):
    email = request.POST.get("email")
    return None


@permission_required("accounts.view_report", raise_exception=True)
def report(request):
    return None


@user_passes_test(lambda u: u.is_staff)
def staff_report(request):
    return None


class DashboardView(LoginRequiredMixin, TemplateView):
    template_name = "dashboard.html"


class AuditView(PermissionRequiredMixin, View):
    permission_required = "accounts.audit"

    def get(self, request):
        return None


@method_decorator(login_required, name="dispatch")
class SettingsView(View):
    def get(self, request):
        return None

    def post(self, request):
        theme = request.POST.get("theme")
        return None


class ExportView(View):
    def get(self, request):
        return None

    @method_decorator(login_required)
    def post(self, request):
        return None
