using Conduit.Infrastructure.Security;
using MediatR;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;

namespace Conduit.Features.Comments;

[ApiController]
[Route("articles")]
public class CommentsController : ControllerBase
{
    private readonly IMediator _mediator;

    public CommentsController(IMediator mediator) => _mediator = mediator;

    [HttpPost("{slug}/comments")]
    [Authorize(AuthenticationSchemes = JwtSchemes.Token)]
    public Task<CommentEnvelope> Create(string slug, [FromBody] Create.Model model, CancellationToken cancellationToken)
        => _mediator.Send(new Create.Command(model, slug), cancellationToken);

    [HttpGet("{slug}/comments")]
    public Task<CommentsEnvelope> Get(string slug, CancellationToken cancellationToken)
        => _mediator.Send(new List.Query(slug), cancellationToken);

    [HttpDelete("{slug}/comments/{id:int}")]
    [Authorize(AuthenticationSchemes = JwtSchemes.Token)]
    public Task Delete(string slug, int id, CancellationToken cancellationToken)
        => _mediator.Send(new Delete.Command(slug, id), cancellationToken);
}
