"""A local HTTP server that answers like OpenReview's API v2, for the fetch tests (and to
try `reader-tui fetch` by hand: `python -m tests.openreview_server --papers 120`).

Shapes as the public API gives them (see shared/data/README.md): notes with
`content.X.value`, `invitations`, `details.directReplies` (reviews, comments, decisions,
withdrawals), `/notes` answered in id order with `after=ID` and `offset`/`limit`, the
first page with `count`; `/login` gives a token, `/pdf?id=` a pdf. Faults to stage:
`faults` (one per coming `/notes` request: "429", "403", "drop" cuts the answer off
mid-page, "500"), `login_required` (403 without the token), `max_limit` (a page holds at
most this many notes, whatever is asked), `delay` (seconds before each answer). Every
request is logged in `log` (method, path, query, headers).

(Imported as `tests.openreview_server`: pytest puts the repository root on the path.)
"""

from __future__ import annotations

import json
import random
import threading
import time
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

VENUE = "ICLR.cc/2026/Conference"
TOKEN = "test-token-123"
DAY_MS = 86_400_000
#: 2025-11-12T00:00:00Z and a day later: the first and the second day's captures.
T0 = 1_762_905_600_000


def make_venue(papers: int = 30, *, day: int = 0, venue: str = VENUE, seed: int = 7) -> list[dict[str, Any]]:
    """`papers` submissions of `venue` with their replies, as captured on `day` (0 or 1):
    on day 1 some reviewers changed their ratings (the reviews' mdate a day later), a few
    papers got decisions and the third one was withdrawn."""
    rng = random.Random(seed)
    out = []
    for number in range(1, papers + 1):
        pid = f"p{number:04d}{rng.choice('abcdefghij')}X"
        forum_invitation = f"{venue}/Submission{number}"
        replies = []
        for k in range(3):
            rating = rng.choice([2, 4, 6, 8])
            mdate = T0 + number * 1000 + k
            if day and number % 4 == 0 and k == 0:  # a rebuttal moved this reviewer
                rating, mdate = min(10, rating + 4), T0 + DAY_MS + number
            replies.append({
                "id": f"r{number}{k}", "forum": pid, "replyto": pid, "cdate": T0 + number * 1000 + k, "mdate": mdate,
                "invitations": [f"{forum_invitation}/-/Official_Review", f"{venue}/-/Edit"],
                "signatures": [f"{forum_invitation}/Reviewer_{chr(97 + k)}{number}"],
                "content": {
                    "rating": {"value": rating}, "confidence": {"value": rng.choice([2, 3, 4, 5])},
                    "soundness": {"value": rng.choice([1, 2, 3, 4])}, "summary": {"value": f"Review {k} of paper {number}."},
                    "strengths": {"value": "Clear **writing**, $O(n)$ time."}, "weaknesses": {"value": "Few baselines."},
                },
            })
        replies.append({
            "id": f"c{number}", "forum": pid, "replyto": f"r{number}0", "cdate": T0 + 5000, "mdate": T0 + 5000,
            "invitations": [f"{forum_invitation}/-/Official_Comment"], "signatures": [f"{forum_invitation}/Authors"],
            "content": {"title": {"value": "Rebuttal"}, "comment": {"value": "We added the baselines."}},
        })
        venue_name, venueid = "ICLR 2026 Conference Submission", f"{venue}/Submission"
        if day and number % 5 == 0:
            replies.append({
                "id": f"d{number}", "forum": pid, "replyto": pid, "cdate": T0 + DAY_MS, "mdate": T0 + DAY_MS,
                "invitations": [f"{forum_invitation}/-/Decision"], "signatures": [f"{venue}/Program_Chairs"],
                "content": {"decision": {"value": "Accept (Poster)" if number % 10 else "Reject"}, "title": {"value": "Paper Decision"}},
            })
        if day and number == 3:
            replies.append({
                "id": f"w{number}", "forum": pid, "replyto": pid, "cdate": T0 + DAY_MS, "mdate": T0 + DAY_MS,
                "invitations": [f"{forum_invitation}/-/Withdrawal"], "signatures": [f"{forum_invitation}/Authors"],
                "content": {"withdrawal_confirmation": {"value": "I have read and agree."}},
            })
            venue_name, venueid = "ICLR 2026 Conference Withdrawn Submission", f"{venue}/Withdrawn_Submission"
        out.append({
            "id": pid, "forum": pid, "number": number, "cdate": T0 - DAY_MS, "mdate": T0 - DAY_MS,
            "invitations": [f"{venue}/-/Submission", f"{venue}/-/Post_Submission"], "domain": venue,
            "readers": ["everyone"], "signatures": [f"{forum_invitation}/Authors"],
            "content": {
                "title": {"value": f"Paper {number}: learning {rng.choice(['graphs', 'proofs', 'robots', 'tokens'])}"},
                "abstract": {"value": f"We study problem {number} and show that it can be solved with a new method."},
                "keywords": {"value": ["learning", "theory"]}, "primary_area": {"value": "optimization"},
                "venue": {"value": venue_name}, "venueid": {"value": venueid}, "pdf": {"value": f"/pdf/{pid}.pdf"},
            },
            "details": {"directReplies": replies},
        })
    return out


class FakeOpenReview:
    """The server, started on 127.0.0.1 on a free port in a thread (a context manager)."""

    def __init__(self, notes: list[dict[str, Any]] | None = None) -> None:
        self.notes = make_venue() if notes is None else notes
        self.faults: list[str] = []
        self.login_required = False
        self.max_limit = 1000
        self.delay = 0.0
        self.log: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def notes_requests(self) -> list[dict[str, Any]]:
        return [r for r in self.log if r["path"] == "/notes"]

    def __enter__(self) -> FakeOpenReview:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    # -- answers ----------------------------------------------------------------------

    def answer(self, method: str, path: str, query: dict[str, str], headers: dict[str, str]) -> tuple[int, dict[str, Any] | bytes, str]:
        """(status, body, fault) for one request."""
        with self._lock:
            self.log.append({"method": method, "path": path, "query": query, "headers": headers})
            fault = self.faults.pop(0) if path == "/notes" and self.faults else ""
        if self.delay:
            time.sleep(self.delay)
        if path == "/login" and method == "POST":
            return 200, {"token": TOKEN, "user": {"id": "~Test_User1", "profile": {"id": "~Test_User1"}}}, ""
        if fault == "429":
            reset = (datetime.now(UTC) + timedelta(minutes=30, seconds=8)).isoformat().replace("+00:00", "Z")
            return 429, {
                "name": "RateLimitError", "status": 429,
                "message": "Too many requests: You have made 102 requests, surpassing the limit of 98 requests. "
                "Please try again in 30 minutes and 8 seconds",
                "details": {"resetTime": reset},
            }, ""
        if fault == "500":
            return 500, {"name": "Error", "status": 500, "message": "Internal Server Error"}, ""
        if self.login_required and headers.get("authorization") != f"Bearer {TOKEN}":
            return 403, {"name": "ForbiddenError", "status": 403, "message": "Forbidden: you must be logged in to read these notes"}, ""
        if path == "/pdf":
            return 200, b"%PDF-1.4\n% a test pdf of " + query.get("id", "").encode() + b"\n%%EOF\n", ""
        if path != "/notes":
            return 404, {"name": "NotFoundError", "status": 404, "message": f"{path} not found"}, ""
        chosen = [n for n in self.notes if query.get("invitation") in n.get("invitations", [])]
        if query.get("sort", "id").startswith("id"):
            chosen.sort(key=lambda n: n["id"])
        if query.get("after"):
            chosen = [n for n in chosen if n["id"] > query["after"]]
        offset = int(query.get("offset") or 0)
        limit = min(int(query.get("limit") or 1000), self.max_limit)
        total = len(chosen) if query.get("after") is None else None
        page = chosen[offset : offset + limit]
        if query.get("details") != "directReplies":
            page = [{k: v for k, v in n.items() if k != "details"} for n in page]
        body: dict[str, Any] = {"notes": page}
        if query.get("count") == "true" and total is not None:
            body["count"] = total
        return 200, body, fault


def _handler(fake: FakeOpenReview) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:  # quiet
            pass

        def _serve(self, method: str) -> None:
            url = urlparse(self.path)
            query = {k: v[-1] for k, v in parse_qs(url.query).items()}
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            headers = {k.lower(): v for k, v in self.headers.items()}
            status, body, fault = fake.answer(method, url.path, query, headers)
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/pdf" if isinstance(body, bytes) else "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            if status == 429:
                self.send_header("Retry-After", "1808")
            self.end_headers()
            if fault == "drop":  # the connection goes in the middle of the page
                self.wfile.write(data[: len(data) // 2])
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(2)
                return
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._serve("GET")

        def do_POST(self) -> None:
            self._serve("POST")

    return Handler


def main() -> None:  # pragma: no cover - for trying the fetch by hand
    import argparse

    parser = argparse.ArgumentParser(description="serve a fake OpenReview API v2 venue on 127.0.0.1")
    parser.add_argument("--papers", type=int, default=120)
    parser.add_argument("--day", type=int, default=0, help="0: the first capture; 1: a day later (moves, decisions)")
    parser.add_argument("--page", type=int, default=1000, help="notes a page at most")
    parser.add_argument("--faults", default="", help="comma-separated faults of the coming /notes requests: 429,403,drop")
    parser.add_argument("--login", action="store_true", help="answer 403 without the token")
    args = parser.parse_args()
    fake = FakeOpenReview(make_venue(args.papers, day=args.day))
    fake.max_limit, fake.login_required = args.page, args.login
    fake.faults = [f for f in args.faults.split(",") if f]
    with fake:
        print(fake.url, flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":  # pragma: no cover
    main()
