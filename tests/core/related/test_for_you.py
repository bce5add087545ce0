""""For you" (`core.related.for_you`): a tiny list of three topics where the right
answer is known, retraining after a decision, a tag's model, the explanation, readiness
and the "for-you" sort."""

from __future__ import annotations

import pytest

from reader_tui.core.model import Annotation, Paper, PaperView, Status
from reader_tui.core.related import for_you
from reader_tui.core.search.index import SearchIndex
from reader_tui.core.search.sorting import SortKey, order_key, sort_views

TOPICS = {
    "prot": ("Protein folding", "protein folding structure residues backbone amino chains"),
    "graph": ("Graph networks", "graph message passing nodes edges neighbourhood aggregation"),
    "opt": ("Optimizer", "optimizer momentum gradient preconditioning learning rate schedule"),
}
FILLER = "we study a method with experiments on data".split()


def papers() -> list[PaperView]:
    views = []
    for topic, (title, words) in TOPICS.items():
        vocab = words.split()
        for i in range(10):
            # each paper: its topic's words (a rotating subset) and common filler
            mine = [vocab[(i + k) % len(vocab)] for k in range(4)]
            views.append(PaperView(Paper(id=f"{topic}{i}", title=f"{title} {mine[0]} {i}",
                                         abstract=" ".join(mine + FILLER)), Annotation()))
    return views


def decide(views, **statuses):
    out = []
    for v in views:
        status = statuses.get(v.id)
        out.append(PaperView(v.paper, Annotation(status=status)) if status else v)
    return out


@pytest.fixture(scope="module")
def features():
    return for_you.Features(SearchIndex.build(papers()))


def test_the_model_ranks_the_liked_topic_first(features):
    views = decide(papers(), prot0=Status.TO_READ, prot1=Status.READ, opt0=Status.SKIPPED, graph0=Status.SKIPPED)
    model = for_you.train(features, views)
    ranked = [pid for pid, _ in model.rank()]
    assert not {"prot0", "prot1", "opt0", "graph0"} & set(ranked)  # decided papers are not offered
    assert all(pid.startswith("prot") for pid in ranked[:8]), ranked[:8]


def test_retraining_after_a_decision_moves_the_new_interest_up(features):
    views = decide(papers(), prot0=Status.TO_READ, prot1=Status.READ, opt0=Status.SKIPPED)
    before = [pid for pid, _ in for_you.train(features, views).rank()]
    views = decide(views, prot0=Status.TO_READ, prot1=Status.READ, opt0=Status.SKIPPED,
                   graph1=Status.TO_READ, graph2=Status.READING, prot2=Status.SKIPPED, prot3=Status.SKIPPED)
    after = [pid for pid, _ in for_you.train(features, views).rank()]
    assert not any(pid.startswith("graph") for pid in before[:5]), before[:5]
    # the new interest leads; the top stays broad, so the one kept before keeps a place in it
    assert after[0].startswith("graph") and sum(pid.startswith("graph") for pid in after[:5]) >= 3, after[:5]


def test_a_tags_model_finds_more_like_the_tagged_papers(features):
    views = [PaperView(v.paper, Annotation(tags=("mine",))) if v.id in ("opt1", "opt2") else v for v in papers()]
    model = for_you.train(features, views, tag="MINE")
    ranked = [pid for pid, _ in model.rank()]
    assert "opt1" not in ranked and all(pid.startswith("opt") for pid in ranked[:5]), ranked[:5]
    assert for_you.train(features, papers(), tag="nothing") is None


def test_every_ranked_paper_says_why(features):
    views = decide(papers(), prot0=Status.TO_READ, prot1=Status.READ, opt0=Status.SKIPPED, graph0=Status.SKIPPED)
    model = for_you.train(features, views)
    best = model.rank()[0][0]
    reason = model.explain(best)
    words = [w for w, _ in reason.words]
    assert words and set(words) <= set(TOPICS["prot"][1].split()) | {"protein", "folding"}
    assert reason.like and reason.like[0][0] in ("prot0", "prot1")
    assert "like: " in reason.describe({"prot0": "Protein paper zero", "prot1": "Protein paper one"})


def test_notes_add_their_words():
    views = decide(papers(), opt0=Status.SKIPPED, graph0=Status.SKIPPED)
    views = [PaperView(v.paper, Annotation(status=Status.TO_READ, notes="momentum and preconditioning"))
             if v.id == "prot5" else v for v in views]
    features = for_you.Features(SearchIndex.build(papers()))
    with_notes = [pid for pid, _ in for_you.train(features, views).rank()]
    without = [pid for pid, _ in for_you.train(features, views, notes={}).rank()]

    def first_optimizer_paper(ranked):
        return min(i for i, pid in enumerate(ranked) if pid.startswith("opt"))

    assert first_optimizer_paper(with_notes) < first_optimizer_paper(without)


def test_readiness_says_how_many_decisions_are_missing():
    views = decide(papers(), prot0=Status.TO_READ, opt0=Status.SKIPPED)
    ready, message = for_you.readiness(views)
    assert not ready and message == "for you needs 2 more kept (to-read, reading, read or tagged) and 2 more skipped"
    views = decide(papers(), prot0=Status.TO_READ, prot1=Status.READ, prot2=Status.READING,
                   opt0=Status.SKIPPED, opt1=Status.SKIPPED, opt2=Status.SKIPPED)
    assert for_you.readiness(views) == (True, "for you: learned from 3 papers kept and 3 skipped")


def test_the_for_you_sort_puts_undecided_papers_by_score_then_the_decided():
    views = decide(papers()[:4], prot1=Status.READ)
    scores = {"prot0": 0.1, "prot1": 5.0, "prot2": 0.9, "prot3": -1.0}
    assert [v.id for v in sort_views(views, SortKey("for-you"), scores)] == ["prot2", "prot0", "prot3", "prot1"]
    key = order_key(SortKey("for-you"), scores)
    assert sorted(views, key=key) == sort_views(views, SortKey("for-you"), scores)
    assert SortKey("for-you").label == "for you"
    with pytest.raises(ValueError, match="needs the model's scores"):
        sort_views(views, SortKey("for-you"))


# -- breadth: the top follows every topic the user keeps ------------------------------------

BROAD_TOPICS = {
    "world": "world model latent dynamics imagination rollout planning dreamer",
    "offline": "offline dataset conservative behaviour value pessimism logged",
    "bandit": "bandit regret arms exploration confidence bound contextual",
    "vision": "image segmentation pixels convolution detection boxes",
}


def broad_papers() -> list[PaperView]:
    """Forty papers a topic, each with four of its topic's words and common filler."""
    views = []
    for topic, words in BROAD_TOPICS.items():
        vocab = words.split()
        for i in range(40):
            mine = [vocab[(i + k) % len(vocab)] for k in range(0, 8, 2)]
            views.append(PaperView(Paper(id=f"{topic}{i}", title=f"{mine[0].title()} {mine[1]} {i}",
                                         abstract=" ".join(mine + FILLER)), Annotation()))
    return views


def test_the_top_covers_every_topic_kept_not_only_the_densest():
    # ten bandit papers kept against two of world models and two of offline RL: by score
    # alone the bandit papers fill the top
    kept = {f"bandit{i}": Status.TO_READ for i in range(10)}
    kept |= {"world0": Status.TO_READ, "world1": Status.READ, "offline0": Status.TO_READ, "offline1": Status.READ}
    skipped = {f"vision{i}": Status.SKIPPED for i in range(6)}
    views = decide(broad_papers(), **kept, **skipped)
    model = for_you.train(for_you.Features(SearchIndex.build(broad_papers())), views)
    top = [pid for pid, _ in model.rank()[:20]]
    assert {pid.rstrip("0123456789") for pid in top} == {"world", "offline", "bandit"}, top
    by_margin = sorted(model.rank(), key=lambda item: -model.margin[model.features.ordinal[item[0]]])
    assert {pid.rstrip("0123456789") for pid, _ in by_margin[:20]} == {"bandit"}  # what breadth fixes


def test_diversify_puts_a_paper_unlike_those_above_before_a_near_copy(monkeypatch):
    import numpy as np
    from scipy import sparse

    rows = sparse.csr_matrix(np.array([[1, 0], [1, 0], [0, 1], [1, 0], [0, 1]], dtype=np.float32))
    score = np.array([3.0, 2.9, 2.5, 1.0, -1.0])
    monkeypatch.setattr(for_you, "DIVERSE_MIN", 3)
    assert for_you.diversify(score, rows, np.arange(5), pool=3).tolist() == [0, 2, 1]
    assert for_you.diversify(score, rows, np.arange(5), pool=3, weight=0).tolist() == [0, 1, 2]


def test_past_the_broad_top_the_order_is_the_scores(monkeypatch):
    import numpy as np
    from scipy import sparse

    # three topics: the one of paper 5 is lifted above 2 and 4 in a broad order of 6 places
    rows = sparse.csr_matrix(np.array([[1, 0, 0], [1, 0, 0], [1, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1]],
                                      dtype=np.float32))
    score = np.array([6.0, 5.0, 4.0, 3.5, 3.0, 2.8])
    monkeypatch.setattr(for_you, "DIVERSE_MIN", 3)
    assert for_you.diversify(score, rows, np.arange(6), head=6).tolist() == [0, 3, 1, 5, 2, 4]
    assert for_you.diversify(score, rows, np.arange(6), head=2).tolist() == [0, 3, 1, 2, 4, 5]


def test_latent_topics_join_the_words_on_a_long_list(monkeypatch):
    monkeypatch.setattr(for_you, "LATENT_MIN_PAPERS", 20)
    monkeypatch.setattr(for_you, "LATENT_DIMENSIONS", 4)
    features = for_you.Features(SearchIndex.build(papers()))
    assert features.latent is not None and features.latent.shape == (30, 4)
    assert features.svm_matrix().shape[1] == len(features.words) + 4
    views = decide(papers(), prot0=Status.TO_READ, prot1=Status.READ, opt0=Status.SKIPPED, graph0=Status.SKIPPED)
    model = for_you.train(features, views)
    ranked = [pid for pid, _ in model.rank()]
    assert all(pid.startswith("prot") for pid in ranked[:8]), ranked[:8]
    assert model.explain(ranked[0]).words  # the words still say why (the latent columns have no name)


def test_the_tldr_adds_its_words():
    views = papers()
    views[0] = PaperView(Paper(id="prot0", title=views[0].paper.title, abstract=views[0].paper.abstract,
                               tldr="momentum preconditioning"), Annotation())
    plain = for_you.Features(SearchIndex.build(views))
    with_tldr = for_you.Features(SearchIndex.build(views), views)
    column = with_tldr.column["abstract:momentum"]
    assert plain.matrix[0, column] == 0 < with_tldr.matrix[0, column]


def test_the_reviewers_summaries_add_their_words():
    views = papers()
    # a paper whose own text says nothing of its topic: only its reviewers name it
    views.append(PaperView(Paper(id="quiet", title="A study", abstract=" ".join(FILLER)), Annotation()))
    said = [("quiet", "protein folding of residues\nthe backbone and amino chains"), ("opt9", "")]
    plain = for_you.Features(SearchIndex.build(views), views)
    reviewed = for_you.Features(SearchIndex.build(views), views, iter(said))
    column = reviewed.column["abstract:residues"]
    assert plain.matrix[30, column] == 0 < reviewed.matrix[30, column]
    decided = decide(views, prot0=Status.TO_READ, prot1=Status.READ, opt0=Status.SKIPPED, graph0=Status.SKIPPED)
    place = {f: [pid for pid, _ in for_you.train(f, decided).rank()].index("quiet") for f in (plain, reviewed)}
    assert place[reviewed] < 8 <= place[plain], place  # among the 8 protein papers left, or after them


def test_whole_keywords_are_columns_the_svm_sees():
    views = [PaperView(Paper(id=v.id, title=v.paper.title, abstract=v.paper.abstract,
                             keywords=("Protein Folding; structure prediction",) if v.id.startswith("prot") else ()),
                       Annotation()) for v in papers()]
    features = for_you.Features(SearchIndex.build(views), views)
    assert features.keywords is not None and features.keywords.shape == (30, 2)
    assert features.svm_matrix().shape[1] == len(features.words) + 2
    decided = decide(views, prot0=Status.TO_READ, prot1=Status.READ, opt0=Status.SKIPPED, graph0=Status.SKIPPED)
    ranked = [pid for pid, _ in for_you.train(features, decided).rank()]
    assert all(pid.startswith("prot") for pid in ranked[:8]), ranked[:8]


def test_active_triage_asks_about_the_paper_the_model_is_least_sure_of_every_few_turns(features):
    views = decide(papers(), prot0=Status.TO_READ, prot1=Status.READ, opt0=Status.SKIPPED, graph0=Status.SKIPPED)
    model = for_you.train(features, views)
    candidates = [v.id for v in views if v.status is Status.UNREAD]
    ranked = [pid for pid, _ in model.rank(candidates)]
    assert for_you.triage_pick(model, candidates, turn=0, every=4) == ranked[0]
    unsure = for_you.triage_pick(model, candidates, turn=3, every=4)
    margins = {pid: abs(float(model.margin[features.ordinal[pid]])) for pid in ranked}
    assert margins[unsure] == min(margins.values()) and unsure != ranked[0]
    assert for_you.triage_pick(model, candidates, turn=3, every=0) == ranked[0]
    assert for_you.triage_pick(model, [], turn=0) is None


# -- a retrain builds nothing of the size of the list -----------------------------------------


def _noted_views():
    views = decide(papers(), prot0=Status.TO_READ, prot1=Status.READ, opt0=Status.SKIPPED, graph0=Status.SKIPPED)
    return [PaperView(v.paper, Annotation(status=v.status, notes="momentum and preconditioning"))
            if v.id == "prot1" else v for v in views]


def test_a_retrain_with_the_same_notes_reads_them_once(monkeypatch):
    features = for_you.Features(SearchIndex.build(papers()))
    calls = []
    words_of = for_you.Features._words_of
    monkeypatch.setattr(for_you.Features, "_words_of", lambda self, texts: calls.append(texts) or words_of(self, texts))
    for_you.train(features, _noted_views())
    for_you.train(features, decide(_noted_views(), graph1=Status.SKIPPED))
    assert len(calls) == 1


def test_notes_change_their_papers_rows_as_a_whole_copy_would():
    import numpy as np
    from scipy import sparse

    features = for_you.Features(SearchIndex.build(papers()))
    notes = {"prot1": "momentum and preconditioning"}
    whole = for_you._normalised(features.matrix + for_you.NOTES_WEIGHT * features._words_of(notes.items()))
    rows = [0, 1, 2, 15]
    assert np.allclose(features.with_notes(notes)[rows].toarray(), whole[rows].toarray())
    vector = np.arange(features.svm_matrix().shape[1], dtype=np.float32)
    seen = sparse.hstack([whole, for_you.KEYWORD_WEIGHT * features.keywords], format="csr") \
        if features.keywords is not None else whole
    assert np.allclose(features.svm_matrix(notes) @ vector, seen @ vector[:seen.shape[1]], atol=1e-4)
    assert np.allclose(features.svm_matrix(notes)[rows].toarray(), seen[rows].toarray())


def test_diversify_gives_each_kept_papers_neighbours_a_place(monkeypatch):
    import numpy as np
    from scipy import sparse

    # three candidates near the kept row 4 score above the one near the kept row 5 (and one
    # far below them all, so that the four are close in standard deviations)
    rows = sparse.csr_matrix(np.array([[1, 0], [1, 0], [1, 0], [0, 1], [1, 0], [0, 1], [1, 0]], dtype=np.float32))
    score = np.array([3.0, 2.9, 2.8, 2.0, 9.0, 9.0, -8.0])
    monkeypatch.setattr(for_you, "DIVERSE_MIN", 3)
    candidates = np.array([0, 1, 2, 3, 6])
    assert for_you.diversify(score, rows, candidates, weight=1e-9, kept=[4, 5], coverage=1.0).tolist()[:2] == [0, 3]
    assert for_you.diversify(score, rows, candidates, weight=1e-9, kept=[4, 5], coverage=0).tolist()[:2] == [0, 1]


def test_kept_papers_on_one_thing_are_one_topic():
    import numpy as np

    rng = np.random.default_rng(0)
    centres = np.eye(3, 16)
    rows = np.vstack([centre + 0.15 * rng.standard_normal((7, 16)) for centre in centres])
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    topics = for_you.kept_topics(rows)
    assert len(set(topics.tolist())) == 3
    assert all(len(set(topics[i * 7:(i + 1) * 7].tolist())) == 1 for i in range(3))
    assert for_you.kept_topics(rows[:1]).tolist() == [0]
    # a kept paper with no word the features keep: a topic of its own (its cosines are undefined)
    with_empty = np.vstack([rows[:7], np.zeros((1, 16))])
    assert for_you.kept_topics(with_empty).tolist() == [0] * 7 + [1]


def test_the_top_reaches_every_topic_kept_however_dense_one_of_them_is(monkeypatch):
    """Seven papers kept on each of three things, one of which fills most of the list
    (offline RL beside world models and bandits, as tried by hand): the first 20 reach all
    three. Counted by kept paper, each of the dense topic's seven claimed its own share."""
    import numpy as np
    from scipy import sparse

    rng = np.random.default_rng(1)
    centres = np.eye(3, 24)
    per_topic = {0: 200, 1: 15, 2: 15}  # candidates of each topic: topic 0 dense
    latent, score, topic_of = [], [], []
    for topic, count in per_topic.items():
        latent.append(centres[topic] + 0.2 * rng.standard_normal((count, 24)))
        # the dense topic's candidates score higher, all of them
        score.append(np.linspace(3.0, 2.0, count) if topic == 0 else np.linspace(1.2, 0.8, count))
        topic_of += [topic] * count
    for topic in per_topic:  # seven kept papers of each topic, after the candidates
        latent.append(centres[topic] + 0.2 * rng.standard_normal((7, 24)))
        score.append(np.full(7, 5.0))
        topic_of += [topic] * 7
    latent = np.vstack(latent)
    latent /= np.linalg.norm(latent, axis=1, keepdims=True)
    score = np.concatenate(score)
    topic_of = np.array(topic_of)
    candidates = np.arange(230)
    kept = list(range(230, 251))
    words = sparse.csr_matrix(latent)
    top = for_you.diversify(score, words, candidates, kept=kept, topics=latent)[:20]
    assert set(topic_of[top].tolist()) == {0, 1, 2}
    assert (topic_of[top] == 0).sum() >= 10  # the densest, best scored topic still leads


def test_each_thing_kept_has_places_in_the_top_however_far_below_the_densest_it_scores(monkeypatch):
    """Seven papers kept on each of three things; the model scores every candidate of the
    first above all of the others, 400 of them, so the pool of the best 300 holds no other
    topic. Each thing kept (`TOPIC_MIN` kept papers) still has places in the first 20,
    at least `FAIR_SHARE` of its share; a lone kept paper is no thing of its own."""
    import numpy as np
    from scipy import sparse

    rng = np.random.default_rng(2)
    centres = np.eye(4, 24)
    per_topic = {0: 400, 1: 30, 2: 30, 3: 30}
    latent, score, topic_of = [], [], []
    for topic, count in per_topic.items():
        latent.append(centres[topic] + 0.2 * rng.standard_normal((count, 24)))
        score.append(np.linspace(9.0, 5.0, count) if topic == 0 else np.linspace(1.0, 0.5, count))
        topic_of += [topic] * count
    for topic, count in ((0, 7), (1, 7), (2, 7), (3, 1)):  # topic 3: one kept paper only
        latent.append(centres[topic] + 0.2 * rng.standard_normal((count, 24)))
        score.append(np.full(count, 10.0))
        topic_of += [topic] * count
    latent = np.vstack(latent)
    latent /= np.linalg.norm(latent, axis=1, keepdims=True)
    score, topic_of = np.concatenate(score), np.array(topic_of)
    candidates, kept = np.arange(490), list(range(490, 512))
    order = for_you.diversify(score, sparse.csr_matrix(latent), candidates, kept=kept, topics=latent)
    assert topic_of[order[0]] == 0  # the first place is the best paper's
    counts = np.bincount(topic_of[order[:20]], minlength=4)
    assert counts[1] >= 2 and counts[2] >= 2, counts  # about half a third of the places
    assert counts[3] == 0 and counts[0] >= 10, counts
    counts = np.bincount(topic_of[order[:30]], minlength=4)
    assert counts[1] >= 3 and counts[2] >= 3, counts
    monkeypatch.setattr(for_you, "TOPIC_MIN", 8)  # no thing kept: the pool is the best 300
    top = for_you.diversify(score, sparse.csr_matrix(latent), candidates, kept=kept, topics=latent)[:20]
    assert set(topic_of[top].tolist()) == {0}


def test_the_topics_of_a_paper_are_those_of_its_own_words_not_its_reviews(monkeypatch):
    """Reviews join the rows the SVM sees, and its latent topics; the topics the kept
    papers are grouped in, and the top made broad in, are the papers' own."""
    import numpy as np

    monkeypatch.setattr(for_you, "LATENT_MIN_PAPERS", 20)
    monkeypatch.setattr(for_you, "LATENT_DIMENSIONS", 4)
    views = papers()
    said = [(v.id, "optimizer momentum gradient schedule") for v in views if v.id.startswith("graph")]
    plain = for_you.Features(SearchIndex.build(views), views)
    reviewed = for_you.Features(SearchIndex.build(views), views, said)
    assert np.allclose(reviewed.topics, plain.latent, atol=1e-5)
    assert not np.allclose(reviewed.latent, plain.latent, atol=1e-3)
    assert plain.topics is plain.latent  # without reviews, one LSA


def test_self_training_widens_each_thing_kept_not_only_the_surest(monkeypatch):
    """Three papers kept on each of two things: the first round of self-training adds the
    surest undecided paper of each, not the one surest paper of the list."""
    import numpy as np

    fits = []
    real = for_you._fit
    monkeypatch.setattr(for_you, "_fit", lambda matrix, y, weight, rows: fits.append(
        {int(r) for r in rows if y[r] == 1}) or real(matrix, y, weight, rows))
    monkeypatch.setattr(for_you, "LATENT_MIN_PAPERS", 20)
    monkeypatch.setattr(for_you, "LATENT_DIMENSIONS", 4)
    monkeypatch.setattr(for_you, "SELF_TRAIN_TOP", 1400)  # 2 papers a round on a list of 30
    features = for_you.Features(SearchIndex.build(papers()))
    views = decide(papers(), prot0=Status.TO_READ, prot1=Status.READ, prot2=Status.TO_READ, graph0=Status.TO_READ,
                   graph1=Status.READ, graph2=Status.TO_READ, opt0=Status.SKIPPED, opt1=Status.SKIPPED)
    for_you.train(features, views)
    added = {features.ids[r] for r in fits[1] - fits[0]}
    assert len(added) == 2 and {pid[:4] for pid in added} == {"prot", "grap"}, added
    fits.clear()
    monkeypatch.setattr(for_you, "TOPIC_MIN", 4)  # no thing of 4 kept papers: two, by the margin alone
    for_you.train(features, views)
    assert len(fits[1] - fits[0]) == 2
    assert np.all(np.diff([len(f) for f in fits]) >= 0)


def test_below_the_broad_head_every_paper_keeps_its_margins_place(monkeypatch):
    """Breadth lifts a paper of a thing kept from far below into the head; the papers it
    passes over come right after the head, in the margin's order, not where it was."""

    monkeypatch.setattr(for_you, "DIVERSE_MIN", 3)
    monkeypatch.setattr(for_you, "DIVERSE_POOL", 4)  # the pool: the best 4 and each thing's best
    monkeypatch.setattr(for_you, "BROAD_TOP", 4)
    monkeypatch.setattr(for_you, "LATENT_MIN_PAPERS", 20)
    monkeypatch.setattr(for_you, "LATENT_DIMENSIONS", 4)
    features = for_you.Features(SearchIndex.build(papers()))
    views = decide(papers(), prot0=Status.TO_READ, prot1=Status.READ, prot2=Status.TO_READ, prot3=Status.TO_READ,
                   prot4=Status.READ, graph0=Status.TO_READ, graph1=Status.READ, graph2=Status.TO_READ,
                   opt0=Status.SKIPPED, opt1=Status.SKIPPED)
    model = for_you.train(features, views)
    ranked = [pid for pid, _ in model.rank()]
    head, rest = ranked[:4], ranked[4:]
    assert {pid[:4] for pid in head} >= {"prot", "grap"}, head
    margins = [float(model.margin[features.ordinal[pid]]) for pid in rest]
    assert margins == sorted(margins, reverse=True), list(zip(rest, margins))


def test_short_lists_find_topics_in_the_papers_own_words_too():
    views = papers()
    said = [(v.id, "optimizer momentum gradient schedule") for v in views if v.id.startswith("graph")]
    plain = for_you.Features(SearchIndex.build(views), views)
    reviewed = for_you.Features(SearchIndex.build(views), views, said)
    assert plain.topics is None and reviewed.latent is None
    assert (reviewed.topics != plain.matrix).nnz == 0  # the rows before the reviews joined
    assert (reviewed.matrix != plain.matrix).nnz > 0


def test_a_list_whose_every_paper_is_kept_has_nothing_to_rank():
    views = [PaperView(v.paper, Annotation(status=Status.READ)) for v in papers()]
    assert for_you.train(for_you.Features(SearchIndex.build(views)), views) is None
