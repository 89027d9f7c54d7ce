//! Runs each PHP analyzer natively on every `tests/fixtures/<tech>/<case>/app`
//! tree of its technology and compares the report with the hand-written
//! `expected.json`, through the SDK's shared runner
//! (`portolan_plugin_sdk::testing`, a mirror of the host's post-processing).
//! On a mismatch the actual report is written to
//! `$TMPDIR/portolan-<tech>-<case>.actual.json`.

use std::path::{Path, PathBuf};

use portolan_plugin_php::{
    cakephp, cli, codeigniter, drupal, hyperf, laminas, laravel, phalcon, pure, slim, symfony,
    thinkphp, wordpress, yii,
};
use portolan_plugin_sdk::testing;

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

#[test]
fn php_laravel_fixtures() {
    testing::check_fixtures(&[&laravel::Laravel], &fixtures_root());
}

#[test]
fn php_symfony_fixtures() {
    testing::check_fixtures(&[&symfony::Symfony], &fixtures_root());
}

#[test]
fn php_slim_fixtures() {
    testing::check_fixtures(&[&slim::Slim], &fixtures_root());
}

#[test]
fn php_lumen_fixtures() {
    // Laravel runs too: it must leave the Lumen apps alone.
    testing::check_fixtures(&[&laravel::Lumen, &laravel::Laravel], &fixtures_root());
}

#[test]
fn php_wordpress_fixtures() {
    testing::check_fixtures(&[&wordpress::WordPress], &fixtures_root());
}

#[test]
fn php_pure_fixtures() {
    testing::check_fixtures(&[&pure::Pure], &fixtures_root());
}

#[test]
fn php_codeigniter_fixtures() {
    testing::check_fixtures(&[&codeigniter::CodeIgniter], &fixtures_root());
}

#[test]
fn php_cakephp_fixtures() {
    testing::check_fixtures(&[&cakephp::CakePhp], &fixtures_root());
}

#[test]
fn php_drupal_fixtures() {
    testing::check_fixtures(&[&drupal::Drupal], &fixtures_root());
}

#[test]
fn php_hyperf_fixtures() {
    testing::check_fixtures(&[&hyperf::Hyperf], &fixtures_root());
}

#[test]
fn php_yii_fixtures() {
    testing::check_fixtures(&[&yii::Yii], &fixtures_root());
}

#[test]
fn php_laminas_fixtures() {
    testing::check_fixtures(&[&laminas::Laminas], &fixtures_root());
}

#[test]
fn php_thinkphp_fixtures() {
    testing::check_fixtures(&[&thinkphp::ThinkPhp], &fixtures_root());
}

#[test]
fn php_phalcon_fixtures() {
    testing::check_fixtures(&[&phalcon::Phalcon], &fixtures_root());
}

#[test]
fn php_cli_fixtures() {
    testing::check_fixtures(&[&cli::PhpCli], &fixtures_root());
    testing::check_truncations(&[&cli::PhpCli], &fixtures_root(), 7);
}
