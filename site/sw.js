// raglab's service worker: the whole app kept in this browser, one deployment at a time.
//
// A deployment is named by the sha256 of its manifest.json, which lists every file the app
// uses with its sha256 and size ("files"). build.py writes that digest into the line below,
// so a new deployment is a new service worker script, which the browser notices on its own.
//
// install   fetch manifest.json (it must have the digest below) and then every file it lists
//           into the cache "raglab-<digest>", each checked against its sha256 and size. A
//           file whose digest an older raglab cache already holds is copied from there, so an
//           update downloads only what changed. A failed install leaves the running version
//           alone (the browser tries again later; the pages are told why) and is resumed where
//           it stopped.
// fetch     cache-first: a listed file is answered from this deployment's cache only, never
//           from another deployment's, so a page never mixes the files of two versions.
//           Anything else goes to the network untouched.
// waiting   a new deployment that finished installing waits until the page says "activate"
//           (the user pressed Reload under "A new version is ready"); the open pages keep
//           the version they started with until then.
// activate  the other raglab caches are deleted and open pages are taken over; pages that
//           were on an older version reload themselves (js/offline.js).
//
// Messages in: {type: "version"} (answered on the given port with {version})
//              {type: "activate"} (a waiting worker takes over)

const MANIFEST_SHA256 = ""; // the deployment's manifest.json digest (build.py)
const CACHE_PREFIX = "raglab-";
const CACHE = CACHE_PREFIX + MANIFEST_SHA256.slice(0, 16);
const SCOPE = new URL("./", self.location.href).href; // the app's folder, wherever it is hosted
const DIGEST_HEADER = "x-raglab-sha256"; // on every cached response: the sha256 it was checked against
const PARALLEL = 4;

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function sha256(buffer) {
  return hex(await crypto.subtle.digest("SHA-256", buffer));
}

/** The bytes of `path`, checked against `expected` ({sha256, bytes}); a second try skips the HTTP cache. */
async function download(path, expected) {
  let last = "";
  for (const mode of ["no-cache", "reload"]) {
    const response = await fetch(new URL(path, SCOPE), { cache: mode });
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
    const body = await response.arrayBuffer();
    const digest = await sha256(body);
    if (digest === expected.sha256 && (expected.bytes === undefined || body.byteLength === expected.bytes)) {
      return { response, body };
    }
    last = `${path}: sha256 ${digest.slice(0, 12)}… (${body.byteLength} bytes), the deployment lists ` +
      `${expected.sha256.slice(0, 12)}… (${expected.bytes} bytes)`;
  }
  throw new Error(last);
}

/** A response to keep: the checked bytes, the original type and headers, and the digest. */
function keep({ response, body }, digest) {
  const headers = new Headers(response.headers);
  // The body is stored decoded: a Content-Encoding or length of the transfer no longer applies.
  for (const name of ["content-encoding", "content-length", "transfer-encoding", "vary"]) headers.delete(name);
  headers.set(DIGEST_HEADER, digest);
  return new Response(body, { status: 200, statusText: "OK", headers });
}

/** Run `work` over `items`, at most `limit` at a time. */
async function pool(items, limit, work) {
  let next = 0;
  const runner = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, runner));
}

async function install() {
  if (!MANIFEST_SHA256) throw new Error("sw.js was not written by build.py (no deployment digest)");
  const manifest = await download("manifest.json", { sha256: MANIFEST_SHA256 });
  const files = JSON.parse(new TextDecoder().decode(manifest.body)).files || {};
  const cache = await caches.open(CACHE);
  const older = [];
  for (const name of await caches.keys()) {
    if (name.startsWith(CACHE_PREFIX) && name !== CACHE) older.push(await caches.open(name));
  }
  await pool(Object.entries(files), PARALLEL, async ([path, expected]) => {
    const url = new URL(path, SCOPE).href;
    const have = await cache.match(url);
    if (have && have.headers.get(DIGEST_HEADER) === expected.sha256) return; // an interrupted install got it
    for (const old of older) {
      const copy = await old.match(url);
      if (copy && copy.headers.get(DIGEST_HEADER) === expected.sha256) {
        await cache.put(url, copy);
        return;
      }
    }
    await cache.put(url, keep(await download(path, expected), expected.sha256));
  });
  // Last, so that a cache holding manifest.json holds everything it lists.
  await cache.put(new URL("manifest.json", SCOPE).href, keep(manifest, MANIFEST_SHA256));
}

async function activate() {
  for (const name of await caches.keys()) {
    if (name.startsWith(CACHE_PREFIX) && name !== CACHE) await caches.delete(name);
  }
  await self.clients.claim();
}

/** The path of a request inside the app's folder ("" is the page itself), or null. */
function appPath(request) {
  if (request.method !== "GET" || !request.url.startsWith(SCOPE)) return null;
  const path = request.url.slice(SCOPE.length).split(/[?#]/)[0];
  if (request.mode === "navigate" && (path === "" || path === "index.html")) return "index.html";
  return path;
}

async function answer(request, path) {
  const cache = await caches.open(CACHE);
  const found = await cache.match(new URL(path, SCOPE).href);
  return found || fetch(request);
}

/** Tell the open pages why saving failed (the browser only says "redundant"), then fail. */
async function installOrReport() {
  try {
    await install();
  } catch (err) {
    const message = String((err && err.message) || err);
    for (const client of await self.clients.matchAll({ includeUncontrolled: true, type: "window" })) {
      client.postMessage({ type: "install-failed", message });
    }
    throw err;
  }
}

self.addEventListener("install", (event) => event.waitUntil(installOrReport()));
self.addEventListener("activate", (event) => event.waitUntil(activate()));
self.addEventListener("fetch", (event) => {
  const path = appPath(event.request);
  if (path !== null && path !== "sw.js") event.respondWith(answer(event.request, path));
});
self.addEventListener("message", (event) => {
  const type = event.data && event.data.type;
  if (type === "version" && event.ports[0]) event.ports[0].postMessage({ version: MANIFEST_SHA256 });
  else if (type === "activate") self.skipWaiting();
});
