//! Runs each Scala analyzer natively on every `tests/fixtures/<tech>/<case>/app`
//! tree of its technology and compares the report with the hand-written
//! `expected.json`, through the SDK's shared runner. On a mismatch the
//! actual report is written to `$TMPDIR/portolan-<tech>-<case>.actual.json`.

use std::path::{Path, PathBuf};

use portolan_plugin_scala::{akka, http4s, play, scalatra, tapir, zio_http};
use portolan_plugin_sdk::testing;
use portolan_plugin_sdk::Analyzer;

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

fn all() -> Vec<&'static dyn Analyzer> {
    vec![
        &akka::Akka,
        &play::Play,
        &http4s::Http4s,
        &tapir::Tapir,
        &scalatra::Scalatra,
        &zio_http::ZioHttp,
    ]
}

#[test]
fn scala_akka_fixtures() {
    testing::check_fixtures(&[&akka::Akka], &fixtures_root());
}

#[test]
fn scala_play_fixtures() {
    testing::check_fixtures(&[&play::Play], &fixtures_root());
}

#[test]
fn scala_http4s_fixtures() {
    testing::check_fixtures(&[&http4s::Http4s], &fixtures_root());
}

#[test]
fn scala_tapir_fixtures() {
    testing::check_fixtures(&[&tapir::Tapir, &scalatra::Scalatra], &fixtures_root());
}

#[test]
fn scala_scalatra_fixtures() {
    testing::check_fixtures(&[&scalatra::Scalatra], &fixtures_root());
}

#[test]
fn scala_zio_http_fixtures() {
    testing::check_fixtures(&[&zio_http::ZioHttp], &fixtures_root());
}

/// Every prefix of every fixture source (cut at arbitrary points, so
/// brackets, strings and comments are left open) is analyzed and linked
/// without panicking.
#[test]
fn truncated_sources_do_not_panic() {
    testing::check_truncations(&all(), &fixtures_root(), 7);
}

/// `PORTOLAN_PROFILE_DIR=/path cargo test -- --ignored profile --nocapture`:
/// time each Scala analyzer's map and link steps over a source tree.
#[test]
#[ignore]
fn profile() {
    use portolan_plugin_sdk::{Facts, Output};
    let Ok(dir) = std::env::var("PORTOLAN_PROFILE_DIR") else {
        return;
    };
    for a in all() {
        let files = testing::load_tree(&a.tech(), Path::new(&dir));
        let t = std::time::Instant::now();
        let mut facts = Facts::new(Vec::new());
        for file in &files {
            let mut out = Output::new();
            a.analyze(file, &mut out);
            let (_, f) = out.into_parts();
            facts.extend(f);
        }
        let map = t.elapsed();
        let eps = a.link(&facts).map(|e| e.len());
        eprintln!(
            "{}: {} files, map {:?}, link {:?} -> {:?}",
            a.tech().id,
            files.len(),
            map,
            t.elapsed() - map,
            eps
        );
    }
}

/// An Akka HTTP code base of `n` route traits in the shape that made the
/// linker blow up: every trait names its helpers alike (`start`,
/// `routes`), reaches the helpers of the two traits before it (a diamond
/// chain of references with no endpoints of its own), and mixes
/// unqualified, qualified and aliased references.
fn akka_tree(n: usize) -> Vec<portolan_plugin_sdk::SourceFile> {
    let mut files = Vec::new();
    for k in 0..n {
        let (a, b) = (k.saturating_sub(1), k.saturating_sub(2));
        let src = format!(
            r#"package app
import org.apache.pekko.http.scaladsl.server.Directives._
import org.apache.pekko.http.scaladsl.server.Route

trait Base{k} extends Directives {{
  val collection{k} = "things{k}"
  def start: Route = pathEnd {{ complete("ok") }}
  def mix: Route = authorize(true) {{ Base{a}.mix ~ Base{b}.mix }}
  def routes(user: String): Route =
    pathPrefix(collection{k} / Segment) {{ ns =>
      get {{ complete(ns) }} ~
        (post & path(Segment)) {{ name => entity(as[Thing{k}]) {{ t => complete(t) }} }} ~
        mix
    }}
}}

case class Thing{k}(name: String, size: Int)

class Api{k} extends Base{k} {{
  private val other = new Api{a}()
  val all: Route = concat(routes("u"), other.start, start)
}}
"#
        );
        files.push(portolan_plugin_sdk::SourceFile::new(
            format!("app/src/main/scala/app/Api{k}.scala"),
            src,
        ));
    }
    files
}

/// Work (tokens read, route nodes walked) grows linearly with the code
/// base: 8x the traits costs at most ~10x the work. Counted, not timed, so
/// a loaded machine cannot make it flaky.
#[test]
fn akka_link_is_linear() {
    let measure = |n: usize| {
        let files = akka_tree(n);
        let before = portolan_plugin_scala::scala::work();
        let eps = testing::run_files(&akka::Akka, &files);
        (portolan_plugin_scala::scala::work() - before, eps.len())
    };
    let (small, small_eps) = measure(40);
    let (big, big_eps) = measure(320);
    assert!(small_eps >= 40 * 2, "{small_eps} endpoints");
    assert!(
        big_eps >= 8 * small_eps,
        "{big_eps} vs {small_eps} endpoints"
    );
    assert!(
        big <= small * 10,
        "work grew {big} / {small} = {:.1}x for 8x the code",
        big as f64 / small as f64
    );
}

/// An Akka HTTP code base of `n` resources in the shape of a shared route
/// trait whose members each resource overrides (virtual dispatch), reached
/// through instances (`rK.routes(user)`), with collection names read from
/// constructor arguments of a case class, and a service base trait calling
/// the `routes` every subclass defines.
fn akka_dispatch_tree(n: usize) -> Vec<portolan_plugin_sdk::SourceFile> {
    let mut files = vec![portolan_plugin_sdk::SourceFile::new(
        "app/src/main/scala/app/Base.scala".to_string(),
        r#"package app
import org.apache.pekko.http.scaladsl.server.{Directives, Route}

case class Coll protected (val path: String)

trait Service extends Directives {
  def routes: Route
  def route: Route = handleRejections(h) { routes }
}

trait Resource extends Directives {
  protected val coll: Coll
  protected lazy val listOps = pathEndOrSingleSlash & get
  protected lazy val itemPrefix = pathPrefix(Segment)
  protected lazy val itemOps = get
  protected lazy val collPrefix = pathPrefix(Segment / coll.path)
  def routes(user: String): Route =
    collPrefix { ns =>
      (listOps & extractMethod) { m => list(ns) } ~ inner(user, ns)
    }
  protected def inner(user: String, ns: String): Route =
    (itemPrefix & itemOps & extractMethod) { (id, m) => pathEnd { dispatch(m, id) } }
  protected def list(ns: String): Route
}
"#
        .to_string(),
    )];
    let mut api = String::from(
        "package app\nclass Api(base: String) extends Service {\n  def prefix = pathPrefix(base)\n  override def routes: Route = prefix { authenticate { user =>\n",
    );
    for k in 0..n {
        let prev = k.saturating_sub(1);
        files.push(portolan_plugin_sdk::SourceFile::new(
            format!("app/src/main/scala/app/R{k}.scala"),
            format!(
                r#"package app
import org.apache.pekko.http.scaladsl.server.Route

object Names{k} {{ val Name = "things{k}" }}

trait R{k}Routes extends Resource {{
  protected override val coll = Coll(Names{k}.Name)
  override protected lazy val itemOps = put | get | delete
  protected override def list(ns: String): Route =
    parameters("limit".as[Int].optional) {{ limit => complete(ns) }}
  override protected def inner(user: String, ns: String): Route =
    (itemPrefix & itemOps & extractMethod) {{ (id, m) =>
      pathEnd {{ dispatch(m, id) }} ~ path("parts") {{ get {{ R{prev}Helper.parts }} }}
    }}
}}
object R{k}Helper {{ def parts: Route = complete("p") }}
class R{k}Api(val v: String) extends R{k}Routes
"#
            ),
        ));
        api.push_str(&format!("    r{k}.routes(user) ~\n"));
    }
    api.push_str("    reject\n  } }\n");
    for k in 0..n {
        api.push_str(&format!("  private val r{k} = new R{k}Api(\"v\")\n"));
    }
    api.push_str("}\nobject Main { val api = new Api(\"api\") }\n");
    files.push(portolan_plugin_sdk::SourceFile::new(
        "app/src/main/scala/app/Api.scala".to_string(),
        api,
    ));
    files
}

/// Virtual dispatch (a trait walked once per subclass) stays linear: 8x
/// the resources costs at most ~10x the work.
#[test]
fn akka_dispatch_is_linear() {
    let measure = |n: usize| {
        let files = akka_dispatch_tree(n);
        let before = portolan_plugin_scala::scala::work();
        let eps = testing::run_files(&akka::Akka, &files);
        (portolan_plugin_scala::scala::work() - before, eps)
    };
    let (small, small_eps) = measure(30);
    let (big, big_eps) = measure(240);
    assert!(
        small_eps
            .iter()
            .any(|e| e.method == "PUT" && e.url == "/api/{ns}/things7/{id}"),
        "{:?}",
        small_eps
            .iter()
            .map(|e| format!("{} {}", e.method, e.url))
            .take(20)
            .collect::<Vec<_>>()
    );
    assert!(small_eps.len() >= 30 * 5, "{} endpoints", small_eps.len());
    assert!(
        big_eps.len() >= 8 * small_eps.len(),
        "{} vs {} endpoints",
        big_eps.len(),
        small_eps.len()
    );
    assert!(
        big <= small * 10,
        "work grew {big} / {small} = {:.1}x for 8x the code",
        big as f64 / small as f64
    );
}

#[test]
fn scala_cli_fixtures() {
    testing::check_fixtures(&[&portolan_plugin_scala::cli::ScalaCli], &fixtures_root());
}

#[test]
fn scala_cli_truncated_sources_do_not_panic() {
    testing::check_truncations(
        &[&portolan_plugin_scala::cli::ScalaCli],
        &fixtures_root(),
        7,
    );
}
