//! NestJS (`ts_nestjs` for `.ts`/`.tsx`, `js_nestjs` for `.js`/`.jsx`;
//! one implementation).
//!
//! Routes: methods decorated `@Get/@Post/@Put/@Patch/@Delete/@Options/
//! @Head/@All(path?)` (a string, a constant, concatenation or an array) in
//! classes decorated `@Controller(prefix?)` / `@Controller({ path,
//! version })`. `@All` serves every method; it is reported as GET, POST,
//! PUT, PATCH and DELETE.
//!
//! Prefixes: `app.setGlobalPrefix(p, { exclude })` of the app's bootstrap
//! file (the one whose directory, without `src`, contains the controller;
//! a single bootstrap file governs the whole tree), with excluded paths
//! given as strings or `{ path, method }`. URI versioning
//! (`app.enableVersioning()` / `{ type: VersioningType.URI, prefix,
//! defaultVersion }`) puts `/v<version>` between the global prefix and
//! the controller path, from `@Version` on the method, else the
//! controller's version, else `defaultVersion`; `VERSION_NEUTRAL` adds no
//! segment. Other versioning types leave paths alone. `RouterModule.register([{ path,
//! module, children }])` prefixes the controllers a module lists in
//! `@Module({ controllers })` (after the global prefix and version).
//!
//! Parameters: `@Query('x')`, `@Body('x')` (JSON), `@Param('id')`,
//! `@Headers('x-api-key')`, `@Cookies('c')` (the documented custom
//! decorator); `@Query() q: ListDto`, `@Body() dto: CreateDto`,
//! `@Param() p: Dto` take the fields of the class or interface, possibly
//! in another module, including inherited ones (`extends`,
//! `PartialType`, `PickType`/`OmitType` with literal key lists,
//! `IntersectionType`). `@UploadedFile()`/`@UploadedFiles()` are files
//! named by `FileInterceptor('x')`/`FilesInterceptor`/`FileFieldsInterceptor`
//! (else the parameter name). `@Req() req` reads like Express. In plain
//! JavaScript, `@Bind(Param('id'), Body())` decorates parameters by position.
//!
//! Test files (`*.spec.ts`, `*.e2e-spec.ts`, `test/`) are skipped; classes
//! without `@Controller` are not controllers.

pub mod link;
pub mod scan;

use portolan_plugin_sdk::prelude::*;

use crate::express::is_generated;

pub struct Nest {
    ts: bool,
}

pub const TS: Nest = Nest { ts: true };
pub const JS: Nest = Nest { ts: false };

const DETECT: [&str; 5] = [
    r#"['"]@nestjs/(?:core|common)['"]"#,
    r"@Controller\(",
    r"@Module\(",
    r"NestFactory\.create\(",
    r"@nestjs/",
];

impl Nest {
    fn globs(&self) -> [&'static str; 2] {
        if self.ts {
            ["*.ts", "*.tsx"]
        } else {
            ["*.js", "*.jsx"]
        }
    }
}

/// Test code beyond [`is_test_path`]: `app.e2e-spec.ts`.
fn is_test(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    is_test_path(path) || file.contains("-spec.") || file.contains(".e2e.")
}

impl Analyzer for Nest {
    fn tech(&self) -> Tech {
        let (id, aliases): (&str, &[&str]) = if self.ts {
            (
                "ts_nestjs",
                &["nestjs", "ts-nestjs", "nestjs-ts", "typescript-nestjs"],
            )
        } else {
            (
                "js_nestjs",
                &["js-nestjs", "nestjs-js", "javascript-nestjs"],
            )
        };
        let lang = if self.ts { "TypeScript" } else { "JavaScript" };
        Tech::new(id, lang, "NestJS")
            .aliases(aliases.iter().copied())
            .files(self.globs())
            .detect(Detect::files(self.globs()).regex(DETECT[..4].iter().copied()))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test(&file.path) || is_generated(file) {
            return;
        }
        let module = scan::scan(file);
        if !module.info.is_empty()
            || !module.controllers.is_empty()
            || !module.settings.is_empty()
            || !module.dtos.is_empty()
            || !module.modules.is_empty()
            || !module.router.is_empty()
        {
            out.fact(&module);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<scan::NestModule> = facts.all();
        Ok(link::link(&modules))
    }
}

#[cfg(test)]
mod tests;
