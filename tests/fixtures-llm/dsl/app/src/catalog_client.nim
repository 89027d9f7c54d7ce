## Talks to the catalog service as a client: serves nothing.
import std/httpclient

proc catalogStatus*(base: string): string =
  let client = newHttpClient()
  result = client.getContent(base & "/status")
