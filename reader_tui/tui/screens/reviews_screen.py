"""The reviews view (`R` in the list and in triage): what reviewers and authors said of one
paper, in the forum's reading order, the search's words highlighted.

The forum is read from the reviews store and laid out off the UI thread (the read is a
fraction of a millisecond, but a long forum's markdown and LaTeX take longer to render),
then handed to the `ReviewsView` in one message. A paper without reviews says so; a
damaged or busy store shows its one line instead of the reviews.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from reader_tui.core.atomic_storage import StoreError
from reader_tui.core.library.library import Library
from reader_tui.core.reviews import pdf_link
from reader_tui.core.text.display import one_line, sanitize
from reader_tui.tui.widgets.footer import KeyFooter
from reader_tui.tui.widgets.paper_detail import LABEL, scores_content
from reader_tui.tui.widgets.reviews_view import Block, ReviewsView, forum_blocks


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
        """The forum was read and laid out (`blocks`), or could not be (`error`)."""

        def __init__(self, blocks: list[Block] | None, reviews: int, error: str = "") -> None:
            super().__init__()
            self.blocks = blocks
            self.reviews = reviews
            self.error = error

    def __init__(self, library: Library, paper_id: str, words: Sequence[str] = ()) -> None:
        super().__init__()
        self.library = library
        self.paper_id = paper_id
        self.words = tuple(words)
        self.reviews = 0
        """How many reviews the forum holds (known once loaded)."""
        self.loaded = False

    def compose(self) -> ComposeResult:
        with Vertical(id="reviews-column"):
            yield Static(id="reviews-title", markup=False)
            yield Static(id="reviews-scores", markup=False)
            yield Static(Content.styled("reading the reviews…", LABEL), id="reviews-position", markup=False)
            yield ReviewsView(id="reviews-view")
        yield KeyFooter(pinned=("close", "help"))

    def on_mount(self) -> None:
        view = self.library.view(self.paper_id)
        self.query_one("#reviews-title", Static).update(Content.styled(one_line(view.title), "bold"))
        scores = scores_content(view.paper)
        scores_line = self.query_one("#reviews-scores", Static)
        scores_line.update(scores or "")
        scores_line.display = scores is not None
        self._load()

    @work(thread=True, exclusive=True, group="reviews", exit_on_error=False)
    def _load(self) -> None:
        try:
            forum = self.library.forum(self.paper_id)
        except StoreError as error:
            self.post_message(self.Loaded(None, 0, str(error)))
            return
        if forum is None or not forum.notes:
            self.post_message(self.Loaded([], 0))
            return
        self.post_message(self.Loaded(forum_blocks(forum, self.words), len(forum.reviews)))

    def on_reviews_screen_loaded(self, message: Loaded) -> None:
        self.loaded = True
        self.reviews = message.reviews
        view = self.query_one(ReviewsView)
        if message.error:
            view.set_blocks([Block(Content.styled(sanitize(message.error), "$text-error"), 0, False)])
            self._say(Content.styled("The reviews cannot be read", "bold $text-error"))
            return
        if not message.blocks:
            imported = self.library.review_store.exists
            why = "No reviews of this paper in the library" + (
                "" if imported else " (import the conference's reviews file: reader-tui import FILE)"
            )
            view.set_blocks([Block(Content.styled(why, LABEL), 0, False)])
            self._say(Content.styled("No reviews", "bold"))
            return
        view.set_blocks(message.blocks)
        self._position(view.review_index)

    def on_reviews_view_moved(self, message: ReviewsView.Moved) -> None:
        if self.loaded and self.reviews:
            self._position(message.index)

    def _position(self, index: int) -> None:
        count = f"{self.reviews} review{'s' if self.reviews != 1 else ''}"
        where = f"review {index + 1} of {self.reviews}" if index >= 0 else count
        self._say(Content.assemble((where, "bold"), ("  · n / N next / previous review", LABEL)))

    def _say(self, line: Content) -> None:
        self.query_one("#reviews-position", Static).update(line)

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
