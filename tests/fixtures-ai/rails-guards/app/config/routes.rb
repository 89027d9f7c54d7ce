Rails.application.routes.draw do
  devise_for :users

  root "home#index"

  resources :recipes do
    member do
      post :favorite
    end
  end

  namespace :admin do
    resources :reports, only: [:index, :show]
  end

  namespace :api do
    namespace :v1 do
      resources :pantries, only: [:index, :create]
      get "ping", to: "pantries#ping"
    end
  end

  get "/metrics", to: "metrics#show"
end
