"""`Store` implements the backend protocol exactly (so another backend can replace it)."""

from __future__ import annotations

import inspect

from storage import Store
from storage.interface import StoreInterface
from tests.storage.conftest import Location, resolve_toy


def protocol_methods() -> list[str]:
    return [
        name
        for name, member in vars(StoreInterface).items()
        if inspect.iscoroutinefunction(member) and not name.startswith("_")
    ]


def test_store_methods_have_the_protocol_signatures() -> None:
    names = protocol_methods()
    assert len(names) >= 20
    for name in names:
        wanted = inspect.signature(getattr(StoreInterface, name))
        actual = inspect.signature(getattr(Store, name))
        assert list(actual.parameters) == list(wanted.parameters), name
        assert actual.return_annotation == wanted.return_annotation, name
        for param, spec in wanted.parameters.items():
            assert actual.parameters[param].kind == spec.kind, (name, param)
            assert actual.parameters[param].annotation == spec.annotation, (name, param)


async def test_an_open_store_is_a_store_interface(location: Location) -> None:
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        assert isinstance(store, StoreInterface)
