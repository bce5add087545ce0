"""The OpenReview API v2, through the official client (openreview-py), set up to be polite.

openreview-py's `OpenReviewClient` mounts a `requests` adapter that retries a 429 (and
5xx) up to 8 times with back-off, has no timeout, and names itself in the User-Agent.
Here its session gets an adapter that never retries (a 429 is read once: the user is
told when the API takes requests again) and gives up on a silent server; the
User-Agent names reader-tui and its version. `get_all_notes` is not used: it asks for
every page in one go with no pause and hands back nothing until the last one, so a
kill loses the lot. The same requests (`/notes?invitation=...&details=directReplies&
sort=id&limit=1000&after=ID`, the first with `count=true`) are made one page at a time
through the client's `get_notes`, which the snapshot writes as it goes.

Credentials only ever come from the environment (OPENREVIEW_USERNAME and
OPENREVIEW_PASSWORD, or OPENREVIEW_TOKEN), are used for that run only, and are never
written anywhere; public venues need none.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from ... import __version__

#: The public API v2.
PUBLIC_API = "https://api2.openreview.net"
#: Notes a page: openreview-py's and the API's largest (20 requests for 20,000 papers).
PAGE_SIZE = 1000
#: Seconds to connect, and to wait for the next bytes of an answer (a page of 1,000
#: forums is some 18 MB of JSON that the server takes a while to assemble).
TIMEOUT_S = (15.0, 180.0)
TOKEN_ENV, USERNAME_ENV, PASSWORD_ENV = "OPENREVIEW_TOKEN", "OPENREVIEW_USERNAME", "OPENREVIEW_PASSWORD"


def user_agent() -> str:
    """What every request says it is: reader-tui, its version, and where to read about it."""
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    return f"reader-tui/{__version__} (OpenReview fetch; Python/{python})"


class FetchError(Exception):
    """A fetch that stopped: the message is one line for the user."""


class Offline(FetchError):
    """The API could not be reached at all (no network, a wrong --api)."""


class ConnectionLost(FetchError):
    """The connection dropped, or timed out, in the middle of an answer."""


class LoginNeeded(FetchError):
    """The API asks for a login (403/401) for what was asked."""


class RateLimited(FetchError):
    """The API said "too many requests" (429): `resume_at` when it takes them again (None
    when it did not say)."""

    def __init__(self, message: str, resume_at: datetime | None) -> None:
        super().__init__(message)
        self.resume_at = resume_at


class ApiError(FetchError):
    """Any other refusal of the API (a venue that does not exist, a server error)."""


@dataclass(frozen=True, slots=True)
class Page:
    """One answer of `/notes`: its notes as plain API v2 JSON, and the total the first
    page announces (None on the others)."""

    notes: list[dict[str, Any]]
    count: int | None


def credentials(env: Mapping[str, str]) -> dict[str, str]:
    """The login the environment gives (token, or username and password), else {}."""
    token = env.get(TOKEN_ENV, "").strip()
    if token:
        return {"token": token}
    username, password = env.get(USERNAME_ENV, "").strip(), env.get(PASSWORD_ENV, "")
    if username and password:
        return {"username": username, "password": password}
    return {}


class OpenReviewApi:
    """One fetch's connection to the API. `requests` counts what was asked of it."""

    def __init__(self, api: str = PUBLIC_API, env: Mapping[str, str] | None = None) -> None:
        self.api = api.rstrip("/")
        self.env = os.environ if env is None else env
        self.requests = 0
        self._client: Any = None
        self._last: Any = None  # the last HTTP answer seen (status and headers of an error)

    @property
    def logged_in(self) -> bool:
        return bool(credentials(self.env))

    def client(self) -> Any:
        """openreview-py's client, made on first use with the politeness set up."""
        if self._client is None:
            self._client = self._connect()
        return self._client

    def _connect(self) -> Any:
        with self._translated("log in to"):
            from openreview.api import OpenReviewClient
            from requests.adapters import HTTPAdapter

            class PoliteAdapter(HTTPAdapter):
                """No retries (`max_retries=0`) and a timeout on every request."""

                def send(self, request: Any, **kwargs: Any) -> Any:
                    if kwargs.get("timeout") is None:
                        kwargs["timeout"] = TIMEOUT_S
                    return super().send(request, **kwargs)

            given = credentials(self.env)
            # The token is set on the client after it is made: given to the constructor,
            # openreview-py reads the profile with its retrying adapter. A username and
            # password are a POST, which that adapter never retries on a 429.
            login = {k: v for k, v in given.items() if k != "token"}
            if login:
                self.requests += 1
            client = OpenReviewClient(baseurl=self.api, **login)
            adapter = PoliteAdapter(max_retries=0)
            for prefix in ("https://", "http://", self.api):
                client.session.mount(prefix, adapter)
            client.user_agent = client.headers["User-Agent"] = user_agent()
            if "token" in given:
                client.token = given["token"]
                client.headers["Authorization"] = "Bearer " + given["token"]
            client.session.hooks["response"].append(self._seen)
            return client

    def _seen(self, response: Any, *args: Any, **kwargs: Any) -> None:
        self._last = response

    def page(self, invitation: str, after: str | None, limit: int = PAGE_SIZE) -> Page:
        """The notes of `invitation` with their direct replies, in id order, after the
        note `after` (None: from the first), at most `limit`."""
        client = self.client()
        with self._translated("read"):
            self.requests += 1
            self._last = None
            answer = client.get_notes(
                invitation=invitation, details="directReplies", sort="id", limit=limit, after=after,
                with_count=after is None,
            )
        notes, count = answer if isinstance(answer, tuple) else (answer, None)
        return Page([note_json(note) for note in notes], count)

    def pdf(self, note_id: str) -> bytes:
        """The pdf of note `note_id`."""
        client = self.client()
        with self._translated("download the pdf of"):
            self.requests += 1
            self._last = None
            return client.get_pdf(note_id)

    def _translated(self, doing: str) -> _Translated:
        return _Translated(self, doing)


class _Translated:
    """openreview-py's and requests' errors as one `FetchError` line each."""

    def __init__(self, api: OpenReviewApi, doing: str) -> None:
        self.api, self.doing = api, doing

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, error: Any, trace: Any) -> bool:
        if error is None or isinstance(error, FetchError):
            return False
        import requests

        where = self.api.api
        if isinstance(error, (requests.exceptions.ChunkedEncodingError, requests.exceptions.ReadTimeout)) or (
            isinstance(error, ValueError) and not isinstance(error, requests.exceptions.RequestException)
            and self.api._last is not None and self.api._last.ok
        ):
            raise ConnectionLost(f"the connection to {where} dropped in the middle of an answer ({_short(error)})") from None
        if isinstance(error, requests.exceptions.ConnectionError):
            raise Offline(f"offline: cannot reach {where} ({_short(error)})") from None
        if isinstance(error, requests.exceptions.RequestException):
            raise ConnectionLost(f"the request to {where} failed ({_short(error)})") from None
        from openreview import OpenReviewException

        if not isinstance(error, OpenReviewException):
            return False
        body = error.args[0] if error.args and isinstance(error.args[0], dict) else {"message": str(error)}
        response = self.api._last
        status = getattr(response, "status_code", None) or body.get("status")
        message = " ".join(str(body.get("message") or body.get("name") or "refused").split())
        if status == 429 or body.get("name") == "RateLimitError":
            headers = getattr(response, "headers", {}) or {}
            resume_at = reset_time(body, headers.get("Retry-After"))
            raise RateLimited(f"OpenReview says: {message}", resume_at) from None
        if status in (401, 403) or body.get("name") in ("ForbiddenError", "UnauthorizedError"):
            raise LoginNeeded(message) from None
        raise ApiError(f"{where} refused to {self.doing} it: {message}" + (f" (HTTP {status})" if status else "")) from None


_IN = re.compile(r"try again in\s+(?:(\d+)\s+hours?)?\s*(?:and\s+)?(?:(\d+)\s+minutes?)?\s*(?:and\s+)?(?:(\d+)\s+seconds?)?", re.I)


def reset_time(body: Mapping[str, Any], retry_after: str | None = None, now: datetime | None = None) -> datetime | None:
    """When a 429's limit resets: its `details.resetTime` (ISO 8601, or ms since the
    epoch), else the Retry-After header (seconds), else the "try again in 30 minutes and
    8 seconds" of its message; None when none says."""
    now = now or datetime.now(UTC)
    details = body.get("details") if isinstance(body.get("details"), dict) else {}
    raw = details.get("resetTime", body.get("resetTime"))
    if isinstance(raw, (int, float)) and not isinstance(raw, bool) and raw > 0:
        return datetime.fromtimestamp(raw / 1000 if raw > 1e11 else raw, tz=UTC)
    if isinstance(raw, str) and raw.strip():
        try:
            when = datetime.fromisoformat(raw.strip().replace("Z", "+00:00"))
            return when if when.tzinfo else when.replace(tzinfo=UTC)
        except ValueError:
            pass
    if retry_after and retry_after.strip().isdigit():
        return now + timedelta(seconds=int(retry_after.strip()))
    match = _IN.search(str(body.get("message") or ""))
    if match and any(match.groups()):
        hours, minutes, seconds = (int(g or 0) for g in match.groups())
        return now + timedelta(hours=hours, minutes=minutes, seconds=seconds)
    return None


def note_json(note: Any) -> dict[str, Any]:
    """An openreview-py `Note` as the API sent it: `to_json` leaves out the number, the
    true dates and the details (the replies), which the snapshot keeps."""
    if isinstance(note, dict):
        return note
    record = note.to_json()
    for key, name in (("number", "number"), ("tcdate", "tcdate"), ("tmdate", "tmdate"), ("details", "details")):
        value = getattr(note, name, None)
        if value is not None:
            record[key] = value
    return record


def _short(error: BaseException) -> str:
    text = " ".join(str(error).split())
    # requests nests the cause: "HTTPConnectionPool(...): Max retries exceeded ... (Caused by X)"
    caused = re.search(r"Caused by (\w+)\(.*?:\s*(.*?)['\"]?\)+\s*$", text)
    if caused:
        text = f"{caused.group(1)}: {caused.group(2)}"
    return text[:200] or type(error).__name__
