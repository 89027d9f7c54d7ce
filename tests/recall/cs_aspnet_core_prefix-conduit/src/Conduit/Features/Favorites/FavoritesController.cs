using Conduit.Features.Articles;
using Conduit.Infrastructure;
using Conduit.Infrastructure.Security;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;

namespace Conduit.Features.Favorites;

[Route("articles/{slug}/favorite")]
[Authorize(AuthenticationSchemes = JwtSchemes.Token)]
public class FavoritesController : ApiControllerBase
{
    [HttpPost]
    public Task<ArticleEnvelope> FavoriteAdd(string slug, CancellationToken cancellationToken)
        => Mediator.Send(new Add.Command(slug), cancellationToken);

    [HttpDelete]
    public Task<ArticleEnvelope> FavoriteDelete(string slug, CancellationToken cancellationToken)
        => Mediator.Send(new Delete.Command(slug), cancellationToken);
}
