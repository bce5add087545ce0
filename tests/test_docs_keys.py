"""docs/keys.md kept true: its key tables are the bindings' own (made by
docs/make_keys.py), and every class with keys is listed there."""

from __future__ import annotations

import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def make_keys():
    spec = importlib.util.spec_from_file_location("make_keys", REPO / "docs" / "make_keys.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_keys_page_lists_every_binding_as_it_is() -> None:
    keys = make_keys()
    page = keys.PAGE.read_text(encoding="utf-8")
    assert keys.page(page) == page, "docs/keys.md disagrees with the bindings: run python docs/make_keys.py"


def test_every_class_with_keys_has_a_place_on_the_keys_page() -> None:
    keys = make_keys()
    placed = {name for _, names in keys.PLACES for name in names}
    with_keys = {name for name, cls in keys.binding_classes().items() if keys.own_bindings(cls)}
    assert with_keys - placed == set(), "add these classes to PLACES in docs/make_keys.py"
    assert placed - with_keys == set()


def test_every_key_of_every_binding_is_on_the_page() -> None:
    keys = make_keys()
    page = keys.PAGE.read_text(encoding="utf-8")
    for name, cls in keys.binding_classes().items():
        for binding in keys.own_bindings(cls):
            for key in binding.key.split(","):
                assert f"`{keys.key_name(key)}`" in page, (name, binding.id, key)
