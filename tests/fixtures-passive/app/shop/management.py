from django.contrib.auth import get_user_model


def bootstrap():
    User = get_user_model()
    User.objects.create_superuser("admin", "admin@shop.test", "admin")
