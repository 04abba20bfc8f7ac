"""``client.auth``: the generated account methods; signing in can also make the client send the new session's token."""

from __future__ import annotations

from typing import Optional

from .._generated import models as _m
from .._generated.resources import AsyncAuthResource, AuthResource
from .._options import RequestOptions


class Auth(AuthResource):
    """Accounts and sessions, under ``/api/auth``."""

    def signin(
        self, body: _m.SignInRequest, *, options: Optional[RequestOptions] = None, store_token: bool = False
    ) -> _m.AuthSession:
        """Signs in with e-mail and password; ``store_token=True`` sends the session's token on later calls."""
        session = super().signin(body, options=options)
        if store_token:
            self._client.set_token(session["token"])
        return session


class AsyncAuth(AsyncAuthResource):
    """Accounts and sessions, under ``/api/auth``, for the async client."""

    async def signin(
        self, body: _m.SignInRequest, *, options: Optional[RequestOptions] = None, store_token: bool = False
    ) -> _m.AuthSession:
        """Signs in with e-mail and password; ``store_token=True`` sends the session's token on later calls."""
        session = await super().signin(body, options=options)
        if store_token:
            self._client.set_token(session["token"])
        return session
