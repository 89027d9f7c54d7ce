defmodule Conduit.MixProject do
  use Mix.Project

  def project, do: [app: :conduit, version: "0.1.0", elixir: "~> 1.15", deps: deps()]

  def application, do: [mod: {Conduit.Application, []}, extra_applications: [:logger]]

  defp deps do
    [{:plug_cowboy, "~> 2.6"}, {:jason, "~> 1.4"}, {:joken, "~> 2.6"}, {:ecto_sql, "~> 3.10"}]
  end
end
