using Microsoft.AspNetCore.Authentication.JwtBearer;

namespace Conduit.Infrastructure.Security;

public static class JwtSchemes
{
    public const string Token = JwtBearerDefaults.AuthenticationScheme;
}
