"""In-memory data, good enough for a demo."""
import itertools

USERS = {}
TOKENS = {}
PRODUCTS = {
    1: {"id": 1, "name": "Teapot", "price": 25.0, "category": "kitchen"},
    2: {"id": 2, "name": "Mug", "price": 8.5, "category": "kitchen"},
    3: {"id": 3, "name": "Lamp", "price": 40.0, "category": "living"},
}
REVIEWS = {}
CARTS = {}
ORDERS = {}
COUPONS = {"WELCOME10": 0.1}

ids = itertools.count(100)
