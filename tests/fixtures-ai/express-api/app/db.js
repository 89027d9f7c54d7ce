module.exports = { query() {}, insertComment() {} };
