from flask import Blueprint, abort, current_app, g, jsonify, request

from .security import token_required
from .store import PRODUCTS, REVIEWS

bp = Blueprint("catalog", __name__, url_prefix="/catalog")

SORT_KEYS = {"name", "price"}


@bp.route("/products")
def list_products():
    q = request.args.get("q", "").lower()
    category = request.args.get("category")
    page = request.args.get("page", 1, type=int)
    per_page = request.args.get("per_page", current_app.config["PAGE_SIZE"], type=int)
    sort = request.args.get("sort", "name")
    items = [
        p
        for p in PRODUCTS.values()
        if q in p["name"].lower() and (category is None or p["category"] == category)
    ]
    items.sort(key=lambda p: p[sort if sort in SORT_KEYS else "name"])
    start = (page - 1) * per_page
    return jsonify(items=items[start : start + per_page], page=page)


@bp.route("/products/<int:product_id>")
def get_product(product_id):
    product = PRODUCTS.get(product_id) or abort(404)
    return jsonify(product)


@bp.get("/categories")
def list_categories():
    return jsonify(sorted({p["category"] for p in PRODUCTS.values()}))


@bp.route("/products/<int:product_id>/reviews", methods=["POST"])
@token_required
def add_review(product_id):
    if product_id not in PRODUCTS:
        abort(404)
    review = request.get_json()
    rating = int(review["rating"])
    if not 1 <= rating <= 5:
        abort(400)
    REVIEWS.setdefault(product_id, []).append(
        {"user": g.user["email"], "rating": rating, "comment": review.get("comment", "")}
    )
    return jsonify(ok=True), 201
