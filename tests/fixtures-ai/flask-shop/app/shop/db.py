class Db:
    def execute(self, sql):
        return []


db = Db()
