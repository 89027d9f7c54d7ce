module Admin
  class BaseController < ApplicationController
    before_action :authorize_admin!

    private

    def authorize_admin!
      head :forbidden unless current_user.admin?
    end
  end
end
