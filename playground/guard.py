"""Who may talk to the playground, and how much: a guard around the whole
application (plain ASGI, before any route runs).

- **The address.** The server listens on 127.0.0.1; a request whose Host
  is not this address (a web page that renamed itself to it, DNS
  rebinding) is refused.
- **The token.** A random token is in the address the command prints, as
  Jupyter does. Opening that address once sets a cookie (HttpOnly,
  SameSite=Strict) and takes the token out of the address bar; every other
  request needs the cookie.
- **No request from another site.** The API answers only requests that
  carry the header `X-Rulelang`, which a page of another origin cannot
  send without the permission (CORS) this server never gives; and it
  takes only JSON.
- **Bounded requests.** A body larger than `MOST_BODY` is refused, whatever
  its Content-Length says.
- **What a page may do.** Every answer carries a content policy: the
  playground's own scripts and styles only, nothing inline, no frames but
  its own documents; no caching.
"""
from __future__ import annotations

import hmac
from urllib.parse import parse_qs

MOST_BODY = 2_000_000  # a ruleset of the largest size the front end reads, escaped as JSON, and some
COOKIE = "rulelang_token"
PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
               "connect-src 'self'; frame-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'")


class Guard:
    def __init__(self, app, token: str, hosts: set[str]):
        self.app, self.token, self.hosts = app, token, hosts

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            return await self.app(scope, receive, send)
        if scope["type"] != "http":
            return await _plain(send, 404, "not here")
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        if headers.get("host", "") not in self.hosts:
            return await _plain(send, 421, "this server answers on its own address only (127.0.0.1)")
        path = scope["path"]
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if path == "/" and "token" in query:
            if not hmac.compare_digest(query["token"][0], self.token):
                return await _plain(send, 403, "this is not the token of this playground: "
                                               "open the address `rulelang serve` printed")
            return await _redirect(send, self.token)
        if not hmac.compare_digest(_cookie(headers.get("cookie", "")), self.token):
            return await _plain(send, 403, "open the address `rulelang serve` printed: it holds the token "
                                           "that lets you in")
        if path.startswith("/api/"):
            if headers.get("x-rulelang") != "1" or scope["method"] != "POST" \
                    or not headers.get("content-type", "").startswith("application/json"):
                return await _plain(send, 403, "the playground's API answers its own page only")
            length = headers.get("content-length")
            if length is not None and (not length.isdigit() or int(length) > MOST_BODY):
                return await _plain(send, 413, f"a request of more than {MOST_BODY:,} bytes")
            receive = _bounded(receive)
        elif scope["method"] not in ("GET", "HEAD"):
            return await _plain(send, 405, "not allowed")

        async def with_headers(message):
            if message["type"] == "http.response.start":
                extra = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                         (b"cache-control", b"no-store"), (b"cross-origin-opener-policy", b"same-origin"),
                         (b"cross-origin-resource-policy", b"same-origin")]
                names = {k.lower() for k, _ in message.get("headers", [])}
                if b"content-security-policy" not in names:
                    extra.append((b"content-security-policy", PAGE_POLICY.encode()))
                if b"x-frame-options" not in names:
                    extra.append((b"x-frame-options", b"DENY"))
                message = dict(message, headers=list(message.get("headers", [])) + extra)
            await send(message)
        return await self.app(scope, receive, with_headers)


class TooLarge(Exception):
    pass


def _bounded(receive):
    seen = [0]

    async def bounded():
        message = await receive()
        if message["type"] == "http.request":
            seen[0] += len(message.get("body", b""))
            if seen[0] > MOST_BODY:
                raise TooLarge(f"a request of more than {MOST_BODY:,} bytes")
        return message
    return bounded


def _cookie(header: str) -> str:
    for part in header.split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE:
            return value
    return ""


async def _plain(send, status: int, text: str) -> None:
    body = (text + "\n").encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode()),
                            (b"content-security-policy", b"default-src 'none'"), (b"x-content-type-options", b"nosniff"),
                            (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": body})


async def _redirect(send, token: str) -> None:
    cookie = f"{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/".encode()
    await send({"type": "http.response.start", "status": 303,
                "headers": [(b"location", b"/"), (b"set-cookie", cookie), (b"content-length", b"0"),
                            (b"cache-control", b"no-store"), (b"referrer-policy", b"no-referrer")]})
    await send({"type": "http.response.body", "body": b""})
