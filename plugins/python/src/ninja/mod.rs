//! Django Ninja (`python_django_ninja`).
//!
//! A Ninja API is a FastAPI-like application served by Django: its routes
//! and parameters are analysed with FastAPI's code paths
//! ([`crate::fastapi`], flavour [`NINJA`]) and its URL prefix comes from the
//! Django URLconf tree ([`crate::django::link::served_apps`]):
//!
//! - `api = NinjaAPI()`, `router = Router()`;
//! - `@api.get/post/put/patch/delete(path)`, `@router.api_operation([...], path)`;
//! - `api.add_router('/prefix', router)` (also `router.add_router`, nested,
//!   across files);
//! - `path('api/', api.urls)` anywhere in the `include()` chain from the
//!   root `urls.py`;
//! - parameters from the signature: path names, `Query[Model]` /
//!   `Form[Model]` / `Header` / `Cookie` / `File[UploadedFile]`, `Schema`
//!   bodies (fields as json), scalars as query; the leading `request` is
//!   skipped.
//!
//! Each module yields one fact with both its Django and its Ninja view, in
//! the same order, so module indices agree between the two link steps.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::django::facts::DjangoModule;
use crate::fastapi::facts::FastApiModule;
use crate::fastapi::scan::ApiFlavor;

pub const NINJA: ApiFlavor = ApiFlavor {
    package: "ninja",
    apps: &["NinjaAPI"],
    include: "add_router",
    include_router_position: 1,
    ninja: true,
};

/// One module's Django URLconf data and Ninja routes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NinjaModule {
    pub django: DjangoModule,
    pub api: FastApiModule,
}

pub struct Ninja;

impl Analyzer for Ninja {
    fn tech(&self) -> Tech {
        crate::py::tech::python_tech(
            "python_django_ninja",
            "Django Ninja",
            &["django_ninja", "django-ninja", "ninja"],
            "ninja",
        )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let mut django = crate::django::scan::scan(file);
        // Only the URLconf matters here; views are Django's business.
        django.functions.clear();
        django.classes.clear();
        django.registers.clear();
        let api = crate::fastapi::scan::scan_with(file, &NINJA);
        if !django.is_empty() || !api.is_empty() {
            out.fact(&NinjaModule { django, api });
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<NinjaModule> = facts.all();
        let (django, api): (Vec<DjangoModule>, Vec<FastApiModule>) =
            modules.into_iter().map(|m| (m.django, m.api)).unzip();
        let served = crate::django::link::served_apps(&django);
        Ok(crate::fastapi::link::link_with(&api, &served))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::test_support::runner!(Ninja, crate::test_support::SPACED);

    #[test]
    fn ninja_api_mounted_by_django_urls() {
        let root = "from django.urls import include, path\n\nurlpatterns = [\n    path('', include('shop.urls')),\n]\n";
        let shop_urls = "from django.urls import path\nfrom .api import api\n\nurlpatterns = [\n    path('api/v1/', api.urls),\n]\n";
        let api = "from ninja import NinjaAPI\nfrom events.api import router as events_router\n\napi = NinjaAPI()\napi.add_router('/events/', events_router)\n\n@api.get('/hello')\ndef hello(request, name: str = 'world'):\n    return f'Hello {name}'\n";
        let events = "from typing import List\nfrom ninja import Router, Schema, Query, Form, File, Header\nfrom ninja.files import UploadedFile\n\nrouter = Router()\n\nclass EventIn(Schema):\n    title: str\n    start_date: date\n\nclass Filters(Schema):\n    kind: str = None\n    limit: int = 10\n\n@router.get('/')\ndef list_events(request, filters: Query[Filters]):\n    return []\n\n@router.post('/')\ndef create_event(request, payload: EventIn, x_tenant: str = Header(...)):\n    return {}\n\n@router.api_operation(['PUT', 'PATCH'], '/{event_id}')\ndef update_event(request, event_id: int, payload: Form[EventIn], poster: File[UploadedFile]):\n    return {}\n";
        assert_eq!(
            run(&[
                ("project/urls.py", root),
                ("shop/urls.py", shop_urls),
                ("shop/api.py", api),
                ("events/api.py", events),
            ]),
            vec![
                "GET /api/v1/events// [query:kind, query:limit]",
                "GET /api/v1/hello [query:name]",
                "PATCH /api/v1/events//{event_id} [form:title, form:start_date, file:poster]",
                "POST /api/v1/events// [json:title, json:start_date, header:x-tenant]",
                "PUT /api/v1/events//{event_id} [form:title, form:start_date, file:poster]",
            ]
        );
    }
}
