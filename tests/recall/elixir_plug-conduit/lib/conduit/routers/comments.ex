defmodule Conduit.Routers.Comments do
  use Plug.Router

  plug :match
  plug :dispatch

  get "/" do
    Conduit.Json.send(conn, 200, Conduit.Blog.comments(conn.path_params["slug"]))
  end

  post "/" do
    Conduit.Json.send(conn, 200, Conduit.Blog.comment(conn.path_params["slug"], conn.body_params["comment"]))
  end

  delete "/:id" do
    Conduit.Blog.delete_comment(id)
    send_resp(conn, 204, "")
  end
end
