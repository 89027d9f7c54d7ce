"""Drive `portolan mcp` with the official MCP Python SDK (PyPI `mcp`):
initialize -> tools/list -> tools/call, printing one JSON summary line.

usage: client.py PORTOLAN_BIN EXAMPLE_DIR
"""
import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def field(obj, snake, camel):
    """SDK 1.x names fields in camelCase, 2.x in snake_case."""
    return getattr(obj, snake) if hasattr(obj, snake) else getattr(obj, camel)


async def main(binary, example):
    params = StdioServerParameters(command=binary, args=["mcp"])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            tools = await session.list_tools()
            scan = await session.call_tool(
                "scan", {"base_path": example, "format": "json"}
            )
            report = json.loads(scan.content[1].text)
            context = await session.call_tool(
                "endpoint_context",
                {
                    "base_path": example,
                    "method": "DELETE",
                    "url": "/api/v1/cart/items/{item_id}",
                },
            )
            missing = await session.call_tool(
                "endpoint_context",
                {"base_path": example, "method": "GET", "url": "/nowhere"},
            )
            techs = await session.call_tool("list_techs", {})
            diff = await session.call_tool(
                "diff", {"old": example, "new": example, "format": "plain"}
            )
            print(
                json.dumps(
                    {
                        "server": field(init, "server_info", "serverInfo").name,
                        "protocol": field(init, "protocol_version", "protocolVersion"),
                        "instructions": init.instructions,
                        "tools": [t.name for t in tools.tools],
                        "scan_is_error": field(scan, "is_error", "isError"),
                        "scan_note": scan.content[0].text,
                        "urls": [e["url"] for e in report["endpoints"]],
                        "context": json.loads(context.content[1].text),
                        "missing_is_error": field(missing, "is_error", "isError"),
                        "missing": missing.content[0].text,
                        "techs": len(json.loads(techs.content[1].text)["techs"]),
                        "diff": diff.content[1].text,
                    }
                )
            )


asyncio.run(main(sys.argv[1], sys.argv[2]))
