"""What the page tells the user: a run never starts on a partly read set of files, and
a failure reads as a sentence with the technical text behind a "details" toggle."""

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
        # the file list says what is chosen ("Loaded" belongs to the checked result above)
        listed = app_page.text_content("#own-files")
        assert f"{n} articles" in listed and not listed.startswith("Reading"), listed
        assert not app_page.is_disabled("#own-run")
    finally:
        app_page.evaluate("() => { File.prototype.arrayBuffer = window.__arrayBuffer; }")
        app_page.click("#own-clear")
        app_page.click("#tab-ask")


def test_a_fault_inside_python_reads_as_a_sentence_with_the_traceback_behind_details(app_page):
    """An input error keeps Python's own message (it says what to fix); a fault (here a
    number where text belongs, from a malformed call) gets a plain sentence, and the class name and the
    traceback's end go to `details`."""
    fault, bad_input = app_page.evaluate("""async () => {
      const grab = (p) => p.then(() => null, (e) => ({message: e.message, details: e.details, internal: e.internal, type: e.type}));
      return [await grab(window.raglab.raw('analyzeMany', [5])),
              await grab(window.raglab.ask('cash out fee', {k: 0}))];
    }""")
    assert fault["internal"] and fault["type"] in ("TypeError", "AttributeError")
    assert fault["type"] not in fault["message"] and "Try again" in fault["message"]
    assert fault["type"] in fault["details"] and 'File "' in fault["details"]
    assert not bad_input["internal"] and bad_input["type"] == "ValueError"
    assert bad_input["message"].startswith("k must be a whole number")
    assert "ValueError" in bad_input["details"]
