using Microsoft.AspNetCore.Authentication.JwtBearer;

namespace Conduit.Api.Auth;

public static class AuthSetup
{
    public static IServiceCollection AddConduitAuth(this IServiceCollection services, IConfiguration config)
    {
        services.AddAuthentication(JwtBearerDefaults.AuthenticationScheme).AddJwtBearer(o =>
        {
            o.Events = new JwtBearerEvents
            {
                OnMessageReceived = ctx =>
                {
                    var header = ctx.Request.Headers.Authorization.ToString();
                    if (header.StartsWith("Token ")) ctx.Token = header["Token ".Length..];
                    return Task.CompletedTask;
                },
            };
        });
        return services;
    }
}
