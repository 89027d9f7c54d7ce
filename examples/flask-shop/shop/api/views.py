import datetime

from flask import abort, g, jsonify, request
from flask.views import MethodView

from ..security import token_required
from ..store import CARTS, ORDERS, ids

STATUSES = {"pending", "paid", "shipped", "cancelled"}


class OrderAPI(MethodView):
    decorators = [token_required]

    def get(self):
        status = request.args.get("status")
        page = request.args.get("page", 1, type=int)
        mine = [o for o in ORDERS.values() if o["user"] == g.user["email"]]
        if status:
            mine = [o for o in mine if o["status"] == status]
        return jsonify(items=mine[(page - 1) * 20 : page * 20])

    def post(self):
        key = request.headers.get("Idempotency-Key")
        payload = request.get_json()
        cart = CARTS.get(request.cookies.get("cart_id")) or abort(400)
        order_id = next(ids)
        ORDERS[order_id] = {
            "id": order_id,
            "user": g.user["email"],
            "items": dict(cart["items"]),
            "address": payload["shipping_address"],
            "payment": payload["payment_method"],
            "status": "pending",
            "created": datetime.date.today().isoformat(),
            "key": key,
        }
        return jsonify(ORDERS[order_id]), 201


class OrderDetailAPI(MethodView):
    decorators = [token_required]
    methods = ["GET", "PATCH"]

    def get(self, order_id):
        return jsonify(ORDERS.get(order_id) or abort(404))

    def patch(self, order_id):
        order = ORDERS.get(order_id) or abort(404)
        status = request.json["status"]
        if status not in STATUSES:
            abort(400)
        order["status"] = status
        return jsonify(order)
