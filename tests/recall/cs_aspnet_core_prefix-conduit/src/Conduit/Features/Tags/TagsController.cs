using Conduit.Infrastructure;
using Microsoft.AspNetCore.Mvc;

namespace Conduit.Features.Tags;

public class TagsController : ApiControllerBase
{
    [HttpGet]
    public Task<TagsEnvelope> Get(CancellationToken cancellationToken)
        => Mediator.Send(new List.Query(), cancellationToken);
}
