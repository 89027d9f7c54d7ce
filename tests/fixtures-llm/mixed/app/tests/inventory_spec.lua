local harbor = require("harbor")
local app = harbor.new()
app:get("/only-in-tests", function(req, res) res:send("x") end)
app:listen(9999)
