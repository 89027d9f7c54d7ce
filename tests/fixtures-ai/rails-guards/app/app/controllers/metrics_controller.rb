class MetricsController < ActionController::Base
  http_basic_authenticate_with name: "ops", password: ENV["METRICS_PASSWORD"]

  def show
  end
end
