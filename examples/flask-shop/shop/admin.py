from flask import Blueprint, current_app, jsonify, request

from .security import admin_required
from .store import PRODUCTS, ids

admin_bp = Blueprint("admin", __name__)


@admin_bp.route("/products", methods=["POST"])
@admin_required
def create_product():
    name = request.form["name"]
    price = float(request.form["price"])
    description = request.form.get("description", "")
    image = request.files.get("image")
    product_id = next(ids)
    PRODUCTS[product_id] = {
        "id": product_id,
        "name": name,
        "price": price,
        "description": description,
        "category": request.form.get("category", "misc"),
        "image": image.filename if image else None,
    }
    return jsonify(PRODUCTS[product_id]), 201


# Debug helper left in production: lists every rule of the app.
@admin_bp.get("/debug/routes")
@admin_required
def debug_routes():
    verbose = request.args.get("verbose")
    rules = sorted(str(rule) for rule in current_app.url_map.iter_rules())
    return jsonify(rules=rules, verbose=bool(verbose))
