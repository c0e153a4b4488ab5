"""The shipped JSON Schema (``analyzer/schemas/results.schema.json``) as a check the JSON tests call on what the tool
printed: :func:`check` raises on a document the schema does not accept."""
from __future__ import annotations

import functools

import jsonschema

from analyzer.schemas import schema


@functools.cache
def validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema())


def check(document) -> None:
    """Raise ``jsonschema.ValidationError`` (the first problem, its path) unless ``document`` is valid."""
    error = jsonschema.exceptions.best_match(validator().iter_errors(document))
    if error is not None:
        raise error
