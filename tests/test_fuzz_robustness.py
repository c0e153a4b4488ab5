"""No input reaches a user as an internal error (issue 87): the importers (the Kozel video parser's JSON, yard
share codes, CSV move lists), the board's routes through Starlette's test client, and set-ups made and played on in
any order of the board's calls. Each input is built from the formats' own pieces and their real samples
(tests/data/import), mutated; every answer must be a record or the format's error at its place (an importer), a
JSON answer under 500 whose error is in words and never "please report it", with nothing logged as an internal
error (the board). bench/fuzz_campaign.py runs the same generators at the campaign's size."""
from __future__ import annotations

import json
import logging
import warnings

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fuzz_inputs import (board_bodies, check_import, check_link, check_record, csv_texts, kozel_texts, link_texts,
                         record_texts, route_sequences, run_sequence, yard_texts)

BOUNDED = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


@BOUNDED
@given(kozel_texts())
@example('{"format": "kozel-game-v1", "scoreLimit": 1' + "0" * 4300 + "}")
def test_the_kozel_importer_never_fails_inside(text):
    check_import("kozel-video", text)


@BOUNDED
@given(yard_texts())
@example("12230D")              # (the campaign's: three seats and a draw, which no cut-throat game of three has)
def test_the_yard_importer_never_fails_inside(text):
    check_import("yard", text)


@BOUNDED
@given(csv_texts())
def test_the_csv_importer_never_fails_inside(text):
    check_import("csv", text)


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(record_texts())
def test_the_record_reader_never_fails_inside(text):
    check_record(text)


@BOUNDED
@given(link_texts())
def test_the_link_reader_opens_a_record_or_says_why(text):
    check_link(text)


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory):
    pytest.importorskip("starlette")
    from conftest import board_client

    root = tmp_path_factory.mktemp("fuzz-records")
    with board_client([str(root)]) as client:
        yield client


class _Internal(logging.Handler):
    def __init__(self):
        super().__init__(logging.ERROR)
        self.records = []

    def emit(self, record):
        self.records.append(record)


def _answer_clean(route: str, response, logged: _Internal) -> dict:
    assert response.status_code < 500, (route, response.status_code, response.text[:300])
    data = response.json()
    error = data.get("error") if isinstance(data, dict) else None
    assert error is None or (isinstance(error, str) and "please report" not in error), (route, error)
    assert not logged.records, (route, [r.getMessage() for r in logged.records])
    return data


@BOUNDED
@given(board_bodies())
@example(("next", {"text": '[R""'}))                # (the findings, pinned)
@example(("setup", {"players": 1}))
@example(("variation", {"text": "", "line": ["B [0-1]", "[6-6]"], "game": 0}))      # (the campaign's, pinned)
def test_the_boards_routes_answer_any_body_in_words(fuzz_client, call):
    route, body = call
    logged = _Internal()
    logging.getLogger("analyzer.server").addHandler(logged)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            response = fuzz_client.post(f"/api/{route}", content=json.dumps(body),
                                        headers={"content-type": "application/json"})
        _answer_clean(route, response, logged)
    finally:
        logging.getLogger("analyzer.server").removeHandler(logged)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(route_sequences())
def test_set_ups_made_and_played_on_in_any_order_answer_in_words(fuzz_client, sequence):
    logged = _Internal()
    logging.getLogger("analyzer.server").addHandler(logged)
    try:
        def post(route, body):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                response = fuzz_client.post(f"/api/{route}", content=json.dumps(body),
                                            headers={"content-type": "application/json"})
            return _answer_clean(route, response, logged)
        run_sequence(sequence, post)
    finally:
        logging.getLogger("analyzer.server").removeHandler(logged)
