"""Reports, still served by the old pyroute framework."""
from pyroute import Router

router = Router(prefix="/legacy")


@router.expose("GET", "/report")
def report(request):
    return request.cookies.get("session")
