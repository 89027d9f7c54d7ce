//! Analyzers are linear (or n·log n) in the size of a file: per plugin
//! family, adversarial and ordinary input shapes at 1x and 8x (see
//! `portolan_fuzz::scaling` for the measure and its margins).
//!
//! The shapes: the issue's two quadratic inputs (stacked `@app.route`
//! decorators; a Go file of unbalanced `(`), the Spring one (`@GetMapping(`
//! and a run of `(`), and for every family its route idiom repeated, its
//! decorator/annotation stacked, and runs of unbalanced brackets, quotes and
//! comment openers after a header that makes the analyzers look.

use portolan_fuzz::{families, repeat, scaling, Family, Shape};

fn family(name: &str) -> Family {
    families()
        .into_iter()
        .find(|f| f.name == name)
        .expect("known family")
}

/// Runs of openers after `head`, each shape a separate file.
macro_rules! openers {
    ($path:expr, $head:expr) => {
        [
            Shape {
                name: "unbalanced (",
                path: $path,
                make: |n| repeat($head, n * 8, |_| "(".into(), "\n"),
            },
            Shape {
                name: "unbalanced {",
                path: $path,
                make: |n| repeat($head, n * 8, |_| "{".into(), "\n"),
            },
            Shape {
                name: "unbalanced [ and <",
                path: $path,
                make: |n| repeat($head, n * 8, |_| "[<".into(), "\n"),
            },
            Shape {
                name: "quotes and comment openers",
                path: $path,
                make: |n| repeat($head, n, |_| "\"'`/*#{${\"\"\"\n(/[".into(), "\n"),
            },
            Shape {
                name: "nested calls",
                path: $path,
                make: |n| {
                    let mut s = String::from($head);
                    s.push_str(&"f(".repeat(n * 4));
                    s.push_str(&")".repeat(n * 4));
                    s.push('\n');
                    s
                },
            },
        ]
    };
}

fn check(name: &str, shapes: &[Shape]) {
    let family = family(name);
    let mut failures = Vec::new();
    for shape in shapes {
        failures.extend(scaling(&family, shape));
    }
    assert!(
        failures.is_empty(),
        "worse than linear:\n{}",
        failures.join("\n")
    );
}

const PY_HEAD: &str = "from flask import Flask, request, Blueprint\nfrom fastapi import FastAPI, APIRouter\nfrom django.urls import path\napp = Flask(__name__)\n";

#[test]
fn python_scales_linearly() {
    let mut shapes = vec![
        Shape {
            name: "stacked @app.route",
            path: "app/app.py",
            make: |n| {
                repeat(
                    PY_HEAD,
                    n,
                    |i| format!("@app.route('/r{i}')\n"),
                    "def f():\n    return request.args.get('q')\n",
                )
            },
        },
        Shape {
            name: "routes",
            path: "app/app.py",
            make: |n| {
                repeat(
                    PY_HEAD,
                    n,
                    |i| {
                        format!("@app.route('/r{i}', methods=['GET', 'POST'])\ndef f{i}(x):\n    return request.args.get('q{i}')\n\n")
                    },
                    "",
                )
            },
        },
        Shape {
            name: "urlpatterns",
            path: "app/urls.py",
            make: |n| {
                repeat(
                    "from django.urls import path\nurlpatterns = [\n",
                    n,
                    |i| format!("    path('r{i}/<int:id>/', views.v{i}),\n"),
                    "]\n",
                )
            },
        },
    ];
    shapes.extend(openers!("app/app.py", PY_HEAD));
    check("python", &shapes);
}

const GO_HEAD: &str = "package main\n\nimport (\n\t\"net/http\"\n\t\"github.com/gin-gonic/gin\"\n\t\"github.com/labstack/echo/v4\"\n\t\"github.com/go-chi/chi/v5\"\n)\n\nfunc main() {\n\tr := gin.Default()\n\thttp.HandleFunc(\"/a\", h)\n";

#[test]
fn go_scales_linearly() {
    let mut shapes = vec![Shape {
        name: "routes",
        path: "app/main.go",
        make: |n| {
            repeat(
                GO_HEAD,
                n,
                |i| {
                    format!("\tr.GET(\"/r{i}\", func(c *gin.Context) {{ c.Query(\"q\") }})\n\thttp.HandleFunc(\"/h{i}\", func(w http.ResponseWriter, r *http.Request) {{ r.URL.Query().Get(\"x\") }})\n")
                },
                "}\n",
            )
        },
    }];
    shapes.extend(openers!("app/main.go", GO_HEAD));
    check("go", &shapes);
}

const JS_HEAD: &str = "import express from 'express';\nimport { Controller, Get } from '@nestjs/common';\nconst app = express();\nconst router = express.Router();\n";

#[test]
fn javascript_scales_linearly() {
    let mut shapes = vec![
        Shape {
            name: "routes",
            path: "app/src/app.ts",
            make: |n| {
                repeat(
                    JS_HEAD,
                    n,
                    |i| {
                        format!("app.get('/r{i}', (req, res) => {{ res.send(req.query.q); }});\nrouter.post(`/p{i}`, async function (req, res) {{ const {{ a }} = req.body; }});\n")
                    },
                    "app.use('/api', router);\n",
                )
            },
        },
        Shape {
            name: "stacked decorators",
            path: "app/src/a.controller.ts",
            make: |n| {
                repeat(
                    &format!("{JS_HEAD}@Controller('x')\nexport class A {{\n"),
                    n,
                    |i| format!("  @Get('/r{i}')\n"),
                    "  h() {}\n}\n",
                )
            },
        },
        // Bundler output: thousands of small functions whose first
        // parameter is `e` (each once searched the whole file for `e`).
        // A newline every few hundred bytes, as in a webpack chunk, so
        // the analyzers' minified-file skip does not apply.
        Shape {
            name: "bundle of minified functions",
            path: "app/server/index.js",
            make: |n| {
                repeat(
                    "var express=require(\"express\"),app=express();\n",
                    n,
                    |i| {
                        let unit = format!("function a{i}(e,t){{return e.query.q{i}||t.send(e.body)}}var b{i}=function(e){{return e.params.id?a{i}(e,e):null}};");
                        if i % 4 == 3 {
                            format!("{unit}\n")
                        } else {
                            unit
                        }
                    },
                    "app.get(\"/x\",a0);\n",
                )
            },
        },
        // The same on one line (a minified bundle: recognised and skipped,
        // in time linear in its size).
        Shape {
            name: "one long minified line",
            path: "app/server/index.js",
            make: |n| {
                repeat(
                    "var express=require(\"express\"),app=express();",
                    n,
                    |i| {
                        format!("function a{i}(e,t){{return e.query.q{i}||t.send(e.body)}}app.get(\"/r{i}\",a{i});")
                    },
                    "\n",
                )
            },
        },
    ];
    shapes.extend(openers!("app/src/app.ts", JS_HEAD));
    check("javascript", &shapes);
}

const JAVA_HEAD: &str = "package a;\nimport org.springframework.web.bind.annotation.*;\nimport javax.ws.rs.*;\n@RestController\n@RequestMapping(\"/api\")\npublic class A {\n";

#[test]
fn jvm_scales_linearly() {
    let mut shapes = vec![
        Shape {
            name: "routes",
            path: "app/src/main/java/a/A.java",
            make: |n| {
                repeat(
                    JAVA_HEAD,
                    n,
                    |i| {
                        format!("  @GetMapping(\"/r{i}\")\n  public String f{i}(@RequestParam String q, @PathVariable(\"id\") long id) {{ return q; }}\n")
                    },
                    "}\n",
                )
            },
        },
        Shape {
            name: "stacked annotations",
            path: "app/src/main/java/a/A.java",
            make: |n| {
                repeat(
                    JAVA_HEAD,
                    n,
                    |i| format!("  @GetMapping(\"/r{i}\")\n"),
                    "  public String f() { return \"\"; }\n}\n",
                )
            },
        },
        Shape {
            name: "@GetMapping( then unbalanced (",
            path: "app/src/main/java/a/A.java",
            make: |n| format!("{JAVA_HEAD}  @GetMapping({}\n", "(".repeat(n * 8)),
        },
    ];
    shapes.extend(openers!("app/src/main/java/a/A.java", JAVA_HEAD));
    check("jvm", &shapes);
}

const SCALA_HEAD: &str = "package a\nimport akka.http.scaladsl.server.Directives._\nimport org.scalatra._\nobject R {\n  val route =\n";

#[test]
fn scala_scales_linearly() {
    let mut shapes = vec![Shape {
        name: "routes",
        path: "app/src/main/scala/a/R.scala",
        make: |n| {
            repeat(
                SCALA_HEAD,
                n,
                |i| {
                    format!("    path(\"r{i}\") {{ get {{ parameter(\"q\") {{ q => complete(q) }} }} }} ~\n")
                },
                "    path(\"end\") { get { complete(\"x\") } }\n}\n",
            )
        },
    }];
    shapes.extend(openers!("app/src/main/scala/a/R.scala", SCALA_HEAD));
    check("scala", &shapes);
}

const PHP_HEAD: &str = "<?php\nuse Illuminate\\Support\\Facades\\Route;\nuse Symfony\\Component\\Routing\\Annotation\\Route as R;\n";

#[test]
fn php_scales_linearly() {
    let mut shapes = vec![
        Shape {
            name: "routes",
            path: "app/routes/web.php",
            make: |n| {
                repeat(
                    PHP_HEAD,
                    n,
                    |i| {
                        format!("Route::get('/r{i}/{{id}}', [A::class, 'f']);\n$app->post('/p{i}', function ($request) {{ $request->input('q'); }});\n")
                    },
                    "",
                )
            },
        },
        Shape {
            name: "stacked attributes",
            path: "app/src/Controller/A.php",
            make: |n| {
                repeat(
                    &format!("{PHP_HEAD}class A {{\n"),
                    n,
                    |i| format!("    #[R('/r{i}', methods: ['GET'])]\n"),
                    "    public function f() {}\n}\n",
                )
            },
        },
    ];
    shapes.extend(openers!("app/routes/web.php", PHP_HEAD));
    check("php", &shapes);
}

const RUBY_HEAD: &str = "require 'sinatra'\nRails.application.routes.draw do\n";

#[test]
fn ruby_scales_linearly() {
    let mut shapes = vec![
        Shape {
            name: "rails routes",
            path: "app/config/routes.rb",
            make: |n| {
                repeat(
                    RUBY_HEAD,
                    n,
                    |i| {
                        format!("  get '/r{i}', to: 'a#b{i}'\n  resources :things{i} do\n    member do\n      post :x\n    end\n  end\n")
                    },
                    "end\n",
                )
            },
        },
        Shape {
            name: "sinatra routes",
            path: "app/app.rb",
            make: |n| {
                repeat(
                    "require 'sinatra'\n",
                    n,
                    |i| format!("get '/r{i}/:id' do\n  params[:q]\nend\n"),
                    "",
                )
            },
        },
    ];
    shapes.extend(openers!("app/config/routes.rb", RUBY_HEAD));
    check("ruby", &shapes);
}

const RUST_HEAD: &str =
    "use actix_web::{get, web, App, HttpServer};\nuse axum::{routing::get, Router};\n";

#[test]
fn rust_scales_linearly() {
    let mut shapes = vec![
        Shape {
            name: "routes",
            path: "app/src/main.rs",
            make: |n| {
                repeat(
                    RUST_HEAD,
                    n,
                    |i| {
                        format!("#[get(\"/r{i}/{{id}}\")]\nasync fn f{i}(q: web::Query<Q>) -> String {{ String::new() }}\n")
                    },
                    "fn app() -> Router { Router::new().route(\"/a\", get(h)) }\n",
                )
            },
        },
        Shape {
            name: "stacked attributes",
            path: "app/src/main.rs",
            make: |n| {
                repeat(
                    RUST_HEAD,
                    n,
                    |i| format!("#[get(\"/r{i}\")]\n"),
                    "async fn f() {}\n",
                )
            },
        },
    ];
    shapes.extend(openers!("app/src/main.rs", RUST_HEAD));
    check("rust", &shapes);
}

const CS_HEAD: &str = "using Microsoft.AspNetCore.Mvc;\nusing Microsoft.AspNetCore.Builder;\n[ApiController]\n[Route(\"api/[controller]\")]\npublic class AController : ControllerBase {\n";

#[test]
fn dotnet_scales_linearly() {
    let mut shapes = vec![
        Shape {
            name: "routes",
            path: "app/Controllers/AController.cs",
            make: |n| {
                repeat(
                    CS_HEAD,
                    n,
                    |i| {
                        format!("  [HttpGet(\"r{i}/{{id}}\")]\n  public IActionResult F{i}([FromQuery] string q, int id) => Ok();\n")
                    },
                    "}\n",
                )
            },
        },
        Shape {
            name: "stacked attributes",
            path: "app/Controllers/AController.cs",
            make: |n| {
                repeat(
                    CS_HEAD,
                    n,
                    |i| format!("  [HttpGet(\"r{i}\")]\n"),
                    "  public IActionResult F() => Ok();\n}\n",
                )
            },
        },
        Shape {
            name: "minimal api",
            path: "app/Program.cs",
            make: |n| {
                repeat(
                    "var app = WebApplication.Create();\n",
                    n,
                    |i| {
                        format!("app.MapGet(\"/r{i}/{{id}}\", (int id, [FromQuery] string q) => Results.Ok());\n")
                    },
                    "app.Run();\n",
                )
            },
        },
    ];
    shapes.extend(openers!("app/Controllers/AController.cs", CS_HEAD));
    check("dotnet", &shapes);
}

#[test]
fn crystal_scales_linearly() {
    let mut shapes = vec![Shape {
        name: "routes",
        path: "app/src/app.cr",
        make: |n| {
            repeat(
                "require \"kemal\"\n",
                n,
                |i| format!("get \"/r{i}/:id\" do |env|\n  env.params.query[\"q\"]\nend\n"),
                "Kemal.run\n",
            )
        },
    }];
    shapes.extend(openers!("app/src/app.cr", "require \"kemal\"\n"));
    check("crystal", &shapes);
}

const EX_HEAD: &str = "defmodule AWeb.Router do\n  use Phoenix.Router\n  scope \"/api\", AWeb do\n";

#[test]
fn elixir_scales_linearly() {
    let mut shapes = vec![Shape {
        name: "routes",
        path: "app/lib/a_web/router.ex",
        make: |n| {
            repeat(
                EX_HEAD,
                n,
                |i| {
                    format!("    get \"/r{i}/:id\", C{i}, :show\n    resources \"/things{i}\", T\n")
                },
                "  end\nend\n",
            )
        },
    }];
    shapes.extend(openers!("app/lib/a_web/router.ex", EX_HEAD));
    check("elixir", &shapes);
}

const SWIFT_HEAD: &str = "import Vapor\nfunc routes(_ app: Application) throws {\n";

#[test]
fn swift_scales_linearly() {
    let mut shapes = vec![Shape {
        name: "routes",
        path: "app/Sources/App/routes.swift",
        make: |n| {
            repeat(
                SWIFT_HEAD,
                n,
                |i| format!("  app.get(\"r{i}\", \":id\") {{ req in req.query[\"q\"] }}\n"),
                "}\n",
            )
        },
    }];
    shapes.extend(openers!("app/Sources/App/routes.swift", SWIFT_HEAD));
    check("swift", &shapes);
}

#[test]
fn idl_scales_linearly() {
    let shapes = vec![
        Shape {
            name: "graphql fields",
            path: "app/schema.graphql",
            make: |n| {
                repeat(
                    "type Query {\n",
                    n,
                    |i| format!("  f{i}(a: Int, b: [String!]): String\n"),
                    "}\n",
                )
            },
        },
        Shape {
            name: "graphql unbalanced {",
            path: "app/schema.graphql",
            make: |n| repeat("type Query {\n", n * 8, |_| "{(".into(), "\n"),
        },
        Shape {
            name: "proto rpcs",
            path: "app/a.proto",
            make: |n| {
                repeat(
                    "syntax = \"proto3\";\nservice S {\n",
                    n,
                    |i| format!("  rpc F{i}(R) returns (R);\n"),
                    "}\n",
                )
            },
        },
        Shape {
            name: "proto unbalanced {",
            path: "app/a.proto",
            make: |n| {
                repeat(
                    "syntax = \"proto3\";\nservice S {\n",
                    n * 8,
                    |_| "{".into(),
                    "\n",
                )
            },
        },
    ];
    check("idl", &shapes);
}

#[test]
fn infra_scales_linearly() {
    let shapes = vec![
        Shape {
            name: "nginx locations",
            path: "app/nginx.conf",
            make: |n| {
                repeat(
                    "http {\n server {\n",
                    n,
                    |i| format!("  location /r{i} {{ proxy_pass http://b; }}\n"),
                    " }\n}\n",
                )
            },
        },
        Shape {
            name: "nginx unbalanced {",
            path: "app/nginx.conf",
            make: |n| {
                repeat(
                    "http {\n server {\n",
                    n * 8,
                    |_| "location / {".into(),
                    "\n",
                )
            },
        },
    ];
    check("infra", &shapes);
}

#[test]
fn specs_scale_linearly() {
    let shapes = vec![
        Shape {
            name: "openapi paths",
            path: "app/openapi.yaml",
            make: |n| {
                repeat(
                    "openapi: 3.0.0\ninfo:\n  title: a\n  version: '1'\npaths:\n",
                    n,
                    |i| {
                        format!("  /r{i}/{{id}}:\n    get:\n      parameters:\n        - name: q\n          in: query\n          schema:\n            $ref: '#/components/schemas/S'\n")
                    },
                    "components:\n  schemas:\n    S:\n      type: string\n",
                )
            },
        },
        Shape {
            name: "openapi json nesting",
            path: "app/openapi.json",
            make: |n| {
                format!(
                    "{{\"openapi\": \"3.0.0\", \"paths\": {{\"/a\": {{\"get\": {{\"x\": {}}}}}}}}}",
                    "[".repeat(n * 8)
                )
            },
        },
    ];
    check("specs", &shapes);
}

const PL_HEAD: &str = "package App;\nuse Dancer2;\n";
const CLJ_HEAD: &str =
    "(ns app.api\n  (:require [compojure.core :refer [defroutes GET POST context]]))\n";
const CPP_HEAD: &str = "#include \"crow.h\"\nint main() {\n  crow::SimpleApp app;\n";
const HS_HEAD: &str =
    "{-# LANGUAGE OverloadedStrings #-}\nimport Web.Scotty\nmain = scotty 3000 $ do\n";
const R_HEAD: &str = "library(plumber)\n";

#[test]
fn polyglot_scales_linearly() {
    let mut shapes = vec![
        Shape {
            name: "dancer2 routes",
            path: "app/lib/App.pm",
            make: |n| {
                repeat(
                    PL_HEAD,
                    n,
                    |i| {
                        format!("get '/r{i}/:id' => sub {{\n  my $q = query_parameters->get('q');\n}};\n")
                    },
                    "1;\n",
                )
            },
        },
        Shape {
            name: "compojure routes in nested contexts",
            path: "app/src/app/api.clj",
            make: |n| {
                let mut s = String::from(CLJ_HEAD);
                s.push_str("(defroutes app-routes\n");
                for i in 0..n {
                    s.push_str(&format!(
                        "  (context \"/c{i}\" []\n    (GET \"/r{i}/:id\" [id q] (h id q))\n"
                    ));
                }
                s.push_str(&")".repeat(n));
                s.push_str(")\n");
                s
            },
        },
        Shape {
            name: "crow routes",
            path: "app/src/main.cpp",
            make: |n| {
                repeat(
                    CPP_HEAD,
                    n,
                    |i| {
                        format!("  CROW_ROUTE(app, \"/r{i}/<int>\").methods(\"POST\"_method)([](const crow::request& req, int id) {{ return req.url_params.get(\"q\"); }});\n")
                    },
                    "  app.port(8080).run();\n}\n",
                )
            },
        },
        Shape {
            name: "scotty routes",
            path: "app/src/Main.hs",
            make: |n| {
                repeat(
                    HS_HEAD,
                    n,
                    |i| {
                        format!("  get \"/r{i}/:id\" $ do\n    q <- queryParam \"q\"\n    text q\n")
                    },
                    "",
                )
            },
        },
        Shape {
            name: "plumber annotations",
            path: "app/plumber.R",
            make: |n| {
                repeat(
                    R_HEAD,
                    n,
                    |i| {
                        format!(
                            "#* @param q a query\n#* @get /r{i}/<id>\nfunction(q, id) {{ q }}\n"
                        )
                    },
                    "",
                )
            },
        },
    ];
    shapes.extend(openers!("app/lib/App.pm", PL_HEAD));
    shapes.extend(openers!("app/src/app/api.clj", CLJ_HEAD));
    shapes.extend(openers!("app/src/main.cpp", CPP_HEAD));
    shapes.extend(openers!("app/src/Main.hs", HS_HEAD));
    shapes.extend(openers!("app/plumber.R", R_HEAD));
    check("polyglot", &shapes);
}
