using MediatR;
using Microsoft.AspNetCore.Mvc;

namespace Conduit.Infrastructure;

/// <summary>Every API controller lives below /api (see MvcOptionsExtensions)/{controller-name}.</summary>
[ApiController]
[Route("[controller]")]
[Produces("application/json")]
public abstract class ApiControllerBase : ControllerBase
{
    private ISender? _mediator;

    protected ISender Mediator => _mediator ??= HttpContext.RequestServices.GetRequiredService<ISender>();
}
