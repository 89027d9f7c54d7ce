defmodule RealWorldWeb.Endpoint do
  use Phoenix.Endpoint, otp_app: :real_world

  plug Plug.Static, at: "/", from: :real_world, gzip: false, only: ~w(openapi.yaml)
  plug Plug.RequestId
  plug Plug.Telemetry, event_prefix: [:phoenix, :endpoint]

  plug Plug.Parsers,
    parsers: [:urlencoded, :multipart, :json],
    pass: ["*/*"],
    json_decoder: Phoenix.json_library()

  plug Plug.MethodOverride
  plug Plug.Head
  plug CORSPlug
  plug RealWorldWeb.Router
end
