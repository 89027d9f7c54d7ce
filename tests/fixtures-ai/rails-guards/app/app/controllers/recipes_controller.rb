class RecipesController < ApplicationController
  skip_before_action :authenticate_user!, only: [:index, :show]
  load_and_authorize_resource except: [:index, :show]

  def index
    @recipes = Recipe.search(params[:q])
  end

  def show
  end

  def new
  end

  def create
    @recipe = Recipe.create(recipe_params)
  end

  def edit
  end

  def update
  end

  def destroy
  end

  def favorite
  end

  private

  def recipe_params
    params.require(:recipe).permit(:title, :steps)
  end
end
