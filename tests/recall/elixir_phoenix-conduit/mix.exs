defmodule RealWorld.MixProject do
  use Mix.Project

  def project do
    [app: :real_world, version: "0.1.0", elixir: "~> 1.14", deps: deps()]
  end

  def application do
    [mod: {RealWorld.Application, []}, extra_applications: [:logger, :runtime_tools]]
  end

  defp deps do
    [
      {:phoenix, "~> 1.7.10"},
      {:phoenix_ecto, "~> 4.4"},
      {:ecto_sql, "~> 3.10"},
      {:postgrex, ">= 0.0.0"},
      {:guardian, "~> 2.3"},
      {:jason, "~> 1.2"},
      {:plug_cowboy, "~> 2.5"}
    ]
  end
end
