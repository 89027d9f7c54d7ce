defmodule RealWorldWeb.CommentController do
  use RealWorldWeb, :controller

  alias RealWorld.Blog

  def index(conn, %{"article_slug" => slug}) do
    render(conn, :index, comments: Blog.list_comments(slug))
  end

  def create(conn, %{"article_slug" => slug, "comment" => comment_params}) do
    comment = Blog.create_comment!(slug, conn.assigns.current_user, comment_params)
    render(conn, :show, comment: comment)
  end

  def delete(conn, %{"article_slug" => _slug, "id" => id}) do
    Blog.delete_comment!(id)
    send_resp(conn, :no_content, "")
  end
end
