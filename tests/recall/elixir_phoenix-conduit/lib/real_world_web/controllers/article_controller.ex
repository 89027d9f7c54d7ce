defmodule RealWorldWeb.ArticleController do
  use RealWorldWeb, :controller

  alias RealWorld.Blog

  action_fallback RealWorldWeb.FallbackController

  def index(conn, params) do
    articles =
      Blog.list_articles(
        tag: params["tag"],
        author: params["author"],
        favorited: params["favorited"],
        limit: Map.get(params, "limit", 20),
        offset: Map.get(params, "offset", 0)
      )

    render(conn, :index, articles: articles)
  end

  def feed(conn, params) do
    render(conn, :index, articles: Blog.feed(conn.assigns.current_user, params["limit"], params["offset"]))
  end

  def show(conn, %{"slug" => slug}) do
    render(conn, :show, article: Blog.get_article_by_slug!(slug))
  end

  def create(conn, %{"article" => article_params}) do
    with {:ok, article} <- Blog.create_article(conn.assigns.current_user, article_params) do
      conn |> put_status(:created) |> render(:show, article: article)
    end
  end

  def update(conn, %{"slug" => slug, "article" => article_params}) do
    article = Blog.get_article_by_slug!(slug)

    with {:ok, article} <- Blog.update_article(article, article_params) do
      render(conn, :show, article: article)
    end
  end

  def delete(conn, %{"slug" => slug}) do
    Blog.delete_article!(slug)
    send_resp(conn, :no_content, "")
  end
end
