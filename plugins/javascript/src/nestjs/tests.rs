use super::*;

use crate::js::test_support::{ps, rows, Row};

fn run_with(an: &Nest, files: &[(&str, &str)]) -> Vec<Row> {
    rows(an, files)
}

fn run(files: &[(&str, &str)]) -> Vec<Row> {
    run_with(&TS, files)
}

fn urls(rows: &[Row]) -> Vec<String> {
    rows.iter().map(|(m, u, _, _)| format!("{m} {u}")).collect()
}

#[test]
fn controllers_prefixes_and_versions() {
    let rows = run(&[
        (
            "app/src/main.ts",
            "import { NestFactory } from '@nestjs/core';\nimport { VersioningType, RequestMethod } from '@nestjs/common';\nimport { API_PREFIX } from './config';\nasync function bootstrap() {\n  const app = await NestFactory.create(AppModule);\n  app.setGlobalPrefix(API_PREFIX, { exclude: ['health', { path: 'status', method: RequestMethod.GET }] });\n  app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });\n  await app.listen(3000);\n}\nbootstrap();\n",
        ),
        ("app/src/config.ts", "export const API_PREFIX = 'api';\nexport const USERS = 'users';\n"),
        (
            "app/src/users/users.controller.ts",
            "import { Controller, Get, Post, Version, VERSION_NEUTRAL } from '@nestjs/common';\nimport { USERS } from '../config';\n\n@Controller(USERS)\nexport class UsersController {\n  @Get()\n  findAll() {}\n\n  @Version('2')\n  @Get(':id')\n  findOne() {}\n\n  // @Delete(':id')\n  // remove() {}\n\n  @Post(['bulk', 'import'])\n  @Version(VERSION_NEUTRAL)\n  bulk() {}\n}\n",
        ),
        (
            "app/src/health.controller.ts",
            "@Controller()\nexport class HealthController {\n  @Get('health') check() {}\n  @Get('status') status() {}\n  @Post('status') touch() {}\n  @All('any') any() {}\n}\n",
        ),
        (
            "app/src/users/users.controller.spec.ts",
            "@Controller('spec')\nclass Fake { @Get('x') x() {} }\n",
        ),
        ("app/test/app.e2e-spec.ts", "request(app.getHttpServer()).get('/users').expect(200);\n"),
        ("app/src/plain.ts", "export class NotAController {\n  @Get('nope') nope() {}\n}\n"),
    ]);
    assert_eq!(
        urls(&rows),
        vec![
            "DELETE /api/v1/any",
            "GET /api/v1/any",
            "GET /api/v1/users",
            "GET /api/v2/users/:id",
            "GET /v1/health",
            "GET /v1/status",
            "PATCH /api/v1/any",
            "POST /api/users/bulk",
            "POST /api/users/import",
            "POST /api/v1/any",
            "POST /api/v1/status",
            "PUT /api/v1/any",
        ]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>()
    );
    let bulk = rows.iter().find(|r| r.1 == "/api/users/bulk").map(|r| r.2);
    assert_eq!(bulk, Some(16));
}

#[test]
fn params_and_dtos_across_files() {
    let rows = run(&[
        (
            "app/src/items/dto/create-item.dto.ts",
            "import { IsString, IsOptional, ValidateNested } from 'class-validator';\nimport { Type } from 'class-transformer';\n\nexport class CreateItemDto {\n  @IsString()\n  readonly name: string;\n\n  @IsOptional() @Type(() => Number) price?: number;\n\n  @ValidateNested({ each: true })\n  tags!: TagDto[];\n  secret: string = 'x';\n  static VERSION = 1;\n  constructor(private readonly other: string) {}\n  helper(): string { return this.name; }\n}\n\nexport class UpdateItemDto extends PartialType(OmitType(CreateItemDto, ['secret'] as const)) {}\n",
        ),
        (
            "app/src/items/dto/list.ts",
            "import { PaginationDto } from '../../common/pagination';\nexport interface Filter { q?: string; sort: 'asc' | 'desc' }\nexport class ListDto extends PaginationDto {\n  category?: string;\n}\n",
        ),
        (
            "app/src/common/pagination.ts",
            "export class PaginationDto {\n  page?: number = 1;\n  limit?: number;\n}\n",
        ),
        (
            "app/src/items/items.controller.ts",
            "import { CreateItemDto, UpdateItemDto } from './dto/create-item.dto';\nimport { ListDto, Filter } from './dto/list';\n\n@ApiTags('items')\n@Controller({ path: 'items', version: ['1', '2'] })\n@UseGuards(AuthGuard('jwt'))\nexport class ItemsController {\n  constructor(private readonly items: ItemsService) {}\n\n  @Get()\n  list(@Query() q: ListDto, @Headers('x-api-key') key: string, @Cookies('session') s: string) {}\n\n  @Get('search')\n  search(@Query() f: Filter, @Query('limit', ParseIntPipe) limit: number) {}\n\n  @Post()\n  @UseInterceptors(FileInterceptor('image'))\n  create(@Body() dto: CreateItemDto, @UploadedFile() file: Express.Multer.File) {}\n\n  @Patch(':id')\n  update(@Param('id') id: string, @Body() dto: UpdateItemDto, @Body('note') note: string) {}\n\n  @Delete(':id')\n  async remove(@Req() req: Request): Promise<void> {\n    const force = req.query.force;\n    const token = req.headers['x-token'];\n  }\n}\n",
        ),
    ]);
    let find = |m: &str, u: &str| {
        rows.iter()
            .find(|r| r.0 == m && r.1 == u)
            .map(|r| r.3.clone())
            .unwrap_or_default()
    };
    assert_eq!(rows.len(), 5, "{rows:?}");
    assert_eq!(
        find("GET", "/items"),
        ps(&[
            ("page", "query"),
            ("limit", "query"),
            ("category", "query"),
            ("x-api-key", "header"),
            ("session", "cookie")
        ])
    );
    assert_eq!(
        find("GET", "/items/search"),
        ps(&[("q", "query"), ("sort", "query"), ("limit", "query")])
    );
    assert_eq!(
        find("POST", "/items"),
        ps(&[
            ("name", "json"),
            ("price", "json"),
            ("tags", "json"),
            ("secret", "json"),
            ("image", "file")
        ])
    );
    assert_eq!(
        find("PATCH", "/items/:id"),
        ps(&[
            ("id", "path"),
            ("name", "json"),
            ("price", "json"),
            ("tags", "json"),
            ("note", "json")
        ])
    );
    assert_eq!(
        find("DELETE", "/items/:id"),
        ps(&[("force", "query"), ("x-token", "header")])
    );
}

#[test]
fn javascript_bind_and_apps() {
    let rows = run_with(
        &JS,
        &[
            (
                "apps/admin/src/main.js",
                "const app = await NestFactory.create(AdminModule);\napp.setGlobalPrefix('admin');\n",
            ),
            (
                "apps/shop/src/main.js",
                "const app = await NestFactory.create(ShopModule);\napp.setGlobalPrefix('shop/' + 'api');\n",
            ),
            (
                "apps/admin/src/cats.controller.js",
                "import { Controller, Get, Bind, Param, Req } from '@nestjs/common';\n@Controller('cats')\nexport class CatsController {\n  @Get(':id')\n  @Bind(Param('id'), Req())\n  findOne(id, req) { return req.query.full; }\n}\n",
            ),
            (
                "apps/shop/src/orders.controller.js",
                "@Controller('orders')\nexport class OrdersController {\n  @Post()\n  @Bind(Body('sku'))\n  create(sku) {}\n}\n",
            ),
        ],
    );
    assert_eq!(
        rows,
        vec![
            (
                "GET".to_string(),
                "/admin/cats/:id".to_string(),
                4,
                ps(&[("id", "path"), ("full", "query")])
            ),
            (
                "POST".into(),
                "/shop/api/orders".into(),
                3,
                ps(&[("sku", "json")])
            ),
        ]
    );
}

#[test]
fn detection_globs() {
    assert_eq!(TS.tech().id, "ts_nestjs");
    assert_eq!(JS.tech().id, "js_nestjs");
}

#[test]
fn router_module_paths() {
    let rows = run(&[
        (
            "app/src/app.module.ts",
            "import { Module } from '@nestjs/common';\nimport { RouterModule } from '@nestjs/core';\nimport { AdminModule } from './admin/admin.module';\nimport { ReportsModule } from './admin/reports.module';\n@Module({\n  imports: [\n    AdminModule,\n    RouterModule.register([\n      { path: 'admin', module: AdminModule, children: [{ path: 'reports', module: ReportsModule }] },\n    ]),\n  ],\n})\nexport class AppModule {}\n",
        ),
        (
            "app/src/admin/admin.module.ts",
            "import { UsersController } from './users.controller';\n@Module({ controllers: [UsersController] })\nexport class AdminModule {}\n",
        ),
        (
            "app/src/admin/reports.module.ts",
            "import { DailyController } from './daily.controller';\n@Module({ controllers: [DailyController] })\nexport class ReportsModule {}\n",
        ),
        (
            "app/src/admin/users.controller.ts",
            "@Controller('users')\nexport class UsersController {\n  @Get() list() {}\n}\n",
        ),
        (
            "app/src/admin/daily.controller.ts",
            "@Controller()\nexport class DailyController {\n  @Get('daily') daily() {}\n}\n",
        ),
        (
            "app/src/public.controller.ts",
            "@Controller('public')\nexport class PublicController {\n  @Get() home() {}\n}\n",
        ),
    ]);
    assert_eq!(
        urls(&rows),
        vec![
            "GET /admin/reports/daily",
            "GET /admin/users",
            "GET /public"
        ]
    );
}

#[test]
fn guards_become_ai_context() {
    let src = "import { Controller, Get, Delete, UseGuards } from '@nestjs/common';\nimport { AuthGuard } from '@nestjs/passport';\n\n@Controller('cats')\n@UseGuards(AuthGuard('jwt'))\nexport class CatsController {\n  @Get()\n  list() { return []; }\n\n  @Delete(':id')\n  @UseGuards(RolesGuard, ThrottlerGuard, LoggingGuard)\n  remove() {}\n}\n\n@Controller('health')\nexport class HealthController {\n  @Get()\n  ok() {}\n}\n";
    let mut facts = Facts::new(Vec::new());
    let mut out = Output::new();
    TS.analyze(&SourceFile::new("src/cats.controller.ts", src), &mut out);
    facts.extend(out.into_parts().1);
    let mut got: Vec<(String, String, Vec<(String, String, u32)>)> = TS
        .link(&facts)
        .unwrap_or_default()
        .into_iter()
        .map(|e| {
            let gs = e
                .ai_context
                .map(|c| {
                    c.guards
                        .into_iter()
                        .map(|g| (g.kind, g.name, g.line.unwrap_or(0)))
                        .collect()
                })
                .unwrap_or_default();
            (e.method, e.url, gs)
        })
        .collect();
    got.sort();
    let g = |k: &str, n: &str, l: u32| (k.to_string(), n.to_string(), l);
    assert_eq!(
        got,
        vec![
            (
                "DELETE".into(),
                "/cats/:id".into(),
                vec![
                    g("auth_guard", "AuthGuard('jwt')", 5),
                    g("authz_guard", "RolesGuard", 11),
                    g("rate_limit_guard", "ThrottlerGuard", 11)
                ]
            ),
            (
                "GET".into(),
                "/cats".into(),
                vec![g("auth_guard", "AuthGuard('jwt')", 5)]
            ),
            ("GET".into(), "/health".into(), vec![]),
        ]
    );
}
