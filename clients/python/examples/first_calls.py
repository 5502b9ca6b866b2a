"""First calls with tai-client: run with TAI_BASE_URL and TAI_API_KEY set (DEMO_KEY works)."""

from tai_client import NotFoundError, SignatureError, TaiClient
from tai_client.frames import stablecoins_frame

# Key and base URL from the environment (TAI_API_KEY, TAI_BASE_URL), or pass them:
# TaiClient("DEMO_KEY", "https://api.example.org"). verify=True checks every answer's signature.
with TaiClient(verify=True) as tai:
    # One page of a filtered list: typed parameters, a typed answer.
    page = tai.list_registry_assets(asset_class="FUND", sort="-amount_usd", limit=5)
    print(f"{page.meta.total} funds in dataset {page.meta.dataset_version}")
    for asset in page.data:
        print(f"  {asset.tfin}  {asset.name}")

    # Every page: the iterator follows meta.next_cursor.
    tfins = [asset.tfin for asset in tai.iter_registry_assets(limit=100)]
    print(f"{len(tfins)} assets in the registry")

    # One asset; a problem (RFC 9457) is raised with its type, title, detail and request id.
    try:
        tai.get_registry_asset(tfin="TFIN-DEBT-ETH-2099-0001")
    except NotFoundError as err:
        print(f"{err.status} {err.title}: request {err.request_id}")

    # The quota of the latest answer: DEMO_KEY is the "demo" tier.
    if tai.rate_limit:
        print(f"rate limit: {tai.rate_limit.policy} tier, {tai.rate_limit.remaining} left")

    # A point-in-time read: answer as the release of this dataset version did.
    same = tai.list_registry_assets(dataset_version=page.meta.dataset_version, limit=1)
    print(f"point in time: {same.meta.dataset_version}")

    # The EUR stablecoins and their MiCA authorisation, as a DataFrame with typed columns.
    coins = stablecoins_frame(tai)
    eur = coins[coins["peg_currency"] == "EUR"][
        ["symbol", "issuer.name", "mica.classification", "mica.authorisation.status",
         "mica.authorisation.home_member_state", "market_cap.value_usd"]
    ].sort_values("market_cap.value_usd", ascending=False)
    print(eur.head(10).to_string(index=False))
    print(f"{(eur['mica.authorisation.status'] == 'authorised').sum()} of {len(eur)} EUR stablecoins authorised under MiCA")

    # The exports: CSV or NDJSON text of a dataset operation.
    csv = tai.export_mica_status("csv")
    print(f"mica-status.csv: {len(csv.splitlines()) - 1} member states")

    # Verification in one call, on an answer fetched by any means (body as sent).
    import httpx

    res = httpx.get(f"{tai.base_url}/v1/system/status",
                    headers={"X-API-Key": tai.api_key or "", "Accept-Encoding": "identity"})
    try:
        print(f"verified: signed by key {tai.verify(res)}")
    except SignatureError as err:
        print(f"refused: {err}")
