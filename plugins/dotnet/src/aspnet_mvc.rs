//! Classic ASP.NET MVC 5 and Web API 2 on .NET Framework
//! (`cs_aspnet_mvc`), linked by [`crate::mvc`] with [`Flavor::Classic`].
//!
//! - Controllers: classes named `…Controller` deriving from `Controller`,
//!   `AsyncController` or `ApiController` (also through base classes in
//!   other files); actions are their public instance methods
//!   (`[NonAction]` excluded), named by `[ActionName("x")]` when present.
//! - Conventional routes: `routes.MapRoute("Default",
//!   "{controller}/{action}/{id}", new { controller = "Home", action =
//!   "Index", id = UrlParameter.Optional })` in `RouteConfig` serves the MVC
//!   controllers; `config.Routes.MapHttpRoute("DefaultApi",
//!   "api/{controller}/{id}", …)` serves the Web API controllers, which it
//!   selects by verb (no `{action}` needed). Each action is reported at
//!   the full URL (`/Products/Details/{id}`); segments with a default or
//!   `UrlParameter.Optional` are kept only when the action has a parameter
//!   of that name. The default controller's default action is also
//!   reported at the short URL the defaults allow (`/` for `Home/Index`);
//!   other shortenings (`/Products` for `Products/Index`) are not listed.
//! - Attribute routes (`MapMvcAttributeRoutes` / `MapHttpAttributeRoutes`):
//!   `[RoutePrefix("api/books")]` on the controller (or a base class)
//!   prefixes the actions' `[Route("{id:int}")]`; `~/` templates ignore
//!   it; a class-level `[Route("{action=Index}")]` is the route of actions
//!   without their own; `{controller}` / `{action}` in templates are
//!   replaced by the names.
//! - Methods: `[HttpGet]`, `[HttpPost]`, …, `[AcceptVerbs("GET", "POST")]`,
//!   `[AcceptVerbs(HttpVerbs.Get | HttpVerbs.Head)]`.
//!   MVC actions without one accept any method and are reported as GET,
//!   POST, PUT, PATCH and DELETE; Web API actions without one use their
//!   name's prefix (`GetProduct` → GET, `DeleteProduct` → DELETE), else
//!   POST, as Web API does.
//! - Parameters: route placeholders → path; `[FromBody]`, `[FromUri]`
//!   (query); simple types → query (form for MVC actions on POST, PUT and
//!   PATCH: model binding reads the posted form first); complex types
//!   declared in the tree → their properties as JSON for Web API
//!   controllers, as query (GET, HEAD, DELETE) or form fields for MVC
//!   controllers; `HttpPostedFileBase` → file. Reads in the body: `Request.QueryString["q"]`,
//!   `Request.Form["f"]`, `Request.Headers["X"]`, `Request.Cookies["c"]`.
//!
//! - Areas: routes mapped in an `AreaRegistration` subclass serve only the
//!   controllers of that area (the `Areas.<Name>` segment of their
//!   namespace, or `[RouteArea("Name")]`), and area controllers are not
//!   reached through the application's routes; `[RouteArea]` also prefixes
//!   attribute routes.
//!
//! Not handled: route constraints objects, `namespaces:` restrictions on
//! non-area routes, and `[ChildActionOnly]` (reported like other actions).

use portolan_plugin_sdk::prelude::*;

use crate::mvc::{link, Flavor};
use crate::scan;

pub struct AspNetMvc;

impl Analyzer for AspNetMvc {
    fn tech(&self) -> Tech {
        Tech::new("cs_aspnet_mvc", "C#", "ASP.NET MVC")
            .aliases(["aspnet-mvc", "asp.net-mvc", "aspnet-webapi", "webapi2"])
            .files(["*.cs"])
            .detect(Detect::files(["*.cs"]).contains(["System.Web.Mvc", "System.Web.Http"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        scan::analyze(file, out);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link(facts, Flavor::Classic))
    }
}
