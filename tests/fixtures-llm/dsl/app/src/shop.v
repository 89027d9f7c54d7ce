module main

import vweb

struct App {
	vweb.Context
}

['/products/:id'; get]
pub fn (mut app App) product(id int) vweb.Result {
	return app.text(id.str())
}

@['/products'; post]
pub fn (mut app App) create() vweb.Result {
	return app.text(app.form['name'])
}

fn main() {
	vweb.run(&App{}, 8082)
}
