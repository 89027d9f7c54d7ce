defmodule Conduit.Auth.LoadUser do
  import Plug.Conn

  def init(opts), do: opts

  def call(conn, _opts) do
    case get_req_header(conn, "authorization") do
      ["Token " <> token] -> assign(conn, :current_user, Conduit.Token.verify(token))
      _ -> assign(conn, :current_user, nil)
    end
  end
end

defmodule Conduit.Auth.Required do
  import Plug.Conn

  def init(opts), do: opts

  def call(%{assigns: %{current_user: nil}} = conn, _opts) do
    conn |> send_resp(401, "unauthorized") |> halt()
  end

  def call(conn, _opts), do: conn
end
