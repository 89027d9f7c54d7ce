use Cro::HTTP::Router;

sub greeter-routes() is export {
    route {
        get -> 'greet', $name {
            content 'text/plain', "Hello, $name!";
        }
        post -> 'orders' {
            request-body -> %order {
                created 'orders', 'application/json', %order;
            }
        }
    }
}
