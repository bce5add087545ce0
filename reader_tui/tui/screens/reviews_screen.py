"""The reviews view (`R` in the list and in triage): what reviewers and authors said of one
paper, in the forum's reading order, the search's words highlighted.

The forum is read from the reviews store off the UI thread (a fraction of a millisecond,
but a store busy with an import may make a read wait), then handed to the `ReviewsView`,
which renders and lays out only what the first screen shows before it is drawn, and the
rest after. A paper without reviews says so; a damaged or busy store shows its one line
instead of the reviews.

The app keeps one of these screens (`open_reviews`) and shows another paper in it each
time: composing and styling a new screen with its footer took most of the time between
`R` and the reviews on screen. For the same reason the screen is not restyled each time
it is shown again, only after the app's CSS changed (a new theme), and the same paper
shown again keeps what was laid out.

While the screen is not shown, the paper under the list's (or triage's) resting cursor
is made ready in it (`read_ahead`): read, its first screen laid out and drawn, so that
`R` on it only pushes the screen and copies what was drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from functools import partial

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.geometry import Region
from textual.message import Message
from textual.screen import Screen
from textual.strip import Strip
from textual.timer import Timer
from textual.widgets import Static

from reader_tui.core.atomic_storage import StoreError
from reader_tui.core.library.library import Library
from reader_tui.core.reviews import pdf_link
from reader_tui.core.text.display import one_line, sanitize
from reader_tui.tui.screens.reviews_ahead import SCREEN_NAME
from reader_tui.tui.textual_patches import (
    lay_out_if_required,
    lay_out_now,
    mark_styled_with_current_css,
    start_screen_unshown,
    styled_with_current_css,
)
from reader_tui.tui.widgets.footer import KeyFooter
from reader_tui.tui.widgets.paper_detail import LABEL, scores_content
from reader_tui.tui.widgets.reviews_text import Block, Thread
from reader_tui.tui.widgets.reviews_view import ReviewsView

WAIT_S = 0.04
"""How long `R` waits for a forum to be read before showing the screen without it (it
follows): a read takes a fraction of a millisecond, unless an import holds the store."""
AHEAD_S = 0.12
"""How long the list's cursor rests on a paper before its reviews are made ready in the
kept screen, off screen (`read_ahead`): moving on through the list costs nothing."""
_READER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="reader-tui-reviews")


class ReviewsScreen(Screen[None]):
    """The forum of `paper_id`: decision, reviews with the replies under them, comments."""

    AUTO_FOCUS = "ReviewsView"

    BINDINGS = [
        Binding("n,right_square_bracket", "review(1)", "Next review", id="reviews.next"),
        Binding("N,left_square_bracket", "review(-1)", "Previous review", id="reviews.previous"),
        Binding("p", "open_pdf", "PDF", id="reviews.open_pdf"),
        Binding("o", "open_forum", "Forum / url", id="reviews.open_forum"),
        Binding("escape,q,R", "close", "Back", id="reviews.close"),
    ]

    class Loaded(Message):
        """The forum of `paper_id` was read (`thread`: its notes in reading order), or
        could not be (`error`)."""

        def __init__(self, paper_id: str, thread: Thread | None, reviews: int, error: str = "",
                     request: int = 0) -> None:
            super().__init__()
            self.request = request
            """Which `show_paper` asked for it (only the last one's is shown)."""
            self.paper_id = paper_id
            self.thread = thread
            self.reviews = reviews
            self.error = error

    def __init__(self, library: Library, paper_id: str | None = None, words: Sequence[str] = ()) -> None:
        super().__init__()
        self.library = library
        self.paper_id = paper_id
        self.words = tuple(words)
        self.reviews = 0
        """How many reviews the forum holds (known once loaded)."""
        self.loaded = False
        self._said: Content | None = None
        # the paper, words, catalog record and reviews file the view holds, once loaded
        self._shown: tuple[object, ...] | None = None
        self._request = 0
        self._ahead_request = 0  # the request made by `read_ahead`, if the last one was
        self._ahead: Timer | None = None
        self._header: tuple[Content, Content | None] | None = None
        self._background: tuple[tuple[object, ...], list[Strip]] | None = None

    def compose(self) -> ComposeResult:
        # no column container: the screen centres each line (one widget fewer to draw
        # under the others each time the screen is shown)
        yield Static(id="reviews-title", markup=False)
        yield Static(id="reviews-scores", markup=False)
        yield Static(Content.styled("reading the reviews…", LABEL), id="reviews-position", markup=False)
        yield ReviewsView(id="reviews-view")
        yield KeyFooter(pinned=("close", "help"))

    def on_mount(self) -> None:
        # styled as it mounted, with the app's CSS of now: no restyle at the first push
        mark_styled_with_current_css(self)
        if not self.is_current:  # made ahead (`prepare_reviews`): laid out ahead too
            lay_out_now(self, self.app.size)
        if self.paper_id is not None:
            self.show_paper(self.paper_id, self.words, ahead=self not in self.app.screen_stack)

    def show_paper(self, paper_id: str, words: Sequence[str] = (), ahead: bool = False) -> None:
        """Show the reviews of `paper_id`, `words` highlighted.

        The forum is read on a thread; the UI waits for it up to `WAIT_S`, so that the
        screen is drawn once, with the reviews in it. A read that takes longer (the store
        busy with an import) arrives by message and the screen says it is reading
        meanwhile: the UI never stalls. The same paper (and words, and reviews file) as the
        view holds, made ready ahead (`ahead`: not waited for, its first screen laid out
        and drawn off screen once read) or shown last: what the view laid out and drew is
        kept, shown from the top."""
        view = self.library.view(paper_id)
        title, scores = Content.styled(one_line(view.title), "bold"), scores_content(view.paper)
        if (title, scores) != self._header:
            before = self._header or (None, None)
            self._header = (title, scores)
            _update(self.query_one("#reviews-title", Static), before[0], title)
            scores_line = self.query_one("#reviews-scores", Static)
            _update(scores_line, before[1], scores or Content(""))
            scores_line.display = scores is not None
        shown = (paper_id, tuple(words), view.paper, self.library.review_store.signature)
        if (self.loaded and self._shown is not None and self._shown[:2] == shown[:2]
                and self._shown[2] is shown[2] and self._shown[3] == shown[3]):
            self.query_one(ReviewsView).scroll_to(y=0, animate=False, immediate=True)
            return
        self._request += 1
        self._ahead_request = self._request if ahead else 0
        self.paper_id, self.words = paper_id, tuple(words)
        self.loaded, self.reviews, self._shown = False, 0, shown
        future = _READER.submit(read_forum, self.library, paper_id, self._request)
        try:
            loaded = future.result(timeout=0 if ahead else WAIT_S)
        except FutureTimeout:
            self._say(Content.styled("reading the reviews…", LABEL))
            self.query_one(ReviewsView).set_blocks([])
            future.add_done_callback(lambda done: self.post_message(done.result()))  # thread-safe
            return
        self.on_reviews_screen_loaded(loaded)

    def read_ahead(self, paper_id: str, words: Sequence[str] = ()) -> None:
        """The list's cursor is on `paper_id`: once it rests there (`AHEAD_S`), make its
        reviews ready in this screen while it is not shown (read, the first screen laid
        out and drawn), so that `R` only shows them. A key press meanwhile is answered
        first: the read is on a thread, the rest a few milliseconds between two keys."""
        if self._ahead is not None:
            self._ahead.stop()
        self._ahead = self.set_timer(AHEAD_S, partial(self._read_ahead, paper_id, tuple(words)), name="reviews-ahead")

    def _read_ahead(self, paper_id: str, words: tuple[str, ...]) -> None:
        self._ahead = None
        if self in self.app.screen_stack or paper_id not in self.library.papers:
            return
        if not self.is_mounted:  # still being made: shown once mounted
            self.paper_id, self.words = paper_id, words
            return
        if self.size != self.app.size:  # resized while off screen (only shown screens follow)
            lay_out_now(self, self.app.size)
        self.show_paper(paper_id, words, ahead=True)

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Runs before Screen's own handler, which restyles every widget of a screen pushed
        # again (a fifth of the time `R` took): nothing of this screen's look can have
        # changed unless the app's CSS did (a theme) since it was styled last.
        if styled_with_current_css(self):
            event.refresh_styles = False
        mark_styled_with_current_css(self)

    def render_lines(self, crop: Region) -> list[Strip]:
        # The screen's own lines are its background colour alone, but Textual draws them
        # again each time the screen is shown (45 lines: a twelfth of `R`): kept while
        # nothing they depend on changed.
        background = self.styles.background
        key = (crop, self.size, background, self.app.ansi_theme, tuple(self.get_line_filters()))
        if background.a < 1 or self._background is None or self._background[0] != key:
            lines = super().render_lines(crop)
            self._background = (key, lines) if background.a == 1 else None
            return lines
        return list(self._background[1])

    def on_reviews_screen_loaded(self, message: ReviewsScreen.Loaded) -> None:
        if message.request != self._request:
            return  # another paper (or the same again, read since) was asked for meanwhile
        self.loaded = True
        self.reviews = message.reviews
        view = self.query_one(ReviewsView)
        if message.error:
            self._shown = None  # read it again next time
            view.set_blocks([Block(Content.styled(sanitize(message.error), "$text-error"), 0, False)])
            self._say(Content.styled("The reviews cannot be read", "bold $text-error"))
            return
        if not message.thread:
            imported = self.library.review_store.exists
            why = "No reviews of this paper in the library" + (
                "" if imported else " (import the conference's reviews file: reader-tui import FILE)"
            )
            view.set_blocks([Block(Content.styled(why, LABEL), 0, False)])
            self._say(Content.styled("No reviews", "bold"))
            return
        # made ready ahead (not `R` waiting for the read: the screen is shown next, and
        # its header's new lines are not laid out yet)
        ahead = message.request == self._ahead_request and not self.is_current
        if ahead:
            # a header of another height, off screen: laid out now (Textual would wait
            # for the screen to be shown), so that the view knows the rows it will show
            lay_out_if_required(self)
        view.set_thread(message.thread, self.words)
        # before its layout the view knows no lines: the text starts with a review or not
        first, depth = message.thread[0]
        self._position(view.review_index if view.anchors else 0 if first.kind == "review" and depth == 0 else -1)
        if ahead:  # made ready ahead: what `R` will show, drawn now
            view.draw_ahead()
            for line in self.query(Static):
                if line.display and line.size:  # kept by Textual until the line changes
                    line.render_lines(Region(0, 0, *line.outer_size))
            if self._background is None and self.size:  # the first time: the screen's own lines
                self.render_lines(self.size.region)

    def on_reviews_view_moved(self, message: ReviewsView.Moved) -> None:
        if self.loaded and self.reviews:
            self._position(message.index)

    def _position(self, index: int) -> None:
        count = f"{self.reviews} review{'s' if self.reviews != 1 else ''}"
        where = f"review {index + 1} of {self.reviews}" if index >= 0 else count
        self._say(Content.assemble((where, "bold"), ("  · n / N next / previous review", LABEL)))

    def _say(self, line: Content) -> None:
        if line != self._said:
            _update(self.query_one("#reviews-position", Static), self._said, line)
            self._said = line

    # -- actions -----------------------------------------------------------------------------

    def action_review(self, step: int) -> None:
        view = self.query_one(ReviewsView)
        if view.go_to_review(step) is None:
            if not self.reviews:
                self.notify("This paper has no reviews", markup=False)
            else:
                self.notify("No later review" if step > 0 else "No earlier review", markup=False)
            return
        self._position(view.review_index)

    def action_open_pdf(self) -> None:
        from reader_tui.tui.open_url import open_link

        open_link(self, pdf_link(self.library.view(self.paper_id)), "PDF")

    def action_open_forum(self) -> None:
        from reader_tui.tui.open_url import open_link

        open_link(self, self.library.view(self.paper_id).url, "page")

    def action_close(self) -> None:
        self.dismiss(None)


def _update(static: Static, before: Content | None, after: Content) -> None:
    """`static` shows `after` instead of `before`: the screen is laid out again (a tenth
    of `R`) only when the number of lines it takes may change."""
    width = static.size.width
    same = static.display and before is not None and width > 0 and len(before.wrap(width)) == len(after.wrap(width))
    static.update(after, layout=not same)


def read_forum(library: Library, paper_id: str, request: int = 0) -> ReviewsScreen.Loaded:
    """The forum of `paper_id` read (any thread): its notes in reading order."""
    try:
        forum = library.forum(paper_id)
    except StoreError as error:
        return ReviewsScreen.Loaded(paper_id, None, 0, str(error), request)
    except Exception as error:  # never a screen left "reading" for ever: say what failed
        return ReviewsScreen.Loaded(paper_id, None, 0, f"{library.review_store.path}: the reviews of {paper_id} "
                                    f"could not be read: {type(error).__name__}: {error}", request)
    if forum is None or not forum.notes:
        return ReviewsScreen.Loaded(paper_id, [], 0, request=request)
    return ReviewsScreen.Loaded(paper_id, forum.thread(), len(forum.reviews), request=request)


def prepare_reviews(app: App, library: Library) -> None:
    """Make the app's reviews screen ahead of the first `R`: composed, mounted and styled
    off screen (Textual starts an installed screen's widgets only when it is first
    pushed, which made the first `R` of a session take twice as long as the next)."""
    if app.is_screen_installed(SCREEN_NAME) or not library.review_store.exists:
        return
    screen = ReviewsScreen(library)
    app.install_screen(screen, SCREEN_NAME)
    start_screen_unshown(app, screen)  # what a first push does: the screen runs, not shown


def open_reviews(app: App, library: Library, paper_id: str, words: Sequence[str] = ()) -> ReviewsScreen:
    """Show the reviews of `paper_id` in the app's one reviews screen (made the first time)."""
    if not app.is_screen_installed(SCREEN_NAME):
        app.install_screen(ReviewsScreen(library), SCREEN_NAME)
    screen = app.get_screen(SCREEN_NAME)
    assert isinstance(screen, ReviewsScreen)
    if screen.is_mounted:
        screen.show_paper(paper_id, words)
    else:  # the first time: shown once mounted
        screen.paper_id, screen.words = paper_id, tuple(words)
    app.push_screen(screen)
    return screen
