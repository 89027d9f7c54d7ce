from fastapi import Depends, FastAPI

app = FastAPI()


def get_current_user(token: str = ""):
    return token


@app.get("/me")
def me(user=Depends(get_current_user)):
    return load_profile(user)


@app.get("/reports")
def reports(a1: str, a2: str, a3: str, a4: str, a5: str, a6: str, a7: str, a8: str, a9: str, a10: str, a11: str, a12: str, a13: str, a14: str, a15: str, a16: str, a17: str, a18: str):
    return []
