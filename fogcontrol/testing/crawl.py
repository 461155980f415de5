"""A crawler for the test client: as one signed-in user, follow every same-origin link shown,
breadth-first from the home page, and report what a user would trip over (issue 19).

It never submits a form and never follows a link that acts (signing out). Routes that answer
large files (PDFs, CSV exports, the API schema and its docs) are fetched once per crawl session,
not once per record: `CrawlSession` is shared by the roles of one test.

A problem names the page that showed the link and the link, so a failure says where to look.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from html.parser import HTMLParser
from urllib.parse import urldefrag, urljoin, urlsplit

from django.urls import Resolver404, resolve

# Links that act rather than show: never followed.
SKIPPED_PREFIXES = ("/logout", "/accounts/logout", "/admin/", "/static/", "/media/")
# Routes that answer a file or a generated document: each URL name fetched once per session.
ONCE_MARKERS = ("pdf", "csv", "schema", "docs", "download", "export", "report", "template")
# Controls a person never fills in, so they need no label.
UNLABELLED_TYPES = {"hidden", "submit", "button", "reset", "image"}
# Attributes whose words a person reads or hears.
SHOWN_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt", "data-label")
# Elements without an end tag.
VOID_TAGS = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}
# Distinct pages of one URL name parsed per role: enough to see each kind of page's links with a
# few records, without walking every record of a list.
PAGES_PER_ROUTE = 2


@dataclasses.dataclass(frozen=True)
class Problem:
    role: str
    page: str  # the page that showed the link ("" for the home page)
    link: str
    what: str

    def __str__(self) -> str:
        shown_on = self.page or "(start)"
        return f"[{self.role}] {shown_on} → {self.link}: {self.what}"


@dataclasses.dataclass
class PageParts:
    links: list[tuple[str, str]]  # (href, visible text)
    unlabelled: list[str]  # a description of each control without a label
    count_text: str  # the text of the list's `.count` line, if the page has one
    # For the accessibility checks (tests/test_accessibility.py):
    ids: set[str] = dataclasses.field(default_factory=set)  # every id on the page
    # (aria-label of each <nav>, [(href, aria-current value or "") of each of its links])
    navs: list[tuple[str, list[tuple[str, str]]]] = dataclasses.field(default_factory=list)
    uncaptioned_tables: list[str] = dataclasses.field(default_factory=list)  # first header of each
    controls: list[dict] = dataclasses.field(default_factory=list)  # attrs of each fillable control
    # (id, text) of each message about one field (`.field-error`, a field's `.field-errors` or
    # `.errorlist`: the messages inside one of these are read as one)
    field_errors: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    # every id named by an aria-describedby (a control's, or a fieldset's for a group of choices)
    described: set[str] = dataclasses.field(default_factory=set)
    # What the Content-Security-Policy refuses (docs/security.md): each inline <script>, <style>,
    # `on…=` handler and `style="…"` attribute, described
    inline: list[str] = dataclasses.field(default_factory=list)
    # What a person reads (tests/test_spanish_pages.py): the text outside <script> and <style>, and
    # the words of the attributes a screen reader or a phone shows (labels, titles, placeholders,
    # the table cells' `data-label`, a button's value)
    text: str = ""
    # The text of the parts the page itself marks `lang="en"` (CSV column names, a link to the
    # English copy of a document, a working stored before its steps were kept to be said again)
    english_text: str = ""
    # Of that, what is a rules' working (inside `class="explanation"`): steps a reader of another
    # language is shown in English (docs/i18n.md, "The rules' workings")
    english_working: str = ""

    @property
    def first_link(self) -> str:
        """Where the page's first link leads: a skip link is the first thing a keyboard reaches."""
        return self.links[0][0] if self.links else ""


class _PageParser(HTMLParser):
    """Links, form controls and their labels, and the list's count line of one page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str]] = []
        self._link_href: str | None = None
        self._link_text: list[str] = []
        self.controls: list[dict] = []  # attrs of each control, plus "_in_label"
        self.label_for: set[str] = set()
        self._label_depth = 0
        self._count_depth = 0
        self.count_text = ""
        self.ids: set[str] = set()
        self.described: set[str] = set()
        self.navs: list[tuple[str, list[tuple[str, str]]]] = []
        self._nav_depth = 0
        self._tables: list[dict] = []  # open tables: {"caption": bool, "header": str, "in_th": bool}
        self.uncaptioned_tables: list[str] = []
        self.field_errors: list[tuple[str, str]] = []
        self._error: dict | None = None  # the field error being read: {"id", "text", "depth"}
        self.inline: list[str] = []
        self.text: list[str] = []
        self.english_text: list[str] = []
        self._hidden_depth = 0  # inside <script> or <style>
        self._english_depth = 0  # inside an element marked lang="en"
        self.english_working: list[str] = []
        self._working_depth = 0  # inside an element of class "explanation"

    def handle_starttag(self, tag, attrs):
        attributes = {name: (value or "") for name, value in attrs}
        classes = attributes.get("class", "").split()
        if attributes.get("id"):
            self.ids.add(attributes["id"])
        self.described.update(attributes.get("aria-describedby", "").split())
        self._read_structure(tag, attributes, classes)
        self._read_inline(tag, attributes)
        self._read_text(tag, attributes)
        if tag == "a" and attributes.get("href"):
            self._link_href, self._link_text = attributes["href"], []
            if self._nav_depth:
                self.navs[-1][1].append((attributes["href"], attributes.get("aria-current", "")))
        elif tag == "label":
            self._label_depth += 1
            if attributes.get("for"):
                self.label_for.add(attributes["for"])
        elif tag in ("input", "select", "textarea"):
            kind = attributes.get("type", "text").lower() if tag == "input" else tag
            if kind not in UNLABELLED_TYPES:
                self.controls.append(attributes | {"_tag": tag, "_in_label": self._label_depth > 0})
        if "count" in attributes.get("class", "").split() and not self.count_text:
            self._count_depth = 1
        elif self._count_depth:
            self._count_depth += 1

    def _read_structure(self, tag, attributes, classes):
        """Navigation landmarks, table captions and the messages about single fields."""
        if tag == "nav":
            if not self._nav_depth:
                self.navs.append((attributes.get("aria-label", ""), []))
            self._nav_depth += 1
        elif tag == "table":
            self._tables.append({"caption": False, "header": "", "in_th": False})
        elif tag == "caption" and self._tables:
            self._tables[-1]["caption"] = True
        elif tag == "th" and self._tables and not self._tables[-1]["header"]:
            self._tables[-1]["in_th"] = True
        if self._error is not None:
            self._error["depth"] += 1
        elif {"field-error", "field-errors", "errorlist"} & set(classes) and "nonfield" not in classes:
            self._error = {"id": attributes.get("id", ""), "text": "", "depth": 1}

    def _read_inline(self, tag, attributes):
        """Script and style written into the page rather than loaded from our static files."""
        if tag == "script" and not attributes.get("src"):
            self.inline.append("an inline <script>")
        elif tag == "style":
            self.inline.append("an inline <style>")
        self.inline += [f'<{tag} {name}="…">' for name in attributes if name.startswith("on")]
        if "style" in attributes:
            self.inline.append(f'<{tag} style="{attributes["style"]}">')

    def _read_text(self, tag, attributes):
        if tag in ("script", "style"):
            self._hidden_depth += 1
        if tag not in VOID_TAGS and tag != "html":
            if self._english_depth:
                self._english_depth += 1
            elif attributes.get("lang", "").lower().startswith("en"):
                self._english_depth = 1
            if self._working_depth:
                self._working_depth += 1
            elif "explanation" in attributes.get("class", "").split():
                self._working_depth = 1
        shown = [attributes.get(name, "") for name in SHOWN_ATTRIBUTES]
        if tag == "input" and attributes.get("type", "").lower() in ("submit", "button", "reset"):
            shown.append(attributes.get("value", ""))
        self._text_list().extend(f" {words} " for words in shown if words)

    def _text_list(self) -> list[str]:
        return self.english_text if self._english_depth else self.text

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._hidden_depth:
            self._hidden_depth -= 1
        if self._english_depth and tag not in VOID_TAGS:
            self._english_depth -= 1
        if self._working_depth and tag not in VOID_TAGS:
            self._working_depth -= 1
        if tag == "nav" and self._nav_depth:
            self._nav_depth -= 1
        elif tag == "table" and self._tables:
            table = self._tables.pop()
            if not table["caption"]:
                self.uncaptioned_tables.append(table["header"] or "(a table without headers)")
        elif tag == "th" and self._tables:
            self._tables[-1]["in_th"] = False
        if self._error is not None:
            self._error["depth"] -= 1
            if not self._error["depth"]:
                self.field_errors.append((self._error["id"], " ".join(self._error["text"].split())))
                self._error = None
        if tag == "a" and self._link_href is not None:
            self.links.append((self._link_href, " ".join("".join(self._link_text).split())))
            self._link_href = None
        elif tag == "label" and self._label_depth:
            self._label_depth -= 1
        if self._count_depth:
            self._count_depth -= 1

    def handle_data(self, data):
        if not self._hidden_depth:
            self._text_list().append(data)
            if self._english_depth and self._working_depth:
                self.english_working.append(data)
        if self._tables and self._tables[-1]["in_th"]:
            self._tables[-1]["header"] += data
        if self._error is not None:
            self._error["text"] += data
        if self._link_href is not None:
            self._link_text.append(data)
        if self._count_depth:
            self.count_text += data

    def unlabelled(self) -> list[str]:
        missing = []
        for control in self.controls:
            labelled = (
                control["_in_label"]
                or (control.get("id") and control["id"] in self.label_for)
                or control.get("aria-label", "").strip()
                or control.get("aria-labelledby", "").strip()
            )
            if not labelled:
                missing.append(
                    f"<{control['_tag']} name={control.get('name', '')!r} id={control.get('id', '')!r}>"
                )
        return missing


def parse_page(html: str) -> PageParts:
    parser = _PageParser()
    parser.feed(html)
    parser.close()
    return PageParts(
        links=parser.links,
        unlabelled=parser.unlabelled(),
        count_text=" ".join(parser.count_text.split()),
        ids=parser.ids,
        navs=parser.navs,
        uncaptioned_tables=parser.uncaptioned_tables,
        controls=parser.controls,
        field_errors=parser.field_errors,
        described=parser.described,
        inline=parser.inline,
        text=" ".join("".join(parser.text).split()),
        english_text=" ".join("".join(parser.english_text).split()),
        english_working=" ".join("".join(parser.english_working).split()),
    )


def _same_origin_path(base: str, href: str) -> str | None:
    """The path and query a link leads to on this site, or None for another site or a non-page."""
    href = href.strip()
    if not href or href.startswith(("#", "mailto:", "tel:", "javascript:")):
        return None
    absolute, _fragment = urldefrag(urljoin(f"http://testserver{base}", href))
    parts = urlsplit(absolute)
    if parts.scheme not in ("http", "https") or parts.netloc != "testserver":
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


def _route_name(path: str) -> str:
    try:
        match = resolve(urlsplit(path).path)
    except Resolver404:
        return path
    return match.view_name or match.route


@dataclasses.dataclass
class CrawlSession:
    """What the crawls of one test share: the file routes already fetched once."""

    fetched_once: set[str] = dataclasses.field(default_factory=set)
    pages_fetched: int = 0


@dataclasses.dataclass
class RoleCrawl:
    """One user's crawl. `empty_all_lists` holds (page, link) for each list reached from a link
    whose text begins "All" that showed a count of 0: the test knows whether that user should see
    records there."""

    role: str
    problems: list[Problem] = dataclasses.field(default_factory=list)
    visited: list[str] = dataclasses.field(default_factory=list)
    pages: dict[str, PageParts] = dataclasses.field(default_factory=dict)  # each HTML page parsed
    empty_all_lists: list[tuple[str, str]] = dataclasses.field(default_factory=list)


def crawl(
    client,
    *,
    role: str,
    session: CrawlSession,
    start: str = "/",
    cap: int = 150,
    pages_per_route: int = PAGES_PER_ROUTE,
) -> RoleCrawl:
    """Follow every link `client`'s user is shown, breadth-first from `start`, up to `cap` pages."""
    result = RoleCrawl(role=role)
    queue: deque[tuple[str, str, str]] = deque([("", start, "")])  # (shown on, link, link text)
    seen = {start}
    per_route: dict[str, int] = {}
    while queue and len(result.visited) < cap:
        shown_on, path, link_text = queue.popleft()
        route = _route_name(path)
        if "format=" in urlsplit(path).query:  # a list's CSV or XLSX (core/exports.py): a file
            route = f"{route} export"
        if any(marker in route.lower() or path.lower().endswith(f".{marker}") for marker in ONCE_MARKERS):
            if route in session.fetched_once:
                continue
            session.fetched_once.add(route)
        elif per_route.get(route, 0) >= pages_per_route:
            continue
        per_route[route] = per_route.get(route, 0) + 1
        response = client.get(path)
        session.pages_fetched += 1
        result.visited.append(path)
        status = response.status_code
        if status >= 500:
            result.problems.append(Problem(role, shown_on, path, f"answers {status}"))
            continue
        if status in (403, 404):
            result.problems.append(
                Problem(role, shown_on, path, f"the page showed this link, which answers {status}")
            )
            continue
        if status in (301, 302, 303, 307, 308):
            target = _same_origin_path(path, response["Location"])
            if target and target not in seen:
                seen.add(target)
                queue.append((shown_on, target, link_text))
            continue
        if not response.get("Content-Type", "").startswith("text/html"):
            continue
        parts = parse_page(response.content.decode(errors="replace"))
        result.pages[path] = parts
        for control in parts.unlabelled:
            result.problems.append(Problem(role, shown_on, path, f"form control without a label: {control}"))
        if link_text.lower().startswith("all ") and parts.count_text.startswith("0 "):
            result.empty_all_lists.append((shown_on, path))
        for href, text in parts.links:
            target = _same_origin_path(path, href)
            if target is None or target in seen or target.startswith(SKIPPED_PREFIXES):
                continue
            seen.add(target)
            queue.append((path, target, text))
    return result
