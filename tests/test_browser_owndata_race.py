"""Your own data: a run never starts on a partly read set of files."""

from __future__ import annotations

SLOW_READS = """() => {
  window.__arrayBuffer = File.prototype.arrayBuffer;
  File.prototype.arrayBuffer = async function () {
    await new Promise((resolve) => setTimeout(resolve, 5));  // as a folder of a thousand files does
    return window.__arrayBuffer.call(this);
  };
}"""


def test_check_and_evaluate_waits_until_every_file_is_read(app_page):
    app_page.click("#lang-en")
    app_page.click("#tab-own")
    app_page.click("#own-clear")
    n = 300
    files = [{"name": f"a{i:03}.md", "mimeType": "text/markdown",
              "buffer": f"# Locker {i}\n\nLocker {i} costs Tk {i + 1} per day.\n".encode()} for i in range(n)]
    app_page.evaluate(SLOW_READS)
    try:
        app_page.set_input_files("#own-articles", files)
        disabled, label = app_page.evaluate(
            "() => [document.getElementById('own-run').disabled, document.getElementById('own-files').textContent]")
        assert disabled, "the button must wait while the files are read"
        assert label.startswith("Reading your files") and f"of {n}" in label
        # Enter in a form field submits even while the button is disabled: the run waits.
        app_page.evaluate("() => document.getElementById('own-form').requestSubmit()")
        app_page.wait_for_function(
            "() => /Loaded \\d+ articles/.test(document.getElementById('own-result').textContent)", timeout=60_000)
        assert f"Loaded {n} articles" in app_page.text_content("#own-result")
        assert app_page.text_content("#own-files").startswith(f"Loaded: {n} articles")
        assert not app_page.is_disabled("#own-run")
    finally:
        app_page.evaluate("() => { File.prototype.arrayBuffer = window.__arrayBuffer; }")
        app_page.click("#own-clear")
        app_page.click("#tab-ask")
