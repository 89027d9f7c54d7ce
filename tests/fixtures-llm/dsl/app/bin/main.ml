(* Users service on Dream. *)
let () =
  Dream.run ~port:8080
  @@ Dream.logger
  @@ Dream.router [
    Dream.get "/" (fun _ -> Dream.html "users");
    Dream.get "/users/:id" (fun request ->
      Dream.html (Dream.param request "id"));
    Dream.post "/users" (fun request ->
      let%lwt body = Dream.body request in
      Dream.json body);
  ]
