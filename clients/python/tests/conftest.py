"""The servers the tests run against: started by test/integration/python-client.test.ts (the
built service as a real process, signing its answers) and named in the environment.

TAI_TEST_BASE_URL: a signing server with a generous quota; TAI_TEST_LIMITED_URL: one whose
DEMO_KEY quota is 2 requests per 2 seconds; TAI_TEST_EXPECT: a JSON file of what the built
dataset holds (counts, versions) to compare the answers with."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterator

import pytest

from tai_client import TaiClient


def _env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        pytest.skip(f"{name} is not set: run through test/integration/python-client.test.ts")
    return value


@pytest.fixture(scope="session")
def base_url() -> str:
    return _env("TAI_TEST_BASE_URL")


@pytest.fixture(scope="session")
def limited_url() -> str:
    return _env("TAI_TEST_LIMITED_URL")


@pytest.fixture(scope="session")
def expect() -> Dict[str, Any]:
    with open(_env("TAI_TEST_EXPECT"), encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture()
def client(base_url: str) -> Iterator[TaiClient]:
    with TaiClient("DEMO_KEY", base_url) as c:
        yield c


@pytest.fixture()
def verifying(base_url: str) -> Iterator[TaiClient]:
    with TaiClient("DEMO_KEY", base_url, verify=True) as c:
        yield c
