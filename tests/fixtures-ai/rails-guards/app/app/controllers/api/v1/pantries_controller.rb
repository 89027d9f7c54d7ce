module Api
  module V1
    class PantriesController < ActionController::API
      before_action :authenticate_api_token, except: :ping
      # before_action :authenticate_admin!

      def index
      end

      def create
        params.require(:pantry).permit(:name)
      end

      def ping
      end

      private

      def authenticate_api_token
        request.headers["X-Api-Token"]
      end
    end
  end
end
