from fastapi import APIRouter, Depends
from sqlmodel import SQLModel
from app.api.deps import CurrentUser, get_current_active_superuser

class UserCreate(SQLModel):
    email: str
    password: str
    full_name: str | None = None

router = APIRouter(prefix="/users", tags=["users"])

@router.get("/", dependencies=[Depends(get_current_active_superuser)])
def read_users(skip: int = 0, limit: int = 100):
    return []

@router.post("/", dependencies=[Depends(get_current_active_superuser)])
def create_user(*, user_in: UserCreate):
    return {}

@router.get("/me")
def read_user_me(current_user: CurrentUser):
    return current_user
