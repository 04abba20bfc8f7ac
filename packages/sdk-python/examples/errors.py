"""Errors are classes by status family, each with the API's code and the request's id."""

from __future__ import annotations

from dataplatform import APIConnectionError, BadRequestError, ConflictError, DataPlatform


def main() -> None:
    with DataPlatform(max_retries=1) as client:
        try:
            client.data.create("orders", {"_id": "dup", "total": 1})
            client.data.create("orders", {"_id": "dup", "total": 2})
        except ConflictError as error:
            print("conflict:", error.code, error.request_id)
        try:
            client.data.list("orders", limit=5000)
        except BadRequestError as error:
            print("bad request:", error.code, error.details)
        except APIConnectionError as error:
            print("no server:", error)


if __name__ == "__main__":
    main()
