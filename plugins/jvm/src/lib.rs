//! JVM web frameworks (Java and Kotlin).
//!
//! Adding a framework: a module next to [`spring`] (reusing [`jvm`]) and
//! one entry in the `plugin!` registration below.

pub mod armeria;
pub mod cli;
pub mod dropwizard;
pub mod helidon_mp;
pub mod helidon_se;
pub mod http4k;
pub mod httpserver;
pub mod javalin;
pub mod jaxrs;
pub mod jsp;
pub mod jvm;
pub mod ktor;
pub mod micronaut;
pub mod play;
pub mod quarkus;
pub mod spark;
pub mod spring;
pub mod struts2;
pub mod vertx;
pub mod wicket;

portolan_plugin_sdk::plugin!(
    name: "jvm",
    analyzers: [spring::JavaSpring, spring::KotlinSpring, jaxrs::JavaJaxrs,
        ktor::KotlinKtor,
        micronaut::JavaMicronaut,
        quarkus::JavaQuarkus,
        helidon_mp::JavaHelidonMp,
        dropwizard::JavaDropwizard,
        javalin::JavaJavalin,
        spark::JavaSpark,
        vertx::JavaVertx,
        armeria::JavaArmeria,
        helidon_se::JavaHelidonSe,
        play::JavaPlay,
        httpserver::JavaHttpServer,
        struts2::JavaStruts2,
        jsp::JavaJsp,
        wicket::JavaWicket,
        http4k::KotlinHttp4k,
        cli::JavaCli,
        cli::KotlinCli,
    ],
);
