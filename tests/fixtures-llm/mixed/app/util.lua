-- Helpers shared by the Harbor handlers.
local M = {}

function M.clamp(n, lo, hi)
  return math.max(lo, math.min(hi, n))
end

return M
