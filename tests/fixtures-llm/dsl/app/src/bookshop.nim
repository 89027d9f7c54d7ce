## Bookshop API on Jester: routes are a DSL, with no parentheses.
import std/[json, strutils]
import jester

settings:
  port = Port(5000)

routes:
  get "/":
    resp "bookshop"

  get "/books/@id":
    resp %*{"id": @"id"}

  post "/books":
    let payload = parseJson(request.body)
    resp Http201, $payload["title"]

  # get "/admin": retired in 2.0
