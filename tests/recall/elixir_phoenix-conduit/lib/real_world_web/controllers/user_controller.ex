defmodule RealWorldWeb.UserController do
  use RealWorldWeb, :controller

  alias RealWorld.Accounts

  action_fallback RealWorldWeb.FallbackController

  def create(conn, %{"user" => user_params}) do
    with {:ok, user} <- Accounts.register_user(user_params) do
      conn |> put_status(:created) |> render(:show, user: user)
    end
  end

  def current(conn, _params) do
    render(conn, :show, user: conn.assigns.current_user)
  end

  def update(conn, %{"user" => user_params}) do
    with {:ok, user} <- Accounts.update_user(conn.assigns.current_user, user_params) do
      render(conn, :show, user: user)
    end
  end
end
