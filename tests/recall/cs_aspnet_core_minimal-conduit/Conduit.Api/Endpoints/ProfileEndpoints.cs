namespace Conduit.Api.Endpoints;

public static class ProfileEndpoints
{
    public static RouteGroupBuilder MapProfileEndpoints(this RouteGroupBuilder api)
    {
        var profiles = api.MapGroup("/profiles/{username}").WithTags("Profile");
        profiles.MapGet("", (string username) => Results.Ok(username));
        profiles.MapPost("/follow", (string username) => Results.Ok(username)).RequireAuthorization();
        profiles.MapDelete("/follow", (string username) => Results.Ok(username)).RequireAuthorization();
        return api;
    }
}
