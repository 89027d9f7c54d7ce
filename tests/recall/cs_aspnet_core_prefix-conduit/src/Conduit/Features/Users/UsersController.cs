using Conduit.Infrastructure;
using Microsoft.AspNetCore.Mvc;

namespace Conduit.Features.Users;

public class UsersController : ApiControllerBase
{
    [HttpPost]
    public Task<UserEnvelope> Create([FromBody] Create.Command command, CancellationToken cancellationToken)
        => Mediator.Send(command, cancellationToken);

    [HttpPost("login")]
    public Task<UserEnvelope> Login([FromBody] Login.Command command, CancellationToken cancellationToken)
        => Mediator.Send(command, cancellationToken);
}
