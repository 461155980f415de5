"""The map's background tiles, if the Town has a tile server (settings `FOGCONTROL_MAP_TILE_URL`
and `FOGCONTROL_MAP_TILE_ATTRIBUTION`): none by default, and then nothing is fetched from the
internet. With one, the map page's CSP lets images come from its origin, and from nowhere else."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings


@dataclass(frozen=True)
class Tiles:
    url: str = ""
    attribution: str = ""
    origin: str = ""  # the CSP source the tiles come from: scheme://host[:port]; `{s}` becomes `*`


def tile_origin(url: str) -> str:
    """`https://{s}.tile.example.org/{z}/{x}/{y}.png` -> `https://*.tile.example.org`; "" for a URL
    that is not http(s) with a host (the map then shows no tiles rather than a broken policy)."""
    parts = urlsplit(url.replace("{s}", "s-placeholder"))
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return ""
    host = parts.netloc.rsplit("@", 1)[-1].replace("s-placeholder", "*")
    return f"{parts.scheme}://{host}"


def tile_settings() -> Tiles:
    url = getattr(settings, "FOGCONTROL_MAP_TILE_URL", "")
    origin = tile_origin(url) if url else ""
    if not origin:
        return Tiles()
    return Tiles(url=url, attribution=getattr(settings, "FOGCONTROL_MAP_TILE_ATTRIBUTION", ""), origin=origin)
