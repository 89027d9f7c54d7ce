"""Flask Shop: a small storefront API.

Run it with ``flask --app shop run`` (see README.md).
"""
from flask import Flask, jsonify

from .config import API_PREFIX, Config


def create_app(config_class=Config):
    app = Flask(__name__)
    app.config.from_object(config_class)

    from .admin import admin_bp
    from .api import api_bp
    from .auth import auth_bp
    from .catalog import bp as catalog_bp

    app.register_blueprint(auth_bp, url_prefix=f"{API_PREFIX}/auth")
    # The catalog declares "/catalog"; mounting it under the API prefix wins.
    app.register_blueprint(catalog_bp, url_prefix=API_PREFIX + "/catalog")
    app.register_blueprint(api_bp)
    app.register_blueprint(admin_bp, url_prefix=f"{API_PREFIX}/admin")

    @app.errorhandler(404)
    def not_found(error):
        return jsonify(error="not found"), 404

    return app
