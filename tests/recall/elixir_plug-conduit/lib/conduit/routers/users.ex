defmodule Conduit.Routers.Users do
  use Plug.Router

  plug :match
  plug :dispatch

  post "/login" do
    %{"user" => %{"email" => email, "password" => password}} = conn.body_params
    Conduit.Json.send(conn, 200, Conduit.Accounts.login(email, password))
  end

  post "/" do
    %{"user" => user} = conn.body_params
    Conduit.Json.send(conn, 201, Conduit.Accounts.register(user))
  end
end
