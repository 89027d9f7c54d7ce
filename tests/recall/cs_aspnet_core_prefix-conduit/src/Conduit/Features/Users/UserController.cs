using Conduit.Infrastructure;
using Conduit.Infrastructure.Security;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;

namespace Conduit.Features.Users;

[Authorize(AuthenticationSchemes = JwtSchemes.Token)]
public class UserController : ApiControllerBase
{
    private readonly ICurrentUserAccessor _currentUserAccessor;

    public UserController(ICurrentUserAccessor currentUserAccessor)
    {
        _currentUserAccessor = currentUserAccessor;
    }

    [HttpGet]
    public Task<UserEnvelope> GetCurrent(CancellationToken cancellationToken)
        => Mediator.Send(new Details.Query(_currentUserAccessor.GetCurrentUsername()), cancellationToken);

    [HttpPut]
    public Task<UserEnvelope> UpdateUser([FromBody] Edit.Command command, CancellationToken cancellationToken)
        => Mediator.Send(command, cancellationToken);
}
