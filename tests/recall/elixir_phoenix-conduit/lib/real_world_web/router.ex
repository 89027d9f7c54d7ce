defmodule RealWorldWeb.Router do
  use RealWorldWeb, :router

  pipeline :api do
    plug :accepts, ["json"]
    plug RealWorldWeb.Plugs.MaybeAuthenticated
  end

  pipeline :authenticated do
    plug RealWorldWeb.Plugs.EnsureAuthenticated
  end

  scope "/api", RealWorldWeb do
    pipe_through :api

    post "/users/login", SessionController, :create
    post "/users", UserController, :create

    get "/profiles/:username", ProfileController, :show
    get "/tags", TagController, :index

    scope "/" do
      pipe_through :authenticated

      get "/user", UserController, :current
      put "/user", UserController, :update

      scope "/profiles/:username" do
        post "/follow", ProfileController, :follow
        delete "/follow", ProfileController, :unfollow
      end

      get "/articles/feed", ArticleController, :feed

      resources "/articles", ArticleController, only: [:create, :update, :delete], param: "slug" do
        resources "/comments", CommentController, only: [:create, :delete]
        post "/favorite", FavoriteController, :create
        delete "/favorite", FavoriteController, :delete
      end
    end

    resources "/articles", ArticleController, only: [:index, :show], param: "slug" do
      get "/comments", CommentController, :index
    end
  end

  # Enable LiveDashboard in development
  if Application.compile_env(:real_world, :dev_routes) do
    import Phoenix.LiveDashboard.Router

    scope "/dev" do
      pipe_through [:fetch_session, :protect_from_forgery]

      live_dashboard "/dashboard", metrics: RealWorldWeb.Telemetry
    end
  end
end
