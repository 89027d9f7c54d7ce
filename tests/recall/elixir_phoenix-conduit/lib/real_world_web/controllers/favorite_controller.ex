defmodule RealWorldWeb.FavoriteController do
  use RealWorldWeb, :controller

  alias RealWorld.Blog

  def create(conn, %{"article_slug" => slug}) do
    render(conn, :show, article: Blog.favorite!(conn.assigns.current_user, slug))
  end

  def delete(conn, %{"article_slug" => slug}) do
    render(conn, :show, article: Blog.unfavorite!(conn.assigns.current_user, slug))
  end
end
