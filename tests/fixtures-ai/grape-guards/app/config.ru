require_relative "app/api/root"

run Shelf::Root
