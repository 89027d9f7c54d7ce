using Conduit.Api.Auth;
using Conduit.Api.Endpoints;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddConduitAuth(builder.Configuration);
builder.Services.AddAuthorization();

var app = builder.Build();

app.UseAuthentication();
app.UseAuthorization();

var api = app.MapGroup("/api");
api.MapUserEndpoints();
api.MapProfileEndpoints();
api.MapArticleEndpoints();
api.MapGet("/tags", TagEndpoints.GetTags);

app.Run();
