defmodule Conduit.Routers.Articles do
  use Plug.Router

  plug :match
  plug Plug.Parsers, parsers: [:json], json_decoder: Jason
  plug :dispatch

  get "/" do
    conn = fetch_query_params(conn)
    %{"tag" => tag, "author" => author} = conn.query_params
    Conduit.Json.send(conn, 200, Conduit.Blog.list(tag, author, conn.query_params["favorited"], conn.query_params["limit"], conn.query_params["offset"]))
  end

  get "/feed" do
    Conduit.Json.send(conn, 200, Conduit.Blog.feed(conn.assigns.current_user))
  end

  post "/" do
    Conduit.Json.send(conn, 201, Conduit.Blog.create(conn.assigns.current_user, conn.body_params["article"]))
  end

  get "/:slug" do
    Conduit.Json.send(conn, 200, Conduit.Blog.get(slug))
  end

  put "/:slug" do
    Conduit.Json.send(conn, 200, Conduit.Blog.update(slug, conn.body_params["article"]))
  end

  delete "/:slug" do
    Conduit.Blog.delete(slug)
    send_resp(conn, 204, "")
  end

  forward "/:slug/comments", to: Conduit.Routers.Comments

  post "/:slug/favorite" do
    Conduit.Json.send(conn, 200, Conduit.Blog.favorite(conn.assigns.current_user, slug))
  end

  delete "/:slug/favorite" do
    Conduit.Json.send(conn, 200, Conduit.Blog.unfavorite(conn.assigns.current_user, slug))
  end
end
