module Shelf
  class Root < Grape::API
    format :json
    prefix :api

    helpers do
      def authenticate!
        error!("401 Unauthorized", 401) unless current_user
      end

      def current_user
        @current_user ||= User.find_by(token: headers["X-Auth-Token"])
      end
    end

    get :status do
      { ok: true }
    end

    mount Shelf::V1::Books
  end
end
