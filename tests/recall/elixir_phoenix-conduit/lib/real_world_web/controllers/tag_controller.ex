defmodule RealWorldWeb.TagController do
  use RealWorldWeb, :controller

  def index(conn, _params) do
    json(conn, %{tags: RealWorld.Blog.list_tags()})
  end
end
