namespace Conduit.Features.Users;

public record UserData(string Username, string Email, string? Password, string? Bio, string? Image);

public record UserEnvelope(User User);

public class Create
{
    public record Command(UserData User) : MediatR.IRequest<UserEnvelope>;
}

public class Login
{
    public record Command(UserData User) : MediatR.IRequest<UserEnvelope>;
}

public class Edit
{
    public record Command(UserData User) : MediatR.IRequest<UserEnvelope>;
}
