using Conduit.Infrastructure;
using Conduit.Infrastructure.Security;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;

namespace Conduit.Features.Articles;

public class ArticlesController : ApiControllerBase
{
    [HttpGet]
    public Task<ArticlesEnvelope> Get(
        [FromQuery] string? tag,
        [FromQuery] string? author,
        [FromQuery] string? favorited,
        [FromQuery] int? limit,
        [FromQuery] int? offset,
        CancellationToken cancellationToken)
        => Mediator.Send(new List.Query(tag, author, favorited, limit, offset), cancellationToken);

    [HttpGet("feed")]
    [Authorize(AuthenticationSchemes = JwtSchemes.Token)]
    public Task<ArticlesEnvelope> GetFeed([FromQuery] int? limit, [FromQuery] int? offset, CancellationToken cancellationToken)
        => Mediator.Send(new List.Query(null, null, null, limit, offset) { IsFeed = true }, cancellationToken);

    [HttpGet("{slug}")]
    public Task<ArticleEnvelope> Get(string slug, CancellationToken cancellationToken)
        => Mediator.Send(new Details.Query(slug), cancellationToken);

    [HttpPost]
    [Authorize(AuthenticationSchemes = JwtSchemes.Token)]
    public Task<ArticleEnvelope> Create([FromBody] Create.Command command, CancellationToken cancellationToken)
        => Mediator.Send(command, cancellationToken);

    [HttpPut("{slug}")]
    [Authorize(AuthenticationSchemes = JwtSchemes.Token)]
    public Task<ArticleEnvelope> Edit(string slug, [FromBody] Edit.Model model, CancellationToken cancellationToken)
        => Mediator.Send(new Edit.Command(model, slug), cancellationToken);

    [HttpDelete("{slug}")]
    [Authorize(AuthenticationSchemes = JwtSchemes.Token)]
    public Task Delete(string slug, CancellationToken cancellationToken)
        => Mediator.Send(new Delete.Command(slug), cancellationToken);
}
