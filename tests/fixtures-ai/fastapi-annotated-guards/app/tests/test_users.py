from fastapi.testclient import TestClient

from app.main import app

client = TestClient(app)


def test_me_requires_token():
    assert client.get("/api/v1/users/me").status_code == 401
