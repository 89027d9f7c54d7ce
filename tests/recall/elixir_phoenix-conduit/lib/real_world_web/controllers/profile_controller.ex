defmodule RealWorldWeb.ProfileController do
  use RealWorldWeb, :controller

  alias RealWorld.Accounts

  def show(conn, %{"username" => username}) do
    render(conn, :show, profile: Accounts.get_profile!(username, conn.assigns.current_user))
  end

  def follow(conn, %{"username" => username}) do
    render(conn, :show, profile: Accounts.follow!(conn.assigns.current_user, username))
  end

  def unfollow(conn, %{"username" => username}) do
    render(conn, :show, profile: Accounts.unfollow!(conn.assigns.current_user, username))
  end
end
