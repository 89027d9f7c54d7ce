import uuid

from flask import Blueprint, abort, jsonify, make_response, request

from ..store import CARTS, COUPONS, PRODUCTS

cart_bp = Blueprint("cart", __name__, url_prefix="/cart")


def _cart():
    cart_id = request.cookies.get("cart_id") or uuid.uuid4().hex
    return cart_id, CARTS.setdefault(cart_id, {"items": {}, "coupon": None})


@cart_bp.route("/")
def show_cart():
    cart_id = request.cookies.get("cart_id")
    return jsonify(CARTS.get(cart_id, {"items": {}, "coupon": None}))


@cart_bp.post("/items")
def add_item():
    cart_id = request.cookies.get("cart_id")
    body = request.get_json()
    product_id = int(body["product_id"])
    if product_id not in PRODUCTS:
        abort(404)
    cart = CARTS.setdefault(cart_id or uuid.uuid4().hex, {"items": {}, "coupon": None})
    cart["items"][product_id] = cart["items"].get(product_id, 0) + int(body.get("quantity", 1))
    response = make_response(jsonify(cart), 201)
    response.set_cookie("cart_id", cart_id or "")
    return response


@cart_bp.delete("/items/<int:item_id>")
def remove_item(item_id):
    cart = CARTS.get(request.cookies.get("cart_id")) or abort(404)
    cart["items"].pop(item_id, None)
    return "", 204


@cart_bp.route("/coupon", methods=["POST"])
def apply_coupon():
    code = request.form["code"]
    cart_id = request.cookies["cart_id"]
    if code not in COUPONS or cart_id not in CARTS:
        abort(400)
    CARTS[cart_id]["coupon"] = code
    return jsonify(CARTS[cart_id])
