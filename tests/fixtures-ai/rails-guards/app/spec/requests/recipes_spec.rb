require "rails_helper"

RSpec.describe "Recipes", type: :request do
  it "lists recipes" do
    get "/recipes"
    expect(response).to have_http_status(:ok)
  end
end
