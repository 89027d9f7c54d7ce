defmodule Conduit.Router do
  use Plug.Router

  plug Plug.Logger
  plug :match
  plug Plug.Parsers, parsers: [:json], pass: ["application/json"], json_decoder: Jason
  plug Conduit.Auth.LoadUser
  plug :dispatch

  @api "/api"

  forward "#{@api}/users", to: Conduit.Routers.Users
  forward "/api/user", to: Conduit.Routers.CurrentUser
  forward "/api/profiles", to: Conduit.Routers.Profiles
  forward "/api/articles", to: Conduit.Routers.Articles

  get "/api/tags" do
    Conduit.Json.send(conn, 200, %{tags: Conduit.Blog.tags()})
  end

  match _ do
    send_resp(conn, 404, "not found")
  end
end
