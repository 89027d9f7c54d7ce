use super::*;

fn java(src: &str) -> JFile {
    parse(&SourceFile::new("A.java", src), Lang::Java)
}

fn kotlin(src: &str) -> JFile {
    parse(&SourceFile::new("A.kt", src), Lang::Kotlin)
}

#[test]
fn java_controller_outline() {
    let f = java(
        r#"package com.acme.web;

import com.acme.ApiPaths;
import static com.acme.Consts.*;

/** @RequestMapping("/doc") */
@RestController
@RequestMapping(value = {"/a", ApiPaths.B + "/c"}, method = RequestMethod.GET)
public class UserController extends BaseController<User> implements UsersApi, Other {
    private static final String BASE = "/users";
    private final UserService service;
    int x = 1, y;

    public UserController(UserService service) { this.service = service; }

    @GetMapping(BASE + "/{id}")
    public ResponseEntity<List<User>> get(@PathVariable("id") Long id,
            @RequestParam(value = "q", required = false, defaultValue = "x") String q,
            final @Valid @RequestBody Map<String, List<Integer>> body) {
        Runnable r = () -> { int z = 0; };
        return null;
    }

    @PostMapping
    <T> void generic(T[] items, String... rest) throws IOException {}

    static class Inner { String name; }

    enum Role { ADMIN("a"), USER; Role(String s) {} }

    public record Dto(@JsonProperty("user_name") String name, int age) {}
}
"#,
    );
    assert_eq!(f.package, "com.acme.web");
    assert_eq!(f.imports.len(), 2);
    assert!(f.imports[1].is_static && f.imports[1].wildcard);
    let c = &f.types[0];
    assert_eq!(c.name, "UserController");
    assert_eq!(c.line, 7);
    assert_eq!(c.supers, ["BaseController", "UsersApi", "Other"]);
    let rm = c.annotation("RequestMapping").unwrap();
    assert_eq!(rm.items(&["value", "path"]).len(), 2);
    assert_eq!(
        rm.items(&["method"])[0].as_name(),
        Some("RequestMethod.GET")
    );
    let names: Vec<_> = c.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["BASE", "service", "x", "y"]);
    assert!(c.fields[0].is_static);
    assert_eq!(
        c.fields[0]
            .init
            .as_ref()
            .and_then(|e| e.literal())
            .as_deref(),
        Some("/users")
    );
    let m: Vec<_> = c.methods.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(m, ["get", "generic"]);
    let get = &c.methods[0];
    assert_eq!(get.line, 16);
    assert_eq!(get.ret, "ResponseEntity<List<User>>");
    let p: Vec<_> = get
        .params
        .iter()
        .map(|p| (p.name.as_str(), p.ty.as_str(), p.annotations.len()))
        .collect();
    assert_eq!(
        p,
        [
            ("id", "Long", 1),
            ("q", "String", 1),
            ("body", "Map<String,List<Integer>>", 2)
        ]
    );
    assert_eq!(c.methods[1].params[1].ty, "String...");
    let inner = f.types.iter().find(|t| t.name == "Inner").unwrap();
    assert_eq!(inner.qual, "UserController.Inner");
    let dto = f.types.iter().find(|t| t.name == "Dto").unwrap();
    assert_eq!(dto.kind, TypeKind::Record);
    assert_eq!(dto.fields.len(), 2);
    assert_eq!(dto.fields[0].annotations[0].name, "JsonProperty");
}

#[test]
fn java_interface_annotation_type_and_generated_style() {
    let f = java(
        r#"
@Target(ElementType.TYPE)
@RestController
@RequestMapping("/api")
public @interface ApiController {
    String value() default "";
}

public interface PetApi {
    String PREFIX = "/pets";
    @Operation(summary = "x", responses = { @ApiResponse(responseCode = "200") })
    @RequestMapping(method = RequestMethod.GET, value = "/pet/{petId}", produces = { "application/json" })
    default ResponseEntity<Pet> getPetById(@Parameter(name = "petId", in = ParameterIn.PATH) @PathVariable("petId") Long petId) {
        return new ResponseEntity<>(HttpStatus.NOT_IMPLEMENTED);
    }
    ResponseEntity<Void> deletePet(@RequestHeader(value = "api_key", required = false) String apiKey);
}
"#,
    );
    assert_eq!(f.types[0].kind, TypeKind::Annotation);
    assert_eq!(f.types[0].annotations.len(), 3);
    let api = &f.types[1];
    assert_eq!(api.kind, TypeKind::Interface);
    assert!(api.fields[0].is_static);
    assert_eq!(api.methods.len(), 2);
    assert_eq!(api.methods[0].annotations[1].name, "RequestMapping");
    assert_eq!(api.methods[0].params[0].annotations.len(), 2);
    assert_eq!(api.methods[1].params[0].name, "apiKey");
}

#[test]
fn kotlin_classes_objects_and_functions() {
    let f = kotlin(
        r#"package com.acme

import org.springframework.web.bind.annotation.*
import com.acme.Paths as P

const val BASE = "/api"

object ApiPaths {
    const val USERS = "$BASE/users"
}

@RestController
@RequestMapping(value = ["/a", "/b"])
class UserController(private val service: UserService) : BaseController<User>(), UsersApi {
    companion object {
        const val ITEMS = "/items"
    }

    @GetMapping("/{id}")
    fun get(@PathVariable id: Long, @RequestParam(required = false) q: String?): User =
        service.find(id)
            .orElseThrow()

    @PostMapping(ITEMS)
    suspend fun create(@RequestBody dto: CreateUser): ResponseEntity<User> {
        return ok()
    }
}

data class CreateUser(
    @JsonProperty("user_name") val name: String,
    @field:NotBlank val email: String,
    val tags: List<String> = emptyList(),
    notAProperty: Int,
)

fun Route.userRoutes() {
    get("/x") { }
}
"#,
    );
    assert_eq!(f.package, "com.acme");
    assert_eq!(f.imports[1].alias.as_deref(), Some("P"));
    assert_eq!(f.consts[0].name, "BASE");
    let paths = &f.types[0];
    assert_eq!(paths.kind, TypeKind::Object);
    assert!(paths.fields[0].is_static);
    let c = f.types.iter().find(|t| t.name == "UserController").unwrap();
    assert_eq!(c.supers, ["BaseController", "UsersApi"]);
    assert!(c.fields.iter().any(|f| f.name == "ITEMS" && f.is_static));
    assert!(c.fields.iter().any(|f| f.name == "service"));
    let m: Vec<_> = c.methods.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(m, ["get", "create"]);
    assert_eq!(c.methods[0].params[1].ty, "String?");
    assert_eq!(c.methods[1].line, 24);
    let dto = f.types.iter().find(|t| t.name == "CreateUser").unwrap();
    let fields: Vec<_> = dto.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(fields, ["name", "email", "tags"]);
    assert_eq!(dto.fields[1].annotations[0].name, "NotBlank");
    assert_eq!(f.funs[0].receiver.as_deref(), Some("Route"));
    assert_eq!(f.funs[0].name, "userRoutes");
}

#[test]
fn kotlin_class_without_body_ends_at_line_break() {
    let f = kotlin(
        "data class A(val x: Int)\n@RestController\nclass B {\n  @GetMapping fun g() = 1\n}\n",
    );
    assert_eq!(f.types.len(), 2);
    assert_eq!(f.types[1].annotations[0].name, "RestController");
    assert_eq!(f.types[1].methods[0].annotations[0].name, "GetMapping");
}

#[test]
fn deeply_nested_types_are_bounded() {
    // Fuzz (issue 19, seed 1119 mutant 13651): a repeated `class A {` line
    // recursed once per level and overflowed the stack.
    let src = format!("package a;\n{}", "public class A {\n".repeat(50_000));
    let f = java(&src);
    assert!(f.types.len() <= MAX_NESTED_TYPES + 1, "{}", f.types.len());
    let f = java("class A { static class B { @GetMapping(\"/x\") void x() {} } }");
    assert_eq!(f.types.len(), 2);
}
