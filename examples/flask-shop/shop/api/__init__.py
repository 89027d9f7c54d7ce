"""The authenticated part of the API: cart and orders, under one prefix."""
from flask import Blueprint

from ..config import API_PREFIX
from .cart import cart_bp
from .orders import orders_bp

api_bp = Blueprint("api", __name__, url_prefix=API_PREFIX)
api_bp.register_blueprint(cart_bp)
api_bp.register_blueprint(orders_bp, url_prefix="/orders")
