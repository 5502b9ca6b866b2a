"""The client against the real server: every operation, paging, problems, a 429 waited out, signed
answers verified and tampered ones refused, a point-in-time read, the exports and DataFrames."""

from __future__ import annotations

import json
import re
import time
from typing import Any, Dict, List

import httpx
import pandas as pd
import pytest

from tai_client import (
    ApiError,
    NotFoundError,
    RateLimitError,
    SignatureError,
    TaiClient,
    models,
)
from tai_client.frames import registry_frame, stablecoins_frame

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def test_key_and_base_url_from_the_environment(base_url: str, monkeypatch) -> None:
    monkeypatch.setenv("TAI_BASE_URL", base_url + "/")
    monkeypatch.setenv("TAI_API_KEY", "DEMO_KEY")
    with TaiClient() as c:
        assert c.base_url == base_url
        assert c.get_system_status().data is not None
    monkeypatch.delenv("TAI_BASE_URL")
    with pytest.raises(ValueError, match="TAI_BASE_URL"):
        TaiClient()


def test_every_operation_typed(client: TaiClient, expect: Dict[str, Any]) -> None:
    page = client.list_registry_assets(asset_class="FUND", limit=5)
    assert isinstance(page, models.RegistryAssetsResponse)
    assert page.meta.dataset_version == expect["dataset_version"]
    assert page.meta.total == expect["funds"]
    assert len(page.data) == min(5, expect["funds"])
    assert all(a.tfin.startswith("TFIN-FUND-") for a in page.data)

    asset = client.get_registry_asset(tfin=expect["first_tfin"])
    assert isinstance(asset, models.RegistryAssetResponse)
    assert asset.data.tfin == expect["first_tfin"]

    market = client.get_stablecoin_market()
    assert isinstance(market, models.MarketStablecoinsResponse)
    assert len(market.data.stablecoins) == expect["stablecoins"]

    mica = client.get_mica_status()
    assert isinstance(mica, models.ComplianceMicaStatusResponse)

    status = client.get_system_status()
    assert isinstance(status, models.SystemStatusResponse)

    assert client.served_dataset_version == expect["dataset_version"]
    assert client.rate_limit is not None and client.rate_limit.policy == "demo"
    assert client.rate_limit.quota is not None and client.rate_limit.remaining < client.rate_limit.quota


def test_pages_through_the_whole_registry(client: TaiClient, expect: Dict[str, Any]) -> None:
    tfins = [a.tfin for a in client.iter_registry_assets(limit=50)]
    assert len(tfins) == expect["assets"]
    assert len(set(tfins)) == expect["assets"]
    funds = list(client.iter_registry_assets(asset_class="FUND", limit=7))
    assert len(funds) == expect["funds"]


def test_a_404_problem(client: TaiClient) -> None:
    with pytest.raises(NotFoundError) as caught:
        client.get_registry_asset(tfin="TFIN-DEBT-ETH-2099-0001")
    err = caught.value
    assert err.status == 404
    assert err.code == "asset_not_found"
    assert err.type and err.type.endswith("#asset_not_found")
    assert err.title and err.detail and "TFIN-DEBT-ETH-2099-0001" in err.detail
    assert err.request_id and UUID.match(err.request_id)
    assert err.request_id in str(err)


def test_a_400_problem_names_the_parameter(client: TaiClient) -> None:
    with pytest.raises(ApiError) as caught:
        client.list_registry_assets(limit=501)
    assert caught.value.status == 400
    assert caught.value.code == "invalid_parameter"
    assert '"limit"' in (caught.value.detail or "")


def test_no_key_is_a_401_problem(base_url: str) -> None:
    with TaiClient("", base_url) as anonymous, pytest.raises(ApiError) as caught:
        anonymous.get_stablecoin_market()
    assert caught.value.status == 401


def test_waits_out_a_429_as_retry_after_says(limited_url: str) -> None:
    waits: List[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        time.sleep(seconds)

    # The quota is 2 requests per 2 seconds: asking until a 429 has been waited out.
    with TaiClient("DEMO_KEY", limited_url, retries=3, sleep=sleep) as patient:
        for _ in range(20):
            assert patient.get_system_status().data is not None
            if waits:
                break
    assert waits and all(0 < w <= 2 for w in waits)

    # A client that does not wait gets the 429 as RateLimitError, with the problem and the wait.
    with TaiClient("DEMO_KEY", limited_url, max_retry_after=0) as hasty:
        with pytest.raises(RateLimitError) as caught:
            for _ in range(20):
                hasty.get_system_status()
    err = caught.value
    assert err.status == 429 and err.code == "rate_limited"
    assert err.retry_after is not None and 0 < err.retry_after <= 2
    assert hasty.rate_limit is not None and hasty.rate_limit.remaining == 0


def test_signed_answers_verify_with_the_kept_key_set(verifying: TaiClient, expect: Dict[str, Any]) -> None:
    verifying.list_registry_assets(limit=3)
    verifying.get_registry_asset(tfin=expect["first_tfin"])
    verifying.get_stablecoin_market()
    verifying.get_mica_status()
    verifying.get_system_status()
    verifying.export_stablecoin_market("csv")
    with pytest.raises(NotFoundError):  # a problem is signed and verified too
        verifying.get_registry_asset(tfin="TFIN-DEBT-ETH-2099-0001")
    assert verifying.keys.loads == 1

    # One call on an answer fetched by other means.
    res = httpx.get(
        verifying.base_url + "/v1/market/stablecoins",
        headers={"X-API-Key": "DEMO_KEY", "Accept-Encoding": "identity"},
    )
    assert verifying.verify(res) == expect["key_id"]


class Tampering(httpx.BaseTransport):
    """Delivers the server's answers with one change, as a man in the middle would."""

    def __init__(self, change: str) -> None:
        self.inner = httpx.HTTPTransport()
        self.change = change

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        res = self.inner.handle_request(request)
        body = res.read()
        headers = [(k, v) for k, v in res.headers.multi_items() if k.lower() != "content-length"]
        if request.url.path.startswith("/v1/"):
            if self.change == "body":
                body = body.replace(b'"dataset_version":"', b'"dataset_version":"0', 1)
            elif self.change == "header":
                headers = [(k, "2020-01-01.000000000000" if k.lower() == "dataset-version" else v) for k, v in headers]
        return httpx.Response(res.status_code, headers=headers, content=body)


@pytest.mark.parametrize("change", ["body", "header"])
def test_a_tampered_answer_is_refused(base_url: str, change: str) -> None:
    with TaiClient("DEMO_KEY", base_url, verify=True, transport=Tampering(change)) as c:
        with pytest.raises(SignatureError, match="Content-Digest" if change == "body" else "does not verify"):
            c.get_stablecoin_market()


def test_an_unpublished_key_is_refused(base_url: str) -> None:
    pinned = {"keys": [{"kty": "OKP", "crv": "Ed25519", "kid": "not-the-service", "x": "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"}]}
    with TaiClient("DEMO_KEY", base_url, verify=True, jwks=pinned) as c:
        with pytest.raises(SignatureError, match="not published"):
            c.get_system_status()


def test_a_point_in_time_read(client: TaiClient, expect: Dict[str, Any]) -> None:
    old = expect["old_version"]
    page = client.list_registry_assets(dataset_version=old, limit=500)
    assert page.meta.dataset_version == old
    assert page.meta.total == expect["old_assets"]
    # The Dataset-Version header names the release the answer comes from (signed with it).
    assert client.served_dataset_version == old
    assert client.list_registry_assets(limit=1).meta.total == expect["assets"]
    assert client.served_dataset_version == expect["dataset_version"]
    with pytest.raises(NotFoundError):
        client.list_registry_assets(dataset_version="2000-01-01.000000000000")


def test_the_csv_and_ndjson_exports(client: TaiClient, expect: Dict[str, Any]) -> None:
    csv = client.export_registry_assets("csv")
    lines = csv.strip("\r\n").splitlines()
    assert lines[0].startswith("tfin,")
    records = list(client.iter_ndjson(client.export_registry_assets("ndjson", asset_class="FUND")))
    assert len(records) == expect["funds"]
    assert all(r["asset_class"] == "FUND" for r in records)
    coins = client.export_stablecoin_market("ndjson")
    assert len(coins.strip().splitlines()) == expect["stablecoins"]
    states = client.export_mica_status("csv")
    assert states.startswith("iso,")


def test_dataframes_with_typed_columns(client: TaiClient, expect: Dict[str, Any]) -> None:
    coins = stablecoins_frame(client)
    assert len(coins) == expect["stablecoins"]
    assert str(coins["market_cap.value_usd"].dtype) == "Float64"
    assert str(coins["compliance_rating.points"].dtype) == "Int64"
    assert str(coins["market_cap.stale"].dtype) == "boolean"
    assert pd.api.types.is_datetime64_any_dtype(coins["as_of"])
    assert str(coins["mica.authorisation.status"].dtype) == "string"
    eur = coins[coins["peg_currency"] == "EUR"]
    assert len(eur) == expect["eur_stablecoins"]

    registry = registry_frame(client, asset_class="FUND")
    assert len(registry) == expect["funds"]
    assert str(registry["amount.value_usd"].dtype) == "Float64"
    assert registry["tfin"].is_unique
