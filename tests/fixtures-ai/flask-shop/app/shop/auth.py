def login_required(f):
    return f


def roles_required(*roles):
    return lambda f: f
