"""The dataset exports as pandas DataFrames with typed columns (the `pandas` extra:
`pip install 'tai-client[pandas]'`). Each column's dtype comes from the published schema
(_operations.EXPORT_COLUMNS): numbers Float64, counts Int64, flags boolean, dates datetime64,
text string; an empty cell is <NA>, never 0 or ""."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, Dict

import pandas as pd

from ._operations import EXPORT_COLUMNS

if TYPE_CHECKING:
    from .client import TaiClient


def _typed(frame: pd.DataFrame, dtypes: Dict[str, str]) -> pd.DataFrame:
    out = {}
    for column in frame.columns:
        raw = frame[column].replace("", pd.NA)
        kind = dtypes.get(column, "string")
        if kind in ("Float64", "Int64"):
            out[column] = pd.to_numeric(raw).astype(kind)
        elif kind == "boolean":
            out[column] = raw.map({"true": True, "false": False}).astype("boolean")
        elif kind == "date":
            out[column] = pd.to_datetime(raw, format="%Y-%m-%d")
        elif kind == "datetime":
            out[column] = pd.to_datetime(raw, utc=True)
        else:
            out[column] = raw.astype("string")
    return pd.DataFrame(out, columns=frame.columns)


def export_frame(client: "TaiClient", path: str, **params: Any) -> pd.DataFrame:
    """A dataset operation's CSV export (every row, as filtered by `params`) as a typed frame."""
    text = client.get(path, params, accept="text/csv").text
    raw = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    return _typed(raw, EXPORT_COLUMNS.get(path, {}))


def registry_frame(client: "TaiClient", **filters: Any) -> pd.DataFrame:
    """The registry (GET /v1/registry/assets, every asset the filters select), one row per asset."""
    return export_frame(client, "/v1/registry/assets", **filters)


def stablecoins_frame(client: "TaiClient", **filters: Any) -> pd.DataFrame:
    """The stablecoin table (GET /v1/market/stablecoins), one row per coin."""
    return export_frame(client, "/v1/market/stablecoins", **filters)


def mica_frame(client: "TaiClient", **filters: Any) -> pd.DataFrame:
    """MiCA indicators by member state (GET /v1/compliance/mica-status), one row per state."""
    return export_frame(client, "/v1/compliance/mica-status", **filters)
