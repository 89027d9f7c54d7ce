from functools import wraps

from flask import abort, current_app, g, request

from .store import TOKENS, USERS


def current_user():
    header = request.headers.get("Authorization", "")
    token = header.removeprefix("Bearer ").strip()
    email = TOKENS.get(token)
    return USERS.get(email) if email else None


def token_required(view):
    @wraps(view)
    def wrapper(*args, **kwargs):
        user = current_user()
        if user is None:
            abort(401)
        g.user = user
        return view(*args, **kwargs)

    return wrapper


def admin_required(view):
    @wraps(view)
    def wrapper(*args, **kwargs):
        user = current_user()
        if user is None or not user.get("admin"):
            abort(403)
        g.user = user
        return view(*args, **kwargs)

    return wrapper


def internal_only(view):
    @wraps(view)
    def wrapper(*args, **kwargs):
        if request.headers.get("X-Internal-Token") != current_app.config["INTERNAL_TOKEN"]:
            abort(404)
        return view(*args, **kwargs)

    return wrapper
