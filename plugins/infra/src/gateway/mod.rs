//! Web servers, reverse proxies and API gateways whose configuration
//! declares routes: one module per product.

pub mod apache_httpd;
pub mod apisix;
pub mod caddy;
pub mod envoy;
pub mod istio_virtualservice;
pub mod kong;
pub mod traefik;
