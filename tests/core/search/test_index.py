"""SearchIndex behaviour on a handmade list: typos, prefixes, AND/exclusion, filters,
field ranking, dynamic annotations and the matched words returned for highlighting."""

from __future__ import annotations

import threading

import pytest

from reader_tui.core.model import Annotation, Paper, PaperView, Status
from reader_tui.core.search.index import Hit, SearchIndex, tokens
from reader_tui.core.search.query import QueryError, parse_query


def view(pid, title, abstract="", *, keywords=(), authors=(), year=2026, venue="ICLR 2026",
         short_name="", status=Status.UNREAD, tags=(), notes=""):
    paper = Paper(id=pid, title=title, abstract=abstract, keywords=tuple(keywords), authors=tuple(authors),
                  year=year, venue=venue, short_name=short_name)
    return PaperView(paper, Annotation(status=status, tags=tuple(tags), notes=notes))


PAPERS = [
    view("lla", "Log-Linear Attention", "We replace softmax attention with a log-linear form of linear attention."),
    view("soft", "Softmax Attention Is All You Need Again", "Linear attention loses to softmax; we analyse why."),
    view("abs", "Efficient Sequence Models", "Our method uses linear attention and a hierarchical state."),
    view("kw", "Token Mixing at Scale", "A study of mixers.", keywords=("linear attention", "mixers")),
    view("muon", "Muon Is Scalable for LLM Training", "The Muon optimizer orthogonalises updates.",
         status=Status.TO_READ, tags=("optim",)),
    view("socop", "Singleton-Optimized Conformal Prediction",
         "Using this score in split conformal prediction, we introduce SOCOP.", short_name="SOCOP",
         status=Status.READ, tags=("uq", "must-read")),
    view("occ", "Rebenchmarking Unsupervised Monocular 3D Occupancy Prediction", "Occupancy from one camera.",
         year=2025, venue="NeurIPS 2025"),
    view("author", "A Survey of Everything", "Broad.", authors=("Ada Lovelace",)),
    view("latex", r"$\alpha$-Divergence Bounds", r"We bound the \textbf{divergence} of $\mathcal{D}$.", year=None),
    view("reason", "Reasoning with Large Language Models", "Chain of thought reasoning in LLMs.",
         tags=("LLM",), notes="Compare with the muon paper's scaling section."),
]


@pytest.fixture()
def index() -> SearchIndex:
    return SearchIndex.build(PAPERS)


def ids(hits):
    return [h.id for h in hits]


def test_tokens_lower_case_split_punctuation_and_drop_latex_commands():
    assert tokens(r"Log-Linear \textbf{Attention} in $\mathcal{O}(n)$, 3D") == ["log", "linear", "attention", "in", "o", "n", "3d"]


def test_hits_are_named_tuples_with_id_score_matched(index):
    hit = index.search("muon")[0]
    assert isinstance(hit, Hit)
    assert hit.id == "muon" and hit.score > 0 and hit.matched == ("muon",)


def test_typo_finds_the_word(index):
    hits = index.search("attenton")
    assert ids(hits)[0] in {"lla", "soft"}
    assert hits[0].matched == ("attention",)
    assert index.search("optimzer")[0].id == "muon"


def test_transposition_counts_as_one_edit(index):
    assert index.search("singelton")[0].id == "socop"


def test_prefixes_of_partial_words(index):
    hits = index.search("log-lin atten")
    assert hits[0].id == "lla"
    assert hits[0].matched == ("log", "linear", "attention")
    assert index.search("occup")[0].id == "occ"


def test_short_words_are_not_fuzzy(index):
    assert index.search("3d")[0].id == "occ"
    assert ids(index.search("4d")) == []


def test_words_are_anded(index):
    assert ids(index.search("conformal singleton")) == ["socop"]
    assert "muon" not in ids(index.search("attention linear"))


def test_no_common_paper_falls_back_to_ranked_or(index):
    hits = index.search("muon xylophonically")
    assert hits.partial
    assert hits[0].id == "muon"
    assert not index.search("muon optimizer").partial


def test_title_beats_keyword_beats_abstract(index):
    order = ids(index.search("linear attention"))
    assert order.index("lla") < order.index("kw") < order.index("abs")


def test_author_and_short_name_are_searched(index):
    assert index.search("lovelace")[0].id == "author"
    assert index.search("socop")[0].id == "socop"


def test_whole_query_title_similarity_breaks_ties(index):
    assert index.search("conformal prediction singleton optimized")[0].id == "socop"


def test_phrase_and_exclusion(index):
    hits = index.search('"linear attention" -softmax')
    assert set(ids(hits)) == {"abs", "kw"}
    assert ids(index.search('"attention is all"')) == ["soft"]
    assert ids(index.search('"linear atten"'))[0] == "lla"  # a phrase may end mid-word
    assert "soft" not in ids(index.search('attention -"softmax attention"'))


def test_exclusion_alone_keeps_list_order(index):
    hits = index.search("-attention")
    assert ids(hits) == [p.id for p in PAPERS if "attention" not in (p.title + p.abstract + " ".join(p.keywords)).lower()]
    assert all(h.score == 0 for h in hits)


def test_filters_only_keep_original_order_with_zero_scores(index):
    hits = index.search("year:2026")
    assert ids(hits) == [p.id for p in PAPERS if p.year == 2026]
    assert {h.score for h in hits} == {0.0}
    assert ids(index.search("")) == [p.id for p in PAPERS]
    assert ids(index.search("", limit=3)) == [p.id for p in PAPERS[:3]]


def test_status_year_venue_and_is_filters(index):
    assert ids(index.search("status:to-read year:2026")) == ["muon"]
    assert ids(index.search("status:read")) == ["socop"]
    assert "muon" not in ids(index.search("-status:to-read"))
    assert ids(index.search("venue:neurips")) == ["occ"]
    assert ids(index.search("year:..2025")) == ["occ"]
    assert ids(index.search("is:marked", marked={"occ", "lla", "nope"})) == ["lla", "occ"]
    assert ids(index.search("is:tagged")) == ["muon", "socop", "reason"]
    assert ids(index.search("is:noted")) == ["reason"]


def test_tag_filter_is_exact_and_case_insensitive(index):
    assert ids(index.search("tag:llm reasoning")) == ["reason"]
    assert ids(index.search("tag:LLM")) == ["reason"]
    assert ids(index.search("tag:ll")) == []
    assert "socop" not in ids(index.search("-tag:uq"))


def test_tags_and_notes_are_searched_as_text(index):
    hits = index.search("must")
    assert hits[0].id == "socop" and hits[0].matched == ("must-read",)
    assert "reason" in ids(index.search("scaling section"))


def test_tag_ranks_above_abstract(index):
    index.update(view("abs", "Efficient Sequence Models", "Our method uses linear attention.", tags=("hierarchical",)))
    hits = ids(index.search("hierarchical"))
    assert hits[0] == "abs"


def test_update_refreshes_dynamic_fields(index):
    assert ids(index.search("tag:favourite")) == []
    index.update(view("occ", "Rebenchmarking Unsupervised Monocular 3D Occupancy Prediction",
                      status=Status.READING, tags=("Favourite",), notes="great baselines"))
    assert ids(index.search("tag:favourite")) == ["occ"]
    assert ids(index.search("status:reading")) == ["occ"]
    assert index.search("baselines")[0].id == "occ"
    index.update(view("occ", "Rebenchmarking Unsupervised Monocular 3D Occupancy Prediction"))
    assert ids(index.search("tag:favourite")) == []
    assert ids(index.search("baselines")) == []
    index.update(view("unknown", "Not indexed"))  # ignored


def test_add_and_remove(index):
    index.add([view("new", "GeoPurify: Geometric Distillation", "Open-vocabulary 3D segmentation.")])
    assert index.search("geopurfy")[0].id == "new"
    assert len(index) == len(PAPERS) + 1
    index.add([view("new", "Renamed Paper", "Nothing.")])  # same id replaces
    assert ids(index.search("geopurify")) == []
    assert index.search("renamed")[0].id == "new"
    index.remove(["new", "muon"])
    assert "muon" not in ids(index.search("muon"))
    assert ids(index.search("renamed")) == []
    assert len(index) == len(PAPERS) - 1


def test_latex_titles_are_searchable(index):
    assert index.search("divergence")[0].id == "latex"
    assert ids(index.search("textbf")) == []


def test_stopwords_are_dropped_unless_alone(index):
    assert index.search("the muon")[0].id == "muon"
    assert not index.search("the muon").partial


def test_deferred_abstracts_are_indexed_on_first_need():
    index = SearchIndex.build(PAPERS, abstracts=False)
    assert not index.abstracts_indexed
    assert ids(index.search("year:2025")) == ["occ"]  # filters do not need abstracts
    assert not index.abstracts_indexed
    assert index.search("orthogonalises")[0].id == "muon"
    assert index.abstracts_indexed


def test_limit_and_query_objects(index):
    assert len(index.search("attention", limit=2)) == 2
    assert ids(index.search(parse_query("muon"))) == ids(index.search("muon"))


def test_bad_query_text_raises_query_error(index):
    with pytest.raises(QueryError):
        index.search("foo:bar")


def test_search_while_updating_from_another_thread(index):
    errors = []

    def churn():
        try:
            for i in range(300):
                index.update(view("lla", "Log-Linear Attention", tags=(f"t{i}",), notes=f"n{i}"))
        except Exception as exc:  # pragma: no cover - the assertion reports it
            errors.append(exc)

    worker = threading.Thread(target=churn)
    worker.start()
    for _ in range(50):
        index.search("t1 attention")
        index.search("is:tagged")
    worker.join()
    assert not errors


def test_comma_separated_statuses_and_tags_match_any_of_them():
    index = SearchIndex.build([
        view("r", "Alpha", status=Status.READ, tags=("llm",)),
        view("t", "Beta", status=Status.TO_READ, tags=("rl",)),
        view("u", "Gamma", tags=("llm", "rl")),
    ])
    assert set(ids(index.search("status:read,to-read"))) == {"r", "t"}
    assert set(ids(index.search("tag:LLM,rl"))) == {"r", "t", "u"}
    assert set(ids(index.search("tag:llm tag:rl"))) == {"u"}  # two fields: both
    assert set(ids(index.search("-status:read,to-read"))) == {"u"}


def test_the_expansion_cache_keeps_the_newest_expansions_up_to_its_size(monkeypatch):
    """Each cached expansion holds two arrays over the whole list: the cache keeps a fixed
    number of them, the newest."""
    from reader_tui.core.search import scoring

    monkeypatch.setattr(scoring, "_CACHE_SIZE", 4)
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta", "kappa"]
    index = SearchIndex.build([view(f"p{i}", f"{' '.join(words)} paper {i}") for i in range(40)])
    for word in words:
        index.search(word)
    assert len(index._cache) == 4
    assert ("kappa", True) in index._cache and ("alpha", True) not in index._cache  # the newest stay
    assert len(index.search("kappa")) == 40  # and still answers


def test_a_filters_ranking_keeps_the_allowed_hits_as_its_search_hits_do(index):
    from reader_tui.core.search.filters import ListFilter

    chosen = ListFilter(search="attention")
    allowed = {"kw", "abs"}
    hits = chosen.search_hits(index, allowed)
    ranking = chosen.ranking(index, allowed)
    assert ranking.ids == [h.id for h in hits] and set(ranking.ids) == allowed
    assert ranking.matched == [h.matched for h in hits] and ranking.complete == hits.complete


def test_a_long_pasted_text_gets_each_hits_matched_words_too():
    # thirty words, each matching several vocabulary words: too many combinations to
    # number as one integer, so the rows are compared instead
    words = [f"w{i}" for i in range(30)]
    papers = [view(f"p{i}", " ".join(f"{w}{suffix}" for w in words for suffix in ("", "a", "b", "c")) + f" n{i}")
              for i in range(3)]
    index = SearchIndex.build(papers)
    hits = index.search(" ".join(words))
    assert {h.id for h in hits} == {"p0", "p1", "p2"}
    assert all(len(h.matched) == 30 and set(h.matched) <= {f"{w}{s}" for w in words for s in ("", "a", "b", "c")}
               for h in hits)


def test_prepare_for_queries_makes_the_keyword_table_the_first_query_would(index):
    assert index._keywords is None
    index.prepare_for_queries()
    assert index._keywords  # made, and kept for the queries
    assert ids(index.search("linear attention"))  # which still answer


def test_papers_added_while_a_search_runs_wait_for_it_and_are_found_after(index, monkeypatch):
    # `add` (a title edited, on the UI thread) during a search in a worker: the search
    # reads arrays over every paper, so the add waits, and no expansion of the old size
    # is kept for the next search
    from reader_tui.core.search import scoring

    real = scoring.Matching._expand
    adding: list[threading.Thread] = []

    def expand_while_adding(self, word, last=True):
        if not adding:
            adding.append(threading.Thread(target=index.add, args=([view("new", "Linear attention revisited")],)))
            adding[0].start()
            adding[0].join(0.2)  # (it waits for the search's lock)
        return real(self, word, last)

    monkeypatch.setattr(scoring.Matching, "_expand", expand_while_adding)
    first = ids(index.search("linear"))
    adding[0].join()
    assert "new" not in first
    for query in ("linear", "linear year:2026", "linear -softmax"):
        assert "new" in ids(index.search(query)), query



def test_a_filters_ranking_counts_the_kept_hits_that_have_every_word(index):
    from reader_tui.core.search.filters import ListFilter

    query = "linear attention softmax log"
    ranking = index.rank(query)
    lacking = [pid for pid, whole in zip(ranking.ids, ranking.whole) if not whole]
    assert ranking.complete == 1 and lacking  # one hit has every word, another lacks one
    kept = ListFilter(search=query).ranking(index, set(lacking))
    assert kept.ids == lacking and kept.complete == 0  # (it said 1: the count before the filter)
