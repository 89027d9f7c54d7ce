defmodule RealWorldWeb.Plugs.MaybeAuthenticated do
  import Plug.Conn

  def init(opts), do: opts

  def call(conn, _opts) do
    with ["Token " <> token] <- get_req_header(conn, "authorization"),
         {:ok, user, _claims} <- RealWorld.Guardian.resource_from_token(token) do
      assign(conn, :current_user, user)
    else
      _ -> assign(conn, :current_user, nil)
    end
  end
end
