from flask import Flask

fake = Flask("fake")


@fake.route("/debug/exec", methods=["POST"])
def run():
    import os
    os.system(request.form["cmd"])
