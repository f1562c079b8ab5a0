"""Offline-first: the service worker keeps the whole app, a reload works with the network gone,
and a new deployment waits for the user's Reload instead of mixing two versions' files.

One page walks through it in order, because each start of Pyodide is the slow part: the app
is saved (and installable), the server is stopped and the network blocked, a reload answers
a Bangla question with the semantic served default byte for byte as native Python does; then
a second deployment with one changed file is served at the same address, and the page keeps
the first version (a reload included) until Reload is pressed, then runs the second whole.
The deployment is a copy of dist/ served by build.py's own server, which records what the
browser asked it for.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import threading

import pytest

from raglab.pipeline import Config
from test_browser import BANGLA_QUESTION, read_result

READY_MS = 180_000
CHANGED = "js/i18n.js"  # the one file the second deployment changes
OLD_TAGLINE = b'"app.tagline": "Ask the help centre'
NEW_TAGLINE = b'"app.tagline": "Second deployment. Ask the help centre'


class Deployment:
    """A copy of dist/ served on loopback by build.py's server, at one fixed address across
    stops and starts; `requests` lists the paths the browser asked the server for."""

    def __init__(self, build_module, root: str):
        self.build = build_module
        self.root = root
        self.requests: list[str] = []
        self.port = 0
        self.server = None

    def start(self) -> None:
        server = self.build.make_server(self.root, self.port)
        made = server.RequestHandlerClass  # functools.partial(Handler, directory=...)
        requests = self.requests

        class Recording(made.func):
            def do_GET(self):
                requests.append(self.path.split("?")[0])
                super().do_GET()

        server.RequestHandlerClass = functools.partial(Recording, *made.args, **made.keywords)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.server, self.port = server, server.server_port

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.server = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def read(self, rel: str) -> bytes:
        with open(os.path.join(self.root, *rel.split("/")), "rb") as fh:
            return fh.read()

    def manifest_sha256(self) -> str:
        return hashlib.sha256(self.read("manifest.json")).hexdigest()

    def redeploy(self, rel: str, data: bytes) -> None:
        """Change one file as a new build would: the file, its entry in manifest.json, sw.js."""
        manifest = json.loads(self.read("manifest.json"))
        manifest["files"][rel] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
        manifest_bytes = self.build.manifest_bytes(manifest)
        for name, body in ((rel, data), ("manifest.json", manifest_bytes),
                           ("sw.js", self.build.service_worker(manifest_bytes))):
            with open(os.path.join(self.root, *name.split("/")), "wb") as fh:
                fh.write(body)


@pytest.fixture(scope="module")
def site(build_module, dist_dir, tmp_path_factory):
    root = str(tmp_path_factory.mktemp("deployment") / "site")
    shutil.copytree(dist_dir, root, ignore=shutil.ignore_patterns("*.gz", "*.br"))  # served as they are
    deployment = Deployment(build_module, root)
    deployment.start()
    yield deployment
    if deployment.server:
        deployment.stop()


@pytest.fixture(scope="module")
def page(browser, site):
    context = browser.new_context(viewport={"width": 1100, "height": 1000}, locale="en-US", service_workers="allow")
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda err: page.problems.append(f"page error: {err}"))
    page.on("console", lambda msg: page.problems.append(f"console {msg.type}: {msg.text}")
            if msg.type == "error" else None)
    yield page
    context.close()


def wait_ready(page) -> None:
    page.wait_for_function("() => window.raglab && window.raglab.state !== 'starting'", timeout=READY_MS)
    state = page.evaluate("() => [window.raglab.state, window.raglab.failure || null]")
    assert state[0] == "ready", f"the app did not start: {state[1]}; problems: {page.problems[:5]}"


def wait_offline(page, state: str) -> dict:
    try:
        page.wait_for_function("s => window.raglab.offline && window.raglab.offline.state === s", arg=state,
                               timeout=READY_MS)
    except Exception:  # noqa: BLE001 - say what the page shows instead
        pytest.fail(f"the offline state never became {state!r}: {page.evaluate('() => window.raglab.offline')}",
                    pytrace=False)
    return page.evaluate("() => window.raglab.offline")


CACHED = """async () => {
    const names = await caches.keys();
    const out = {};
    for (const name of names) {
        const cache = await caches.open(name);
        out[name] = {};
        for (const request of await cache.keys()) {
            const response = await cache.match(request);
            out[name][new URL(request.url).pathname.slice(1)] = response.headers.get('x-raglab-sha256');
        }
    }
    return out;
}"""


def ask_bangla(page) -> dict:
    before = int(page.get_attribute("#result", "data-seq") or 0)
    page.fill("#question", BANGLA_QUESTION)
    page.press("#question", "Enter")
    page.wait_for_function("([seq, q]) => { const r = document.getElementById('result');"
                           " return Number(r.dataset.seq || 0) > seq && r.dataset.question === q; }",
                           arg=[before, BANGLA_QUESTION], timeout=READY_MS)
    return read_result(page)


def test_the_whole_app_is_saved_for_offline_use_and_can_be_installed(page, site):
    page.goto(site.url)
    wait_ready(page)
    status = wait_offline(page, "ready")
    manifest = json.loads(site.read("manifest.json"))
    assert status["version"] == site.manifest_sha256()
    # One cache, named after the deployment, holding every file it lists, each checked.
    cached = page.evaluate(CACHED)
    assert list(cached) == [f"raglab-{status['version'][:16]}"]
    files = cached[f"raglab-{status['version'][:16]}"]
    assert files.pop("manifest.json") == status["version"]
    assert files == {path: entry["sha256"] for path, entry in manifest["files"].items()}
    assert {"index.html", "js/worker.js", "pyodide/pyodide.asm.wasm", manifest["wheel"], manifest["snapshot"]["path"],
            manifest["encoder"]["model"]["path"], manifest["encoder"]["vectors"]["path"], manifest["goldens"],
            *manifest["corpus"]} <= set(files)
    assert status["bytes"] == sum(entry["bytes"] for entry in manifest["files"].values())
    # ...and the manifest lists every file of the build but its own description, the worker
    # script, the host's marker, source maps and precompressed copies.
    built = {os.path.relpath(os.path.join(folder, name), site.root).replace(os.sep, "/")
             for folder, _, names in os.walk(site.root) for name in names}
    assert set(manifest["files"]) == {p for p in built if p not in ("manifest.json", "sw.js", ".nojekyll")
                                      and not p.endswith(".map")}
    # Installable: Chromium finds nothing missing (web app manifest, icon, service worker). Its
    # one objection is the test's private context, which it reports beside any other.
    session = page.context.new_cdp_session(page)
    errors = [e["errorId"] for e in session.send("Page.getInstallabilityErrors")["installabilityErrors"]]
    assert errors == ["in-incognito"]
    assert session.send("Page.getAppManifest")["errors"] == []
    app = page.evaluate("() => fetch('app.webmanifest').then((r) => r.json())")
    assert app["start_url"] == "./" and app["display"] == "standalone" and app["icons"]
    assert page.problems == []


def test_with_the_network_gone_a_reload_answers_a_bangla_question_as_native(page, site, native_web, artifacts_dir):
    site.stop()
    page.context.set_offline(True)
    try:
        page.reload()
        wait_ready(page)
        info = page.evaluate("() => window.raglab.info")
        assert Config().retriever in info["semantic"], "this test asks with a semantic served default"
        shown = ask_bangla(page)
        native = json.loads(native_web.ask(BANGLA_QUESTION, "{}"))
        assert shown["config"] == native["config"] and shown["chunks"] == [c["id"] for c in native["chunks"]]
        assert shown["answer"] == (native["answer"] if not native["abstained"] else shown["answer"])
        raw = page.evaluate("q => window.raglab.raw('ask', q, {})", BANGLA_QUESTION)
        assert raw == native_web.ask(BANGLA_QUESTION, "{}")  # the same bytes
        assert wait_offline(page, "ready")["version"] == site.manifest_sha256()
        assert page.text_content("#offline-note") == "Offline: the page runs from the copy saved in this browser."
        page.wait_for_selector("#offline-note:not([hidden])")
        for lang in ("en", "bn"):
            page.click(f"#lang-{lang}")
            page.evaluate("() => document.fonts.ready")
            page.screenshot(path=os.path.join(artifacts_dir, f"offline-reload-{lang}.png"))
            page.click("#about-open")
            page.wait_for_selector("#about-dialog[open]")
            assert page.get_attribute("#about-offline", "data-state") == "ready"
            words = {"en": "Works offline", "bn": "অফলাইনে চলে"}[lang]
            assert page.text_content("#about-offline").startswith(words)
            page.screenshot(path=os.path.join(artifacts_dir, f"about-{lang}.png"))
            page.click("#about-close")
        page.click("#lang-en")
        assert page.problems == []
    finally:
        page.context.set_offline(False)


def test_a_new_deployment_waits_for_reload_and_never_mixes_versions(page, site, native_web, artifacts_dir):
    old_version = site.manifest_sha256()
    old_file = site.read(CHANGED)
    assert old_file.count(OLD_TAGLINE) == 1
    new_file = old_file.replace(OLD_TAGLINE, NEW_TAGLINE)
    site.redeploy(CHANGED, new_file)
    new_version = site.manifest_sha256()
    site.requests.clear()
    site.start()  # the same address: the same origin, the same service worker registration
    old_tagline = page.text_content(".tagline")

    assert page.evaluate("() => window.raglab.offline.lookForUpdate()") is True  # the site answers again
    assert page.is_hidden("#offline-note")
    page.wait_for_selector("#update:not([hidden])", timeout=READY_MS)
    assert page.text_content("#update span") == "A new version is ready — reload"
    # Saving the new version fetched only what changed; the rest was copied from the old one.
    assert set(site.requests) == {"/sw.js", "/manifest.json", f"/{CHANGED}"}, site.requests
    cached = page.evaluate(CACHED)
    assert sorted(cached) == sorted([f"raglab-{old_version[:16]}", f"raglab-{new_version[:16]}"])
    assert cached[f"raglab-{new_version[:16]}"][CHANGED] == hashlib.sha256(new_file).hexdigest()

    # Until Reload is pressed the page runs the old version only, a reload of its own included.
    assert page.evaluate("p => fetch(p).then((r) => r.text())", CHANGED) == old_file.decode()
    site.requests.clear()
    page.reload()
    wait_ready(page)
    assert page.text_content(".tagline") == old_tagline
    assert not set(site.requests) - {"/sw.js"}, f"the old version's reload fetched {site.requests}"
    page.wait_for_selector("#update:not([hidden])", timeout=READY_MS)
    assert page.evaluate("() => window.raglab.offline.version") == old_version
    page.screenshot(path=os.path.join(artifacts_dir, "update-prompt.png"))

    # Reload: the new version, whole; the old cache is gone.
    with page.expect_navigation(timeout=READY_MS):
        page.click("#update-reload")
    wait_ready(page)
    assert page.text_content(".tagline").startswith("Second deployment.")
    status = wait_offline(page, "ready")
    assert status["version"] == new_version
    assert list(page.evaluate(CACHED)) == [f"raglab-{new_version[:16]}"]
    assert page.evaluate("p => fetch(p).then((r) => r.text())", CHANGED) == new_file.decode()
    assert page.is_hidden("#update")
    assert ask_bangla(page)["chunks"] == [c["id"] for c in json.loads(native_web.ask(BANGLA_QUESTION, "{}"))["chunks"]]
    assert page.problems == []
