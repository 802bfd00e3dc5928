"""The packaged pages (firmware_host/web.py `PAGES`, `page_html`): every page of the table page and of the
virtual box is the one head with its title, stylesheet, scripts and texts from its folder's table, then its
body; no page holds a script that runs inline; every text a page shows exists in German and English."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

from firmware_host.league import service
from firmware_host.web import TEMPLATE, Page, page_html, pages, static_file

PAGE = resources.files("firmware_host.page")
FOLDERS = {"/static/": PAGE / "static", "/box/static/": PAGE / "box_assets"}  # where each URL's file is
ROWS = [(folder, name, row) for folder in FOLDERS.values() for name, row in pages(folder).items()]
IDS = [name for _, name, _ in ROWS]


def _file(url: str):
    prefix = next(p for p in sorted(FOLDERS, key=len, reverse=True) if url.startswith(p))
    return FOLDERS[prefix] / url[len(prefix):]


def _texts_block(text: str) -> object:
    match = re.search(r'<script type="application/json" id="texts">(.*?)</script>', text, re.S)
    assert match is not None
    return json.loads(match.group(1))


def test_the_table_page_and_the_box_have_their_five_pages_in_tables():
    assert sorted(IDS) == ["backup.html", "box.html", "index.html", "owner.html", "people.html"]


@pytest.mark.parametrize(("folder", "name", "row"), ROWS, ids=IDS)
def test_a_page_is_the_one_head_then_its_body_and_runs_only_the_servers_scripts(folder, name, row):
    served = static_file(folder, name, {}).body.decode()
    body = (folder / name).read_text(encoding="utf-8")
    head = TEMPLATE[:TEMPLATE.index("<title>")]
    assert served.startswith(head) and served.count("<head>") == served.count("<body>") == 1
    assert served.endswith(f"<body>\n{body}</body>\n</html>\n") and "<head>" not in body and "<html" not in body
    assert f"<title>{row.title}</title>" in served and f'<link rel="stylesheet" href="{row.style}">' in served
    scripts = re.findall(r"<script\s([^>]*)>", served)
    assert scripts == ['type="application/json" id="texts"', *(f'src="{src}" defer' for src in row.scripts)]
    assert row.scripts[0] == "/static/common.js"  # the shared helpers before the page's own script
    assert all(_file(url).is_file() for url in (row.style, *row.scripts))
    assert _texts_block(served) == json.loads((folder / row.texts).read_text(encoding="utf-8"))


@pytest.mark.parametrize(("folder", "name", "row"), ROWS, ids=IDS)
def test_every_text_a_page_shows_exists_in_german_and_in_english(folder, name, row):
    texts = json.loads((folder / row.texts).read_text(encoding="utf-8"))
    assert sorted(texts) == ["de", "en"] and set(texts["de"]) == set(texts["en"])
    assert all(text.strip() for lang in texts.values() for text in lang.values())
    body = (folder / name).read_text(encoding="utf-8")
    shown = set(re.findall(r'data-(?:t|ph)="(\w+)"', body))
    for url in row.scripts[1:]:  # the page's own script: the texts it names (common.js names e_default)
        shown |= set(re.findall(r'\bt\("(\w+)"', _file(url).read_text(encoding="utf-8")))
    assert shown and shown <= set(texts["de"])


def test_a_texts_block_holds_any_text_and_the_title_is_escaped(tmp_path: Path):
    texts = {"de": {"x": "</script><script>alert(1)</script> & <!--"}, "en": {"x": "ü {n}"}}
    (tmp_path / "t.json").write_text(json.dumps(texts), encoding="utf-8")
    (tmp_path / "p.html").write_text("<p data-t=\"x\"></p>\n", encoding="utf-8")
    served = page_html(tmp_path, "p.html", Page("a < b & c", "/s.css", ("/a.js",), "t.json"))
    assert _texts_block(served) == texts and served.count("</script>") == 2
    assert "<title>a &lt; b &amp; c</title>" in served


def test_a_folder_without_a_table_of_pages_serves_its_html_as_it_is():
    assert pages(service.STATIC) == {}
    assert static_file(service.STATIC, "index.html", {}).body == (service.STATIC / "index.html").read_bytes()
