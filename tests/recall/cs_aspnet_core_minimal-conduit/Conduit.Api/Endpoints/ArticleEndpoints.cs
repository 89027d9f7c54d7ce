using Microsoft.AspNetCore.Mvc;

namespace Conduit.Api.Endpoints;

public record NewArticle(string Title, string Description, string Body, string[]? TagList);
public record NewComment(string Body);

public static class ArticleEndpoints
{
    public static RouteGroupBuilder MapArticleEndpoints(this RouteGroupBuilder api)
    {
        var articles = api.MapGroup("/articles").WithTags("Articles");

        articles.MapGet("/", ListArticles);
        articles.MapGet("/feed", Feed).RequireAuthorization();
        articles.MapPost("/", CreateArticle).RequireAuthorization();
        articles.MapGet("/{slug}", (string slug) => Results.Ok(slug));
        articles.MapPut("/{slug}", (string slug, NewArticle article) => Results.Ok(slug)).RequireAuthorization();
        articles.MapDelete("/{slug}", (string slug) => Results.NoContent()).RequireAuthorization();

        MapComments(articles.MapGroup("/{slug}/comments"));

        var favorite = articles.MapGroup("/{slug}/favorite").RequireAuthorization();
        favorite.MapPost("", (string slug) => Results.Ok(slug));
        favorite.MapDelete("", (string slug) => Results.Ok(slug));

        return api;
    }

    private static void MapComments(RouteGroupBuilder comments)
    {
        comments.MapGet("", (string slug) => Results.Ok(slug));
        comments.MapPost("", (string slug, NewComment comment) => Results.Ok(slug)).RequireAuthorization();
        comments.MapDelete("/{id:int}", (string slug, int id) => Results.NoContent()).RequireAuthorization();
    }

    static IResult ListArticles(
        [FromQuery] string? tag,
        [FromQuery] string? author,
        [FromQuery] string? favorited,
        [FromQuery] int limit = 20,
        [FromQuery] int offset = 0) => Results.Ok();

    static IResult Feed([FromQuery] int limit = 20, [FromQuery] int offset = 0) => Results.Ok();

    static IResult CreateArticle(NewArticle article) => Results.Created("/api/articles", null);
}
