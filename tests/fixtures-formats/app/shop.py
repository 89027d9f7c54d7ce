"""A small shop API: the shared fixture of the output-format tests.

Every parameter location appears at least once: query (list_products),
JSON body (create_product), form (login, update_product), header
(create_product, account), cookie (account, logout) and path
(product, update_product).
"""
from flask import Flask, jsonify, request

app = Flask(__name__)


@app.route("/")
def index():
    return "shop"


@app.get("/api/products")
def list_products():
    q = request.args.get("q", "")
    page = request.args.get("page", 1, type=int)
    return jsonify(q=q, page=page, items=[])


@app.post("/api/products")
def create_product():
    if request.headers.get("X-API-Key") is None:
        return jsonify(error="unauthorized"), 401
    data = request.get_json()
    return jsonify(name=data["name"], price=data.get("price")), 201


@app.route("/api/products/<int:product_id>", methods=["GET", "DELETE"])
def product(product_id):
    return jsonify(id=product_id)


@app.put("/api/products/<int:product_id>")
def update_product(product_id):
    title = request.form["title"]
    return jsonify(id=product_id, title=title)


@app.post("/login")
def login():
    username = request.form["username"]
    password = request.form.get("password")
    return jsonify(user=username, ok=bool(password))


@app.get("/account")
def account():
    session_id = request.cookies.get("session_id")
    lang = request.headers.get("Accept-Language", "en")
    return jsonify(session=session_id, lang=lang)


@app.post("/logout")
def logout():
    request.cookies.get("session_id")
    return "", 204
