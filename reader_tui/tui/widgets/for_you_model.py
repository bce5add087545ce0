"""An invisible widget that keeps the "for you" model (`core.related.for_you`) current.

It does nothing until something asks for the model (the "for you" sort, triage in that
order): numpy, scipy and scikit-learn, and the TF-IDF features, cost some 60 MB and a
few seconds the first time, which a session that never asks should not pay. Once
asked, it trains in a thread worker (exclusive, group "for-you") a short while
(`TRAIN_DELAY`) after each decision, so a run of decisions trains once; the features are
made in that worker from the search index the screen hands it (`set_index`) and the
reviewers' summaries the library holds, once per index and reviews store, however many
workers a run of decisions starts meanwhile. The trained model is
published on the UI thread through `trained_signal`: the browser re-sorts, the detail
pane explains, triage picks its next paper.

Besides the user's model it keeps one tag's (`want(tag)`: "more like tag:X", the papers
with that tag as the positives), trained in the same worker on the same features, so
the list can be ranked by a tag while triage's "for you" stays the user's.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Collection
from typing import Any

from textual import work
from textual.signal import Signal
from textual.timer import Timer
from textual.widget import Widget
from textual.worker import Worker, WorkerState

from reader_tui.core.atomic_storage import StoreError
from reader_tui.core.library.library import Library

TRAIN_DELAY = 0.3
"""Seconds after the last decision before the model is trained again (tests set 0)."""


class ForYouModel(Widget):
    """Trains "for you" off the UI thread when asked, and says when it has (nothing to show)."""

    DEFAULT_CSS = "ForYouModel { display: none; }"

    def __init__(self, library: Library, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.library = library
        self.index: Any = None
        self.model: Any = None
        """The last model trained (a `for_you.ForYou`), None before the first."""
        self.seconds = 0.0
        """How long the last training took (the features too, when it made them)."""
        self.wanted = False
        """True once something showed the model: from then on each decision retrains it."""
        self.tag: str | None = None
        """The tag whose model is asked for ("more like tag:X"), None for none."""
        self.tag_model: Any = None
        """The last model of `tag`'s papers, None before the first (or when none is tagged)."""
        self.tag_trained = False
        """A model of `tag` was trained since it was asked for (`tag_model` None: no paper has it)."""
        self._tag_scores: dict[str, float] | None = None
        self.seen: set[str] = set()
        """Papers passed over in triage and left undecided (weak negatives)."""
        self.generation = 0
        """How many models were published (tests and triage wait on it)."""
        self.failed = ""
        self.training = False
        """A training is asked for or running: what is shown may not know the last decision."""
        self._features: tuple[Any, Any, Any] | None = None  # (index, reviews' signature, Features)
        self._making_features = threading.Lock()
        self._reviews_error = ""  # the last error the reviews store gave, said once
        self._timer: Timer | None = None
        self._scores: dict[str, float] | None = None
        self.trained_signal: Signal[Any] = Signal(self, "for-you-trained")

    def on_mount(self) -> None:
        self.app.library_changed_signal.subscribe(self, self._library_changed)

    def readiness(self) -> tuple[bool, str]:
        """`for_you.readiness` of the library's decisions (cheap: no model, no numpy)."""
        from reader_tui.core.related.for_you import readiness

        return readiness(self._decided_views())

    def can_learn(self) -> bool:
        """At least one paper kept: `train` has something to learn from."""
        from reader_tui.core.related.for_you import labels

        return bool(labels(self._decided_views())[0])

    def _decided_views(self, extra: Collection[str] = ()) -> list[Any]:
        papers = self.library.papers
        ids = [pid for pid in {*self.library.annotations, *extra} if pid in papers]
        return self.library.views(ids)

    def set_index(self, index: Any) -> None:
        """Make the features from `index` from now on (a titles-only index first, then the
        full one: the model is trained again on the full one)."""
        self.index = index
        if self.wanted or self.tag is not None:
            self.request(0)

    def want(self, tag: str | None = None) -> None:
        """Something shows the model (with `tag`: that tag's model, instead of the one
        asked for before): train it now if there is none, and after each decision."""
        if tag is not None:
            if tag != self.tag:
                self.tag, self.tag_model, self._tag_scores, self.tag_trained = tag, None, None, False
                self.request(0)
            elif self.tag_model is None:
                self.request(0)
        elif not self.wanted:
            self.wanted = True
            self.request(0)
        elif self.model is None:
            self.request(0)

    def drop_tag(self) -> None:
        """No tag's model is shown any more: stop training it."""
        self.tag, self.tag_model, self._tag_scores, self.tag_trained = None, None, None, False

    def request(self, delay: float | None = None) -> None:
        """Train `delay` seconds from now (default `TRAIN_DELAY`), unless asked again first."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        delay = TRAIN_DELAY if delay is None else delay
        self.training = True
        if delay <= 0:  # (a Timer of 0 s divides by it)
            self.call_later(self._start)
        else:
            self._timer = self.set_timer(delay, self._start, name="for-you-debounce")

    def _library_changed(self, ids: frozenset[str] | None) -> None:
        if self.wanted or self.tag is not None:
            self.request()

    def _start(self) -> None:
        self._timer = None
        if self.index is None or not (self.wanted or self.tag is not None):
            return  # trained once the index arrives (`set_index`), when asked
        self._train(self.index, frozenset(self.seen), self.wanted, self.tag)

    @work(thread=True, exclusive=True, group="for-you", exit_on_error=False)
    def _train(self, index: Any, seen: frozenset[str], user: bool, tag: str | None) -> None:
        from textual.worker import get_current_worker

        from reader_tui.core.related import for_you

        started = time.perf_counter()
        features = self._features_of(index)
        if get_current_worker().is_cancelled:
            return  # a decision made while the features were made: the newer worker trains
        views = self._decided_views(seen)
        model = for_you.train(features, views, seen=seen) if user else None
        tagged = for_you.train(features, views, tag=tag) if tag is not None else None
        self.app.call_from_thread(
            self._publish, (model, model.scores() if model is not None else None) if user else None,
            (tag, tagged, tagged.scores() if tagged is not None else None) if tag is not None else None,
            time.perf_counter() - started,
        )

    def _features_of(self, index: Any) -> Any:
        """The features of `index` and of the reviews store as it is (an import of reviews
        makes them again), made once: a worker that starts while an older one makes them
        (a decision during those seconds) waits for them instead of making its own beside
        it on the same two cores."""
        from reader_tui.core.related import for_you

        store = self.library.review_store
        with self._making_features:
            signature = store.signature
            if self._features is None or self._features[0] is not index or self._features[1] != signature:
                features = for_you.Features(index, self.library.papers.values(), self._summaries(store))
                self._features = (index, signature, features)
            return self._features[2]

    def _summaries(self, store: Any) -> Any:
        """The store's reviewers' summaries; a store that cannot be read is said (once for
        the same error, however many times the features are made again), and the model
        learns from the papers' own texts (and what was read before the error)."""
        try:
            yield from store.summaries()
        except StoreError as error:
            if str(error) != self._reviews_error:
                self._reviews_error = str(error)
                self.app.call_from_thread(self.app.notify, f"for you could not read the reviews: {error}",
                                          severity="warning", markup=False, timeout=15)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "for-you" and event.state is WorkerState.ERROR:
            # said once, in words; the list keeps its order and says nothing was learned
            error = event.worker.error
            self.failed = f"for you could not be trained: {type(error).__name__}: {error}"
            self.training = False
            self.app.notify(self.failed, severity="error", markup=False, timeout=15)
            self.trained_signal.publish(self.model)  # the last model stands (the status line says when none)

    def _publish(self, user: tuple[Any, Any] | None, tagged: tuple[str, Any, Any] | None, seconds: float) -> None:
        self.failed = ""
        self.training = self._timer is not None  # a decision made since this training began
        if user is not None:
            self.model, self._scores = user
        if tagged is not None and tagged[0] == self.tag:  # (else a tag no longer asked for)
            _, self.tag_model, self._tag_scores = tagged
            self.tag_trained = True
        self.seconds = seconds
        self.generation += 1
        self.trained_signal.publish(self.model)

    def scores(self, tag: str | None = None) -> dict[str, float] | None:
        """Paper id -> score of the last model (with `tag`: of that tag's; None: none yet)."""
        if tag is None:
            return self._scores
        return self._tag_scores if tag == self.tag else None

    def explain(self, paper_id: str, titles: Any, tag: str | None = None) -> str:
        """Why `paper_id` ranks where it does, one line ("" without a model or paper)."""
        model = self.model if tag is None else self.tag_model if tag == self.tag else None
        if model is None or paper_id not in model.features.ordinal:
            return ""
        return model.explain(paper_id).describe(titles)
