using System.Net;
using System.Text.Json;

namespace Conduit.Infrastructure.Errors;

public class ErrorHandlingMiddleware
{
    private readonly RequestDelegate _next;

    public ErrorHandlingMiddleware(RequestDelegate next) => _next = next;

    public async Task Invoke(HttpContext context)
    {
        try
        {
            await _next(context);
        }
        catch (RestException ex)
        {
            context.Response.ContentType = "application/json";
            context.Response.StatusCode = (int)ex.Code;
            await context.Response.WriteAsync(JsonSerializer.Serialize(new { errors = ex.Errors }));
        }
    }
}

public class RestException : Exception
{
    public RestException(HttpStatusCode code, object? errors = null)
    {
        Code = code;
        Errors = errors;
    }

    public HttpStatusCode Code { get; }
    public object? Errors { get; }
}
