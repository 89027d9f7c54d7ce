from flask import Flask, request
from flask_login import login_required

app = Flask(__name__)


@app.route("/items")
@login_required
def list_items():
    page = request.args.get("page")
    return {"page": page}


@app.route("/items/<int:item_id>", methods=["DELETE"])
@login_required
def delete_item(item_id):
    return "", 204


@app.route("/legacy/report")
def legacy_report():
    return "old"
