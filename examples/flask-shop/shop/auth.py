import secrets

from flask import Blueprint, abort, g, jsonify, request

from .security import token_required
from .store import TOKENS, USERS

auth_bp = Blueprint("auth", __name__)


@auth_bp.post("/register")
def register():
    data = request.get_json()
    email = data["email"]
    if email in USERS:
        abort(409)
    USERS[email] = {"email": email, "name": data.get("name", ""), "password": data["password"]}
    return jsonify(email=email), 201


@auth_bp.route("/login", methods=["POST"])
def login():
    data = request.get_json(silent=True) or {}
    user = USERS.get(data.get("email"))
    if user is None or user["password"] != data.get("password"):
        abort(401)
    token = secrets.token_urlsafe(24)
    TOKENS[token] = user["email"]
    return jsonify(token=token)


@auth_bp.route("/logout", methods=["POST"])
@token_required
def logout():
    token = request.headers.get("Authorization", "").removeprefix("Bearer ")
    TOKENS.pop(token, None)
    return "", 204


@auth_bp.get("/me")
@token_required
def me():
    return jsonify(email=g.user["email"], name=g.user["name"])
