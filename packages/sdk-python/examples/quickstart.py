"""Store, read, list and query documents. Run with DATAPLATFORM_API_KEY (and DATAPLATFORM_BASE_URL) set."""

from __future__ import annotations

from dataplatform import DataPlatform, NotFoundError


def main() -> None:
    with DataPlatform() as client:
        order = client.data.create("orders", {"customer": "ada", "total": 42})
        print("created", order["_id"])
        print("read back", client.data.get("orders", order["_id"])["total"])

        # Iterating a list walks every page; `limit` is the page size.
        for doc in client.data.list("orders", limit=100, sort="-_createdAt"):
            print("listed", doc["_id"])

        big = client.data.query("orders").where("total", ">", 10).order_by("-total").limit(5)
        print("query", big.to_sql(), "rows", len(big.execute()["data"]), "count", big.count())

        client.data.delete("orders", order["_id"])
        try:
            client.data.get("orders", order["_id"])
        except NotFoundError as error:
            print("gone:", error.code, error.request_id)


if __name__ == "__main__":
    main()
