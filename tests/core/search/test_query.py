"""The query parser: fields, negation, phrases, and the errors shown while typing."""

import pytest

from reader_tui.core.search.query import Filter, Query, QueryError, parse_query, year_bounds


def test_empty_query_selects_everything():
    for text in ("", "   ", "-", " - "):
        query = parse_query(text)
        assert query.is_empty
        assert not query.has_text
        assert query.describe() == "all papers"


def test_free_words_keep_their_spelling():
    query = parse_query("Log-Lin  atten")
    assert query.terms == ("Log-Lin", "atten")
    assert query.has_text and not query.is_empty
    assert query.text == "Log-Lin  atten"


def test_fields_are_parsed_and_normalised():
    query = parse_query("tag:LLM status:To_Read is:marked year:2026 venue:ICLR reasoning")
    assert query.terms == ("reasoning",)
    assert query.filters == (
        Filter("tag", "llm"),
        Filter("status", "to-read"),
        Filter("is", "marked"),
        Filter("year", "2026"),
        Filter("venue", "iclr"),
    )


def test_field_names_are_case_insensitive_and_values_may_be_quoted():
    query = parse_query('TAG:"Must Read" Venue:"ICLR 2026"')
    assert query.filters == (Filter("tag", "must read"), Filter("venue", "iclr 2026"))


def test_negation_of_words_phrases_and_fields():
    query = parse_query('"linear attention" -softmax -"state space" -tag:done -status:read')
    assert query.phrases == ("linear attention",)
    assert query.excluded == ("softmax",)
    assert query.excluded_phrases == ("state space",)
    assert query.filters == (Filter("tag", "done", negated=True), Filter("status", "read", negated=True))
    assert not query.terms


def test_words_with_inner_hyphens_are_not_negations():
    assert parse_query("self-attention").terms == ("self-attention",)


def test_phrase_whitespace_is_collapsed_and_empty_phrases_dropped():
    query = parse_query('"  linear    attention " ""')
    assert query.phrases == ("linear attention",)


def test_unknown_field_is_an_error_with_a_position():
    with pytest.raises(QueryError) as err:
        parse_query("muon foo:bar")
    assert err.value.position == 5
    assert "foo:" in err.value.message and "tag:" in err.value.message
    assert "\n" not in err.value.message
    assert str(err.value) == err.value.message


def test_a_trailing_colon_is_punctuation_not_a_field():
    # a pasted title: "GeoPurify: A Data-Efficient ..."
    query = parse_query("GeoPurify: A Data-Efficient")
    assert query.terms == ("GeoPurify", "A", "Data-Efficient")


def test_non_alphabetic_prefixes_and_urls_are_free_text():
    assert parse_query("x2:y").terms == ("x2:y",)
    assert parse_query("https://openreview.net/forum?id=X").terms == ("https://openreview.net/forum?id=X",)


def test_colon_text_can_be_quoted():
    query = parse_query('"re:invent"')
    assert query.phrases == ("re:invent",)
    with pytest.raises(QueryError):
        parse_query("re:invent")


def test_a_field_still_being_typed_is_ignored():
    assert parse_query("tag:").is_empty
    assert parse_query("muon status:").terms == ("muon",)
    assert parse_query("muon status:").filters == ()


def test_unclosed_quote_is_an_error():
    with pytest.raises(QueryError) as err:
        parse_query('muon "linear atten')
    assert err.value.position == 5
    assert "quote" in err.value.message
    with pytest.raises(QueryError):
        parse_query('tag:"half open')


@pytest.mark.parametrize(
    "text, fragment",
    [("status:done", "unknown status"), ("is:red", "is:marked"), ("year:soon", "year:2026")],
)
def test_bad_field_values_are_errors(text, fragment):
    with pytest.raises(QueryError) as err:
        parse_query(text)
    assert fragment in err.value.message


def test_year_ranges():
    assert year_bounds("2026") == (2026, 2026)
    assert year_bounds("2024..2026") == (2024, 2026)
    assert year_bounds("..2020") == (0, 2020)
    assert year_bounds(">=2024") == (2024, 9999)
    assert year_bounds("<2020") == (0, 2019)
    assert parse_query("year:2024..2026").filters == (Filter("year", "2024..2026"),)


def test_str_round_trips_and_describe_summarises():
    text = 'muon "linear attention" -softmax tag:"must read" -status:read'
    query = parse_query(text)
    again = parse_query(str(query))
    assert (again.terms, again.phrases, again.excluded, again.filters) == (
        query.terms,
        query.phrases,
        query.excluded,
        query.filters,
    )
    assert parse_query("tag:llm").describe() == "filter: tag:llm"
    assert query.describe() == 'search: muon "linear attention" · filter: tag:"must read" -status:read · without: softmax'


def test_query_is_frozen_and_hashable():
    query = parse_query("tag:llm muon")
    with pytest.raises(AttributeError):
        query.terms = ()  # type: ignore[misc]
    assert hash(query) == hash(parse_query("tag:llm muon"))
    assert isinstance(query, Query)


def test_several_statuses_and_tags_after_one_field_are_any_of_them():
    query = parse_query("status:Read,to_read tag:llm,rl")
    assert query.filters == (Filter("status", "read,to-read"), Filter("tag", "llm,rl"))
    with pytest.raises(QueryError, match='unknown status "done"'):
        parse_query("status:read,done")
