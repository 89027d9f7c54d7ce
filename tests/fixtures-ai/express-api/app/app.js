const express = require('express');
const { requireAuth } = require('./auth');
const db = require('./db');

const app = express();

app.get('/users/:id', requireAuth, (req, res) => {
  db.query('SELECT * FROM users WHERE id = ' + req.query.id, (err, rows) => res.json(rows));
});

app.post('/comments', (req, res) => {
  const text = req.body.text;
  db.insertComment(text);
  res.status(201).end();
});

module.exports = app;
