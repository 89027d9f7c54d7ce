from flask import Flask, request

from shop.auth import login_required, roles_required
from shop.db import db

app = Flask(__name__)


@app.route("/admin/users/<int:user_id>", methods=["DELETE"])
@login_required
@roles_required("admin")
def delete_user(user_id):
    db.delete_user(user_id)
    return "", 204


@app.route("/orders/<int:order_id>/cancel", methods=["POST"])
def cancel_order(order_id):
    reason = request.form["reason"]
    db.cancel_order(order_id, reason)
    return "", 204


@app.route("/search")
def search():
    q = request.args.get("q")
    rows = db.execute("SELECT * FROM items WHERE name = '" + q + "'")
    return {"items": rows}


@app.route("/register", methods=["POST"])
def register():
    email = request.form["email"]
    validate_email(email)
    password = generate_password_hash(request.form["password"])
    db.save_user(email, password)
    return "", 201
