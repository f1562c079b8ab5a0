"""Articles and chunks render as the help centre shows them (js/markdown.js): headings,
lists and tables as elements, with the query-term matches, the chunk's span and the
cited quote still on the right characters. Screenshots go to test-artifacts/."""

from __future__ import annotations

import os

from helpers import assert_renders, docs, marked, rendered, shown_in
from test_browser import ask_in_ui, native_ask

FEE_QUESTION = "What is the cash out fee at an agent?"
BANGLA_QUESTION = "এজেন্টের কাছে ক্যাশ আউট করলে চার্জ কত?"


def open_cited_article(page, native: dict, doc_id: str) -> dict:
    cited = next(c for c in native["chunks"] if c["doc"] == doc_id)
    page.click(f'#chunks > li[data-id="{cited["id"]}"] .open-article')
    page.wait_for_selector(f'#article-dialog[open] #article-body[data-doc="{doc_id}"]')
    return cited


def expected_table(text: str) -> list[list[str]]:
    """The first table of Markdown `text` as the rows and cells it should render to."""
    lines = text.split("\n")
    rule = next(i for i, line in enumerate(lines) if line.startswith("|---"))
    rows = []
    for i in range(rule - 1, len(lines)):
        if i != rule:
            if not lines[i].startswith("|"):
                break
            tag = "TH" if i < rule else "TD"
            rows.append([f"{tag}:{cell.strip()}" for cell in lines[i].strip().strip("|").split("|")])
    return rows


def table_of(page, selector: str) -> list[list[str]]:
    return page.eval_on_selector(selector, "t => [...t.rows].map(r => [...r.cells].map(c => c.tagName + ':' + c.textContent))")


def test_fee_table_and_headings_render_as_elements_in_chunks_and_article(app_page, artifacts_dir):
    app_page.click("#lang-en")
    ask_in_ui(app_page, FEE_QUESTION)
    native = native_ask(FEE_QUESTION)
    # Every chunk shown: no Markdown source left in sight, every character where Python put it.
    for chunk in native["chunks"]:
        item = f'#chunks > li[data-id="{chunk["id"]}"] .chunk-text'
        shown = rendered(app_page, item)
        assert_renders(shown, chunk["text"])
        assert marked(shown, "match") == {i for s, e in chunk["matches"] for i in range(s, e)}
        text = app_page.text_content(item)
        assert "|---" not in text and "## " not in text
    table_chunk = next(c for c in native["chunks"] if c["doc"] == "en-cash-out" and "|---|" in c["text"])
    rows = table_of(app_page, f'#chunks > li[data-id="{table_chunk["id"]}"] table')
    assert rows == expected_table(table_chunk["text"]) and len(rows) >= 3
    app_page.evaluate("() => document.fonts.ready")
    app_page.screenshot(path=os.path.join(artifacts_dir, "markdown-chunks-en.png"), full_page=True)

    cited = open_cited_article(app_page, native, "en-cash-out")
    doc = next(d for d in docs() if d.id == "en-cash-out")
    shown = rendered(app_page, "#article-body")
    assert_renders(shown, doc.text)
    assert marked(shown, "chunk") == shown_in(shown, cited["start"], cited["end"])
    headings = app_page.eval_on_selector_all("#article-body .md-h", "hs => hs.map(h => h.tagName + ':' + h.textContent)")
    assert headings[0] == f"H2:{doc.title}" and "H3:Cash out fee" in headings
    tables = app_page.eval_on_selector_all("#article-body table", "ts => ts.length")
    assert tables == sum(line.startswith("|---") for line in doc.text.split("\n")) >= 2
    assert table_of(app_page, "#article-body table") == expected_table(doc.text)
    app_page.screenshot(path=os.path.join(artifacts_dir, "markdown-article-en.png"))
    app_page.keyboard.press("Escape")


def test_bangla_numbered_list_and_table_keep_the_quote_on_its_characters(app_page, artifacts_dir):
    app_page.click("#lang-bn")
    ask_in_ui(app_page, BANGLA_QUESTION)
    native = native_ask(BANGLA_QUESTION)
    assert any(c["doc"] == "bn-cash-out" for c in native["chunks"])
    cited = open_cited_article(app_page, native, "bn-cash-out")
    doc = next(d for d in docs() if d.id == "bn-cash-out")
    shown = rendered(app_page, "#article-body")
    assert_renders(shown, doc.text)
    assert marked(shown, "chunk") == shown_in(shown, cited["start"], cited["end"])
    quoted = set()
    for q in native["quotes"]:
        if q["doc"] == doc.id:
            quoted |= shown_in(shown, q["start"], q["end"])
    assert quoted <= marked(shown, "evidence")
    # The steps are an ordered list whose numbers stay in Bangla digits, as written.
    steps = app_page.eval_on_selector_all("#article-body ol.md-list > li", "ls => ls.map(l => l.textContent)")
    assert [s[:2] for s in steps[:5]] == ["১.", "২.", "৩.", "৪.", "৫."]
    assert steps[0] == "১. অ্যাপ খুলে \"ক্যাশ আউট\" বেছে নিন।"
    assert table_of(app_page, "#article-body table") == expected_table(doc.text)
    assert expected_table(doc.text)[0] == ["TH:কোথা থেকে তুলবেন", "TH:চার্জ"]
    app_page.evaluate("() => document.fonts.ready")
    app_page.screenshot(path=os.path.join(artifacts_dir, "markdown-article-bn.png"))
    app_page.keyboard.press("Escape")
    app_page.click("#lang-en")


RENDER = """async ([text, ranges]) => {
  const { renderMarkdown } = await import('./js/markdown.js');
  const root = renderMarkdown(text, ranges);
  document.body.append(root);
  root.id = 'md-probe';
  return root.innerHTML.length;
}"""


def test_partial_blocks_and_astral_characters_keep_offsets(app_page):
    """A chunk that starts inside a table or a list still renders; an emoji (two UTF-16
    units, one code point) before a highlight does not shift it."""
    text = "| Tk 1,000 | Tk 18.50 |\n|---|---|\n\n- Pay 😀 the fee\n2. Then confirm\n\n## Limits 😀 here\nUp to Tk 25,000."
    fee = text.index("fee")  # Python counts code points: the emoji before it counts once
    ranges = [{"start": fee, "end": fee + 3, "className": "match", "mark": True},
              {"start": 0, "end": 6, "className": "chunk", "mark": True}]
    app_page.evaluate(RENDER, [text, ranges])
    try:
        shown = rendered(app_page, "#md-probe")
        assert_renders(shown, text)
        assert [m[3] for m in shown["marks"]] == ["Tk 1", "fee"]
        assert app_page.eval_on_selector("#md-probe", "r => [...r.children].map(c => c.tagName).join(' ')") == \
            "DIV UL OL H3 P"  # "##" is one below the article title's <h2>
    finally:
        app_page.evaluate("() => document.getElementById('md-probe').remove()")
