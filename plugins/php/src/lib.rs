//! PHP web frameworks.
//!
//! Adding a framework: a module next to [`laravel`] (reusing [`php`]) and
//! one entry in the `plugin!` registration below.

pub mod cakephp;
pub mod cli;
pub mod codeigniter;
pub mod drupal;
pub mod hyperf;
pub mod laminas;
pub mod laravel;
pub mod phalcon;
pub mod php;
pub mod pure;
pub mod slim;
pub mod symfony;
pub mod thinkphp;
pub mod wordpress;
pub mod yii;

portolan_plugin_sdk::plugin!(name: "php", analyzers: [laravel::Laravel, laravel::Lumen, symfony::Symfony, slim::Slim, wordpress::WordPress, pure::Pure, codeigniter::CodeIgniter, cakephp::CakePhp, drupal::Drupal, hyperf::Hyperf, yii::Yii, laminas::Laminas, thinkphp::ThinkPhp, phalcon::Phalcon, cli::PhpCli]);
