"""Orders service: the part of the shop written with Flask."""
from flask import Flask, jsonify, request

app = Flask(__name__)


@app.route("/health")
def health():
    return "ok"


@app.route("/orders/<int:order_id>", methods=["GET", "DELETE"])
def order(order_id):
    verbose = request.args.get("verbose")
    return jsonify(id=order_id, verbose=verbose)
