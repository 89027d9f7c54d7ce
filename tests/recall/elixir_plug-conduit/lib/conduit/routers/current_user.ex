defmodule Conduit.Routers.CurrentUser do
  use Plug.Router

  plug Conduit.Auth.Required
  plug :match
  plug :dispatch

  get "/" do
    Conduit.Json.send(conn, 200, %{user: conn.assigns.current_user})
  end

  put "/" do
    Conduit.Json.send(conn, 200, Conduit.Accounts.update(conn.assigns.current_user, conn.body_params["user"]))
  end
end
