namespace Conduit.Api.Endpoints;

public static class TagEndpoints
{
    public static IResult GetTags() => Results.Ok(new { tags = Array.Empty<string>() });
}
