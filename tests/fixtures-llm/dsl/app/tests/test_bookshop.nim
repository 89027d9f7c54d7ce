import std/unittest
import jester

test "the index answers":
  get "/books/1":
    check true
