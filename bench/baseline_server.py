"""The service benchmark's baseline: an empty gRPC unary call plus one Redis
EVALSHA that writes a value of a given size (what an Apply cannot avoid).

    python -m bench.baseline_server PORT REDIS_URL STATE_BYTES
"""

from __future__ import annotations

import asyncio
import sys

import grpc
import redis.asyncio as aioredis

SCRIPT = """
redis.call('SET', KEYS[1], ARGV[1])
return 1
"""
METHOD = "/roost.bench.v1.Baseline/Call"


async def serve(port: int, url: str, size: int) -> None:
    """Serve the baseline call until killed."""
    client = aioredis.Redis.from_url(url, protocol=2)
    script = client.register_script(SCRIPT)
    payload = b"x" * size
    counter = 0

    async def call(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
        nonlocal counter
        counter += 1
        await script(keys=[f"roost:{{bench{counter % 64}}}:state"], args=[payload])
        return b""

    handler = grpc.method_handlers_generic_handler(
        "roost.bench.v1.Baseline",
        {"Call": grpc.unary_unary_rpc_method_handler(call)},
    )
    server = grpc.aio.server()
    server.add_generic_rpc_handlers((handler,))
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    await server.wait_for_termination()


if __name__ == "__main__":
    asyncio.run(serve(int(sys.argv[1]), sys.argv[2], int(sys.argv[3])))
