"""GET by id through the Python client and through raw httpx on the same connection pool, in alternating rounds.

Prints one JSON line: per target and flavour, the requests per second of each round. Run by bench/python.mjs.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import time
from typing import Any, Callable, Dict, List

import httpx

from dataplatform import AsyncDataPlatform, DataPlatform

url, key, doc_id, rounds, seconds, threads, tasks = sys.argv[1:8]
ROUNDS, SECONDS, THREADS, TASKS = int(rounds), float(seconds), int(threads), int(tasks)
PATH = f"{url}/api/v1/data/orders/{doc_id}"
HEADERS = {"x-api-key": key, "accept": "application/json"}
LIMITS = httpx.Limits(max_connections=max(THREADS, TASKS), max_keepalive_connections=max(THREADS, TASKS))


def sync_rate(call: Callable[[], Any]) -> float:
    """Requests per second of THREADS threads calling `call` in a loop for SECONDS."""
    counts = [0] * THREADS
    deadline = time.perf_counter() + SECONDS

    def loop(i: int) -> None:
        while time.perf_counter() < deadline:
            call()
            counts[i] += 1

    workers = [threading.Thread(target=loop, args=(i,)) for i in range(THREADS)]
    start = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return sum(counts) / (time.perf_counter() - start)


async def async_rate(call: Callable[[], Any]) -> float:
    """Requests per second of TASKS tasks awaiting `call` in a loop for SECONDS."""
    count = 0
    deadline = time.perf_counter() + SECONDS

    async def loop() -> None:
        nonlocal count
        while time.perf_counter() < deadline:
            await call()
            count += 1

    start = time.perf_counter()
    await asyncio.gather(*(loop() for _ in range(TASKS)))
    return count / (time.perf_counter() - start)


def raw_get(pool: httpx.Client) -> Any:
    response = pool.get(PATH, headers=HEADERS)
    response.raise_for_status()
    return response.json()


async def raw_aget(pool: httpx.AsyncClient) -> Any:
    response = await pool.get(PATH, headers=HEADERS)
    response.raise_for_status()
    return response.json()


def main() -> None:
    result: Dict[str, Dict[str, List[float]]] = {"sync": {"httpx": [], "client": []}, "async": {"httpx": [], "client": []}}
    with httpx.Client(limits=LIMITS) as pool:
        client = DataPlatform(base_url=url, api_key=key, http_client=pool)
        targets = {"httpx": lambda: raw_get(pool), "client": lambda: client.data.get("orders", doc_id)}
        sync_rate(targets["httpx"])  # warm-up: connections opened, code paths taken
        for r in range(ROUNDS):
            # Alternating which goes first, so a drift of the machine's speed falls on both alike.
            for name in (["httpx", "client"] if r % 2 == 0 else ["client", "httpx"]):
                result["sync"][name].append(sync_rate(targets[name]))

    async def run_async() -> None:
        async with httpx.AsyncClient(limits=LIMITS) as pool:
            client = AsyncDataPlatform(base_url=url, api_key=key, http_client=pool)
            calls = {"httpx": lambda: raw_aget(pool), "client": lambda: client.data.get("orders", doc_id)}
            await async_rate(calls["httpx"])
            for r in range(ROUNDS):
                for name in (["httpx", "client"] if r % 2 == 0 else ["client", "httpx"]):
                    result["async"][name].append(await async_rate(calls[name]))

    asyncio.run(run_async())
    print(json.dumps(result))


main()
