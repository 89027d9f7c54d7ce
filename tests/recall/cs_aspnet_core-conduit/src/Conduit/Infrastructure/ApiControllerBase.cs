using MediatR;
using Microsoft.AspNetCore.Mvc;

namespace Conduit.Infrastructure;

/// <summary>Every API controller lives below /api/{controller-name}.</summary>
[ApiController]
[Route("api/[controller]")]
[Produces("application/json")]
public abstract class ApiControllerBase : ControllerBase
{
    private ISender? _mediator;

    protected ISender Mediator => _mediator ??= HttpContext.RequestServices.GetRequiredService<ISender>();
}
