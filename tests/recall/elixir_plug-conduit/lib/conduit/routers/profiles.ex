defmodule Conduit.Routers.Profiles do
  use Plug.Router

  plug :match
  plug :dispatch

  get "/:username" do
    Conduit.Json.send(conn, 200, Conduit.Accounts.profile(username))
  end

  post "/:username/follow" do
    Conduit.Json.send(conn, 200, Conduit.Accounts.follow(conn.assigns.current_user, username))
  end

  delete "/:username/follow" do
    Conduit.Json.send(conn, 200, Conduit.Accounts.unfollow(conn.assigns.current_user, username))
  end
end
