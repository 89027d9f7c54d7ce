import requests
from django.http import JsonResponse


def order_detail(request, pk):
    status = requests.get("https://carrier.example/track", verify=False).json()
    checked = requests.get("https://carrier.example/track", verify=True).json()
    return JsonResponse({"pk": pk, "status": status, "checked": checked})
