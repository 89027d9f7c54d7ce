defmodule RealWorldWeb.TestRouter do
  use Phoenix.Router

  scope "/api" do
    get "/test-only", RealWorldWeb.TagController, :index
  end
end
