namespace Conduit.Api.Endpoints;

public record LoginUser(string Email, string Password);
public record NewUser(string Username, string Email, string Password);
public record UpdateUser(string? Email, string? Username, string? Password, string? Bio, string? Image);
public record Envelope<T>(T User);

public static class UserEndpoints
{
    public static IEndpointRouteBuilder MapUserEndpoints(this IEndpointRouteBuilder routes)
    {
        var users = routes.MapGroup("/users").WithTags("User and Authentication");
        users.MapPost("/login", Login);
        users.MapPost("/", Register);

        var user = routes.MapGroup("/user").RequireAuthorization();
        user.MapGet("/", Current);
        user.MapPut("/", Update);
        return routes;
    }

    static IResult Login(Envelope<LoginUser> body) => Results.Ok();
    static IResult Register(Envelope<NewUser> body) => Results.Created("/api/user", null);
    static IResult Current() => Results.Ok();
    static IResult Update(Envelope<UpdateUser> body) => Results.Ok();
}
