using Conduit.Infrastructure;
using Conduit.Infrastructure.Security;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;

namespace Conduit.Features.Profiles;

public class ProfilesController : ApiControllerBase
{
    [HttpGet("{username}")]
    public Task<ProfileEnvelope> Get(string username, CancellationToken cancellationToken)
        => Mediator.Send(new Details.Query(username), cancellationToken);

    [HttpPost("{username}/follow")]
    [Authorize(AuthenticationSchemes = JwtSchemes.Token)]
    public Task<ProfileEnvelope> Follow(string username, CancellationToken cancellationToken)
        => Mediator.Send(new Follow.Command(username), cancellationToken);

    [HttpDelete("{username}/follow")]
    [Authorize(AuthenticationSchemes = JwtSchemes.Token)]
    public Task<ProfileEnvelope> Unfollow(string username, CancellationToken cancellationToken)
        => Mediator.Send(new Unfollow.Command(username), cancellationToken);
}
