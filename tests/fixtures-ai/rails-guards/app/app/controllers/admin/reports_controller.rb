module Admin
  class ReportsController < BaseController
    include AdminOnly

    def index
      @period = params[:period]
    end

    def show
    end
  end
end
