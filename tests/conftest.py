"""Browser fixtures: build dist/, serve it on loopback, drive it with Chromium.

One browser, one context and one page serve the whole session, because starting
Pyodide is the slow part (seconds) and a question is fast (milliseconds).
Fixtures for browser tests (reuse them; they are lazy, so a test run without
browser tests never builds or starts anything):

- ``dist_dir``: dist/ built by build.py (incremental, so cheap when current).
- ``site_url``: dist/ served on 127.0.0.1 on a free port, from a background thread,
  with the page's CSP also sent as a header (so the worker runs under it too).
- ``browser``: Debian's Chromium (/usr/bin/chromium), launched by Playwright.
- ``browser_context``: the session's context (service workers blocked; see there).
- ``app_page``: the app, loaded and ready (Python started, corpus indexed), with
  ``window.raglab`` available; its raglab modules are checked to be byte-identical
  to py/raglab/ before any test uses it, so a stale wheel fails loudly.
- ``offsite_requests``: every request the page (or its worker) made outside the
  served origin, for tests that assert none.
- ``artifacts_dir``: test-artifacts/ (git-ignored) for screenshots.
- ``native_web``: raglab.web.api loaded natively with the same raw files the worker
  fetches, so ``native_web.ask(q, config_json)`` is the byte-exact reference for
  ``window.raglab.raw("ask", q, config)``.

A browser or Pyodide that fails to start is a test failure with a message that
says what to do, never a skip.
"""

from __future__ import annotations

import importlib.util
import json
import os

import pytest

# One BLAS thread: the suite already runs a process per core beside Chromium, and numpy's
# float64 reference (tests/e5_reference.py) with a thread per core on top ran 4-5x slower
# in wall time on a loaded 2-core machine (13 s against 2.4 s for 20 texts). Set before any
# test module imports numpy, which reads these once.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
READY_TIMEOUT_MS = 90_000  # a cold Pyodide start takes a few seconds; allow for a loaded machine


def _load_build_module():
    """build.py is a script at the repository root; load it as a module to share its code."""
    spec = importlib.util.spec_from_file_location("raglab_build", os.path.join(ROOT, "build.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def build_module():
    return _load_build_module()


@pytest.fixture(scope="session")
def dist_dir(build_module):
    try:
        build_module.setup_node()
        return build_module.build_site()
    except build_module.SetupError as err:
        pytest.fail(f"could not build dist/: {err}", pytrace=False)


@pytest.fixture(scope="session")
def site_url(build_module, dist_dir):
    server, url = build_module.serve_in_background(dist_dir)
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser(build_module):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Python Playwright is not installed; run `python3 build.py setup`", pytrace=False)
    manager = sync_playwright().start()
    options = build_module.browser_launch_options()
    try:
        chromium = manager.chromium.launch(**options)
    except Exception as err:  # noqa: BLE001 - any launch failure is reported the same way
        manager.stop()
        where = options.get("executable_path", "Playwright's own Chromium")
        pytest.fail(f"Chromium did not start ({where}): {str(err).splitlines()[0]}\n"
                    "Install it with `python3 build.py setup` (as root it runs "
                    "`apt-get install -y chromium fonts-noto-core`).", pytrace=False)
    yield chromium
    chromium.close()
    manager.stop()


@pytest.fixture(scope="session")
def browser_context(browser, site_url):
    # Service workers are blocked here: these tests watch and block the page's requests
    # (page.route), which a service worker answering from its cache would hide. The
    # offline tests (test_browser_offline.py) run the service worker in a context of their own.
    context = browser.new_context(viewport={"width": 1100, "height": 1400}, locale="en-US", service_workers="block")
    origin = site_url.rstrip("/")
    context.offsite = []
    # blob:<origin>/... is the worker's bootstrap, made in the page (client.js): local, not offsite.
    context.on("request", lambda r: context.offsite.append(r.url)
               if not (r.url == origin or r.url.startswith((origin + "/", f"blob:{origin}/"))) else None)
    yield context
    context.close()


@pytest.fixture(scope="session")
def offsite_requests(browser_context):
    """Requests outside the served origin so far (a live list)."""
    return browser_context.offsite


def native_module_hashes() -> dict:
    from raglab.web import api as web

    return json.loads(web.module_hashes())


@pytest.fixture(scope="session")
def app_page(browser_context, site_url):
    """The app, ready to answer. Console errors and CSP reports collect in page.problems."""
    page = browser_context.new_page()
    page.problems = []
    page.on("pageerror", lambda err: page.problems.append(f"page error: {err}"))
    page.on("console", lambda msg: page.problems.append(f"console {msg.type}: {msg.text}")
            if msg.type == "error" else None)
    page.goto(site_url)
    try:
        page.wait_for_function("() => window.raglab && window.raglab.state !== 'starting'", timeout=READY_TIMEOUT_MS)
    except Exception:  # noqa: BLE001
        pytest.fail(f"the app did not become ready within {READY_TIMEOUT_MS // 1000} s; "
                    f"problems seen: {page.problems[:5]}", pytrace=False)
    state = page.evaluate("() => [window.raglab.state, window.raglab.failure || null]")
    if state[0] != "ready":
        pytest.fail(f"Pyodide failed to start: {state[1]}; problems seen: {page.problems[:5]}", pytrace=False)
    browser_hashes = page.evaluate("() => window.raglab.moduleHashes()")
    native = native_module_hashes()
    if browser_hashes != native:
        differ = sorted(k for k in set(browser_hashes) | set(native) if browser_hashes.get(k) != native.get(k))
        pytest.fail(f"the wheel in dist/ is stale or incomplete (differs in {', '.join(differ)}); "
                    "run `python3 build.py build`", pytrace=False)
    yield page
    page.close()


@pytest.fixture(scope="session")
def artifacts_dir():
    path = os.path.join(ROOT, "test-artifacts")
    os.makedirs(path, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def native_web():
    from raglab.corpus.articles import read_corpus_files
    from raglab.web import api as web

    files = read_corpus_files(os.path.join(ROOT, "corpus"))
    with open(os.path.join(ROOT, "goldens", "questions.jsonl"), encoding="utf-8") as fh:
        web.load("bundled", json.dumps(files), fh.read(), "questions.jsonl")
    return web


@pytest.fixture(scope="session", autouse=True)
def bundled_analysis():
    """The bundled corpus's analysis from the table the CLI keeps (prebuilt.install_cached),
    so the many pipelines tests build on it start without analysing every chunk again. It
    only saves time: a text the table lacks is analysed as always, and test_prebuilt.py
    proves the table's tokens are a fresh analysis's."""
    from raglab.cli.inputs import ANALYSIS_CACHE
    from raglab.corpus.articles import bundled_corpus_dir, load_corpus
    from raglab.pipeline import Config
    from raglab.retrieval.prebuilt import install_cached

    install_cached(load_corpus(bundled_corpus_dir()), Config().chunker, ANALYSIS_CACHE)


# The quick tier (`python3 build.py test --quick`) leaves out what needs Chromium and the
# few tests marked slow; everything else runs in both tiers.
BROWSER_FIXTURES = {"dist_dir", "site_url", "browser", "browser_context", "app_page"}


# Run first, longest first: when the suite is spread over processes (a file per process,
# `build.py test`, which keeps this order) the short files then fill the gaps, instead of one
# long file (the results grid, the answerer's re-fit) starting last and running alone. Each
# process is handed two files at the start: the third goes after the parity tests, to the
# process whose Chromium and page are already up, so it is a browser file.
LONGEST_FIRST = ("test_parity.py", "test_parity_engine.py", "test_compare.py", "test_browser_boundary.py", "test_fit_answerer.py",
                 "test_browser_evaluate.py", "test_docs.py", "test_browser_details.py")
# Without the browser (`build.py test --quick`), the longest of the rest go next, most CPU time
# first: in name order the answer review and the Evaluate tab's run (about ten seconds each)
# came last, one process running them alone while the other had finished.
QUICK_LONGEST_NEXT = ("test_bad_input.py", "test_review.py", "test_bounds.py", "test_web_evaluate.py", "test_retrievers.py",
                      "test_quotes.py", "test_cluster.py", "test_fuzz.py", "test_encoder.py", "test_cli.py")


def _browser_left_out(config) -> bool:
    """Whether `-m` leaves the browser tests out (this hook runs before it deselects them)."""
    try:
        from _pytest.mark.expression import Expression  # pytest's own reading of `-m`

        return bool(config.option.markexpr) and not Expression.compile(config.option.markexpr).evaluate(
            lambda name, **_: name == "browser")
    except Exception:  # noqa: BLE001 - only the order is at stake
        return False


def pytest_collection_modifyitems(config, items):
    order = LONGEST_FIRST + (QUICK_LONGEST_NEXT if _browser_left_out(config) else ())

    def rank(item) -> int:
        name = item.path.name
        return order.index(name) if name in order else len(order)

    items.sort(key=rank)  # stable: otherwise as collected
    for item in items:
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())) or item.path.name.startswith("test_browser"):
            item.add_marker(pytest.mark.browser)
