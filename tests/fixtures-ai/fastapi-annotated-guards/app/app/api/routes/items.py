import uuid
from fastapi import APIRouter
from app.api.deps import CurrentUser

router = APIRouter(prefix="/items", tags=["items"])

@router.get("/{id}")
def read_item(current_user: CurrentUser, id: uuid.UUID):
    return {}
