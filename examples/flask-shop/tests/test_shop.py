def test_catalog(client):
    response = client.get("/api/v1/catalog/products", query_string={"q": "tea"})
    assert response.status_code == 200
    assert response.json["items"][0]["name"] == "Teapot"


def test_register_and_login(client):
    assert client.post("/api/v1/auth/register", json={"email": "a@b.c", "password": "pw"}).status_code == 201
    token = client.post("/api/v1/auth/login", json={"email": "a@b.c", "password": "pw"}).json["token"]
    me = client.get("/api/v1/auth/me", headers={"Authorization": f"Bearer {token}"})
    assert me.json["email"] == "a@b.c"


def test_export_is_hidden(client):
    assert client.get("/api/v1/orders/export").status_code == 404
