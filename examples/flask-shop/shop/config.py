import os

API_PREFIX = "/api/v1"


class Config:
    SECRET_KEY = os.environ.get("SHOP_SECRET_KEY", "dev-only")
    INTERNAL_TOKEN = os.environ.get("SHOP_INTERNAL_TOKEN", "internal")
    PAGE_SIZE = 20
