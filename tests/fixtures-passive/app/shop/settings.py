"""Django settings for the shop (development defaults)."""
import os

DEBUG = True
# DEBUG = os.environ.get("DJANGO_DEBUG") == "1"
SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]

EMAIL_HOST_PASSWORD = "Xq9mT2vLp4Rz"
SMTP_PASSWORD = "changeme-please"
DB_PASSWORD = os.getenv("DB_PASSWORD", "")

DATABASES = {
    "default": "postgres://shop:Wt7hR2kQ@db.internal:5432/shop",
    "replica": "postgres://shop:${REPLICA_PASSWORD}@replica:5432/shop",
    "local": "postgres://shop:password@localhost:5432/shop",
}

CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_CREDENTIALS = True
