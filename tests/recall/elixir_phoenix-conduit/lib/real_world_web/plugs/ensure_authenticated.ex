defmodule RealWorldWeb.Plugs.EnsureAuthenticated do
  import Plug.Conn

  def init(opts), do: opts

  def call(conn, _opts) do
    case conn.assigns[:current_user] do
      nil -> conn |> send_resp(401, ~s({"errors":{"body":["unauthorized"]}})) |> halt()
      _user -> conn
    end
  end
end
