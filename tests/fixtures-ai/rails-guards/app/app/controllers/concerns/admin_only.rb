module AdminOnly
  extend ActiveSupport::Concern

  included do
    before_action :require_admin!
  end
end
