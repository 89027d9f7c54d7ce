using Microsoft.AspNetCore.Mvc;

namespace Conduit.IntegrationTests;

[ApiController]
[Route("api/test-only")]
public class FakeController : ControllerBase
{
    [HttpGet]
    public IActionResult Get() => Ok();
}
