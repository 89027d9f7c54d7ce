exports.requireAuth = (req, res, next) => next();
