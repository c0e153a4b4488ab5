"""A spy for the tests that ask how a function was called: it calls the function as it was and records what each call
asked for."""
from __future__ import annotations


def spy_on(monkeypatch, owner, name: str, key: str, default=None) -> list:
    """Replace ``owner.name`` (by ``monkeypatch``, undone after the test) with a function that records each call's
    keyword argument ``key`` (``default`` where the call does not give it) in the list returned, then calls the
    function it replaced."""
    seen = []
    real = getattr(owner, name)

    def spy(*args, **kwargs):
        seen.append(kwargs.get(key, default))
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, spy)
    return seen
