"""Walk a collection's pages with the async client."""

from __future__ import annotations

import asyncio

from dataplatform import AsyncDataPlatform


async def main() -> None:
    async with AsyncDataPlatform() as client:
        await client.data.batch(
            {"operations": [{"op": "insert", "collection": "notes", "data": {"n": n}} for n in range(5)]}
        )
        total = 0
        async for note in client.data.list("notes", limit=2):
            total += 1
            print(note["_id"], note.get("n"))
        first = await client.data.list("notes", limit=2)
        print("pages of 2:", first.total, "notes;", total, "walked")


if __name__ == "__main__":
    asyncio.run(main())
