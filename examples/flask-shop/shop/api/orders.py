import csv
import io

from flask import Blueprint, abort, g, jsonify, request
from flask.views import MethodView

from ..security import internal_only, token_required
from ..store import ORDERS, ids
from .views import OrderAPI, OrderDetailAPI

orders_bp = Blueprint("orders", __name__)

orders_bp.add_url_rule("/", view_func=OrderAPI.as_view("orders"))
orders_bp.add_url_rule("/<int:order_id>", view_func=OrderDetailAPI.as_view("order"))


@orders_bp.route("/<int:order_id>/invoice")
@token_required
def invoice(order_id):
    order = ORDERS.get(order_id) or abort(404)
    fmt = request.args.get("format", "json")
    if fmt == "csv":
        out = io.StringIO()
        csv.writer(out).writerow([order["id"], order["status"]])
        return out.getvalue(), 200, {"Content-Type": "text/csv"}
    return jsonify(order)


# Used by the warehouse's nightly job; deliberately not in the public spec.
@orders_bp.route("/export")
@internal_only
def export_orders():
    since = request.args.get("since")
    fmt = request.args.get("format", "json")
    token = request.headers["X-Internal-Token"]
    rows = [o for o in ORDERS.values() if since is None or o["created"] >= since]
    return jsonify(rows=rows, format=fmt, by=token[:4])


class ReorderAPI(MethodView):
    """Not wired to any URL yet (kept for the next release)."""

    decorators = [token_required]

    def post(self, order_id):
        order = ORDERS.get(order_id) or abort(404)
        new_id = next(ids)
        ORDERS[new_id] = dict(order, id=new_id, user=g.user["email"])
        return jsonify(id=new_id), 201
