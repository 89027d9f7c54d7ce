from flask import Flask, request
from flask_login import login_required

app = Flask(__name__)


@app.route("/items")
@login_required
def list_items():
    page = request.args.get("page")
    sort = request.args.get("sort")
    return {"page": page, "sort": sort}


# The guard was dropped in this version.
@app.route("/items/<int:item_id>", methods=["DELETE"])
def delete_item(item_id):
    return "", 204


@app.route("/admin/stats")
@login_required
def stats():
    return {}


@app.route("/export", methods=["POST"])
def export():
    fmt = request.json.get("format")
    return {"format": fmt}
