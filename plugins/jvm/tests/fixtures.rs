//! Runs each JVM analyzer natively on every `tests/fixtures/<tech>/<case>/app`
//! tree of its technology and compares the report with the hand-written
//! `expected.json`, through the SDK's shared runner
//! (`portolan_plugin_sdk::testing`, a mirror of the host's post-processing).
//! On a mismatch the actual report is written to
//! `$TMPDIR/portolan-<tech>-<case>.actual.json`.

use std::path::{Path, PathBuf};

use portolan_plugin_jvm::{
    armeria, dropwizard, helidon_mp, helidon_se, http4k, httpserver, javalin, jaxrs, jsp, ktor,
    micronaut, play, quarkus, spark, spring, struts2, vertx, wicket,
};
use portolan_plugin_sdk::testing;

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

#[test]
fn java_spring_fixtures() {
    testing::check_fixtures(&[&spring::JavaSpring], &fixtures_root());
}

#[test]
fn kotlin_spring_fixtures() {
    testing::check_fixtures(&[&spring::KotlinSpring], &fixtures_root());
}

#[test]
fn java_jaxrs_fixtures() {
    testing::check_fixtures(&[&jaxrs::JavaJaxrs], &fixtures_root());
}

#[test]
fn kotlin_ktor_fixtures() {
    testing::check_fixtures(&[&ktor::KotlinKtor], &fixtures_root());
}

#[test]
fn java_micronaut_fixtures() {
    testing::check_fixtures(&[&micronaut::JavaMicronaut], &fixtures_root());
}

#[test]
fn java_quarkus_fixtures() {
    testing::check_fixtures(&[&quarkus::JavaQuarkus], &fixtures_root());
}

#[test]
fn java_helidon_mp_fixtures() {
    testing::check_fixtures(
        &[&helidon_mp::JavaHelidonMp, &jaxrs::JavaJaxrs],
        &fixtures_root(),
    );
}

#[test]
fn java_dropwizard_fixtures() {
    testing::check_fixtures(&[&dropwizard::JavaDropwizard], &fixtures_root());
}

#[test]
fn java_javalin_fixtures() {
    testing::check_fixtures(&[&javalin::JavaJavalin], &fixtures_root());
}

#[test]
fn java_spark_fixtures() {
    testing::check_fixtures(&[&spark::JavaSpark], &fixtures_root());
}

#[test]
fn java_vertx_fixtures() {
    testing::check_fixtures(&[&vertx::JavaVertx], &fixtures_root());
}

#[test]
fn java_armeria_fixtures() {
    testing::check_fixtures(&[&armeria::JavaArmeria], &fixtures_root());
}

#[test]
fn java_helidon_se_fixtures() {
    testing::check_fixtures(&[&helidon_se::JavaHelidonSe], &fixtures_root());
}

#[test]
fn java_play_fixtures() {
    testing::check_fixtures(&[&play::JavaPlay], &fixtures_root());
}

#[test]
fn java_httpserver_fixtures() {
    testing::check_fixtures(&[&httpserver::JavaHttpServer], &fixtures_root());
}

#[test]
fn java_struts2_fixtures() {
    testing::check_fixtures(&[&struts2::JavaStruts2], &fixtures_root());
}

#[test]
fn java_jsp_fixtures() {
    testing::check_fixtures(&[&jsp::JavaJsp], &fixtures_root());
}

#[test]
fn java_wicket_fixtures() {
    testing::check_fixtures(&[&wicket::JavaWicket], &fixtures_root());
}

#[test]
fn kotlin_http4k_fixtures() {
    testing::check_fixtures(&[&http4k::KotlinHttp4k], &fixtures_root());
}

#[test]
fn java_cli_fixtures() {
    testing::check_fixtures(&[&portolan_plugin_jvm::cli::JavaCli], &fixtures_root());
}

#[test]
fn kotlin_cli_fixtures() {
    testing::check_fixtures(&[&portolan_plugin_jvm::cli::KotlinCli], &fixtures_root());
}

#[test]
fn jvm_cli_truncated_sources_do_not_panic() {
    testing::check_truncations(
        &[
            &portolan_plugin_jvm::cli::JavaCli,
            &portolan_plugin_jvm::cli::KotlinCli,
        ],
        &fixtures_root(),
        7,
    );
}
