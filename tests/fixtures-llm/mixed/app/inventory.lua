-- Inventory gateway on Harbor, our in-house Lua web framework.
local harbor = require("harbor")
local store = require("store")

local app = harbor.new()
local api = app:group("/api/v1")

-- Liveness for the load balancer (the orders service answers it too).
app:get("/health", function(req, res)
  res:send(req.headers["X-Probe"] or "ok")
end)

api:get("/items", function(req, res)
  local page = req.query.page or 1
  res:json(store.list(page))
end)

api:post("/items", function(req, res)
  local body = req:json()
  res:status(201):json(store.add(body.name, body.price))
end)

api:get("/items/:id", function(req, res)
  res:json(store.get(req.params.id))
end)

-- api:delete("/items/:id", ...) was removed in 2.0

app:listen(8080)
