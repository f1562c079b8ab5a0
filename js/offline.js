// Offline use: the page's side of the service worker (site/sw.js, written into dist/ by
// build.py). Once the page is ready and the semantic model is in, the worker is registered
// and keeps the whole deployment in this browser, so a reload works without a network.
// When a new deployment has been saved next to the running one, the page says "A new
// version is ready — reload" and switches only when asked: it never mixes the files of
// two versions.
//
// raglab.offline = {state, version, bytes, error, reason, lookForUpdate()}; an "offline" event fires
// on every change (error: the browser's or the worker's own words; reason: an interface string's
// key; lookForUpdate() asks the site for a new deployment and resolves to whether it answered).
//   state: pending (not registered yet) | saving (first download) | ready (this version is
//   saved) | update (a newer version is saved and waits) | failed (saving failed; the page
//   works online) | unavailable (the browser refuses service workers here) | unsupported

import { addStrings, num, t } from "./i18n.js";

addStrings({
  en: {
    "update.ready": "A new version is ready — reload",
    "update.reload": "Reload",
    "offline.note": "Offline: the page runs from the copy saved in this browser.",
    "offline.pending": "Not saved for offline use yet: it is saved once the semantic model has loaded.",
    "offline.saving": "Saving the app in this browser for offline use…",
    "offline.ready": "Works offline: this version ({version}) is saved in this browser, {mb} MB.",
    "offline.update": "Works offline. A newer version is saved too; it is used after a reload.",
    "offline.failed": "Not saved for offline use: {message}. The page keeps working while online.",
    "offline.unavailable": "Offline use is not available here: {message}.",
    "offline.unsupported": "Offline use is not available in this browser (no service workers on this page).",
    "offline.blocked": "this browser blocks service workers for this page",
  },
  bn: {
    "update.ready": "নতুন সংস্করণ প্রস্তুত — রিলোড করুন",
    "update.reload": "রিলোড",
    "offline.note": "অফলাইন: পেজটি এই ব্রাউজারে সংরক্ষিত কপি থেকে চলছে।",
    "offline.pending": "অফলাইনে ব্যবহারের জন্য এখনো সংরক্ষণ হয়নি: সিমান্টিক মডেল লোড হলে সংরক্ষণ হবে।",
    "offline.saving": "অফলাইনে ব্যবহারের জন্য অ্যাপটি এই ব্রাউজারে সংরক্ষণ হচ্ছে…",
    "offline.ready": "অফলাইনে চলে: এই সংস্করণ ({version}) এই ব্রাউজারে সংরক্ষিত, {mb} মেগাবাইট।",
    "offline.update": "অফলাইনে চলে। একটি নতুন সংস্করণও সংরক্ষিত আছে; রিলোড করলে সেটি চালু হবে।",
    "offline.failed": "অফলাইনে ব্যবহারের জন্য সংরক্ষণ হয়নি: {message}। অনলাইনে পেজটি কাজ করছে।",
    "offline.unavailable": "এখানে অফলাইনে ব্যবহার সম্ভব নয়: {message}।",
    "offline.unsupported": "এই ব্রাউজারে অফলাইনে ব্যবহার সম্ভব নয় (এই পেজে সার্ভিস ওয়ার্কার নেই)।",
    "offline.blocked": "এই ব্রাউজার এই পেজের জন্য সার্ভিস ওয়ার্কার বন্ধ রেখেছে",
  },
});

const MANIFEST_URL = new URL("../manifest.json", import.meta.url);
const WORKER_URL = new URL("../sw.js", import.meta.url);
const SCOPE = new URL("../", import.meta.url).href;
const UPDATE_EVERY_MS = 60 * 60 * 1000;

async function sha256Hex(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

let deploymentPromise = null;

/** The manifest.json this page runs with, parsed, and its sha256 (the deployment's name). */
export function deployment() {
  if (!deploymentPromise) {
    deploymentPromise = fetch(MANIFEST_URL, { cache: "no-cache" }).then(async (response) => {
      if (!response.ok) throw new Error(`manifest.json: HTTP ${response.status}`);
      const bytes = await response.arrayBuffer();
      return { manifest: JSON.parse(new TextDecoder().decode(bytes)), sha256: await sha256Hex(bytes) };
    });
    deploymentPromise.catch(() => {});
  }
  return deploymentPromise;
}

/** The deployment digest a service worker serves, or null when it does not answer. */
function versionOf(worker) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(null), 5000);
    channel.port1.onmessage = (event) => {
      clearTimeout(timer);
      resolve(event.data && event.data.version);
    };
    worker.postMessage({ type: "version" }, [channel.port2]);
  });
}

/** The status sentence for the About panel. */
export function offlineText(status) {
  if (status.state === "ready") {
    return t("offline.ready", { version: status.version.slice(0, 12), mb: num(status.bytes / 1e6, 1) });
  }
  return t(`offline.${status.state}`, { message: status.reason ? t(status.reason) : status.error || "" });
}

export function setupOffline({ raglab }) {
  const status = { state: "pending", version: null, error: null, reason: null, bytes: 0 };
  raglab.offline = status;
  const banner = document.getElementById("update");
  const note = document.getElementById("offline-note");
  // A page served from the saved copy while the site cannot be reached says so (the browser's
  // online flag is not enough: it stays true when only the site is down).
  let reachable = true;
  const showNote = () => {
    note.hidden = reachable || !["ready", "update"].includes(status.state);
  };
  const set = (state, extra = {}) => {
    Object.assign(status, { state }, extra);
    banner.hidden = state !== "update";
    showNote();
    raglab.dispatchEvent(new CustomEvent("offline", { detail: status }));
  };
  const sw = navigator.serviceWorker;
  if (!sw || !window.isSecureContext) {
    set("unsupported");
    return status;
  }
  let registration = null;
  let controlled = Boolean(sw.controller);
  let reloading = false;

  // A page that ran on one version reloads when another takes over (the user pressed Reload
  // here or in another tab), instead of fetching the new version's files into the old page.
  sw.addEventListener("controllerchange", () => {
    if (controlled && !reloading) {
      reloading = true;
      window.location.reload();
      return;
    }
    controlled = true;
    check();
  });
  sw.addEventListener("message", (event) => {
    if (event.data && event.data.type === "install-failed" && status.state !== "ready" && status.state !== "update") {
      set("failed", { error: event.data.message });
    }
  });

  document.getElementById("update-reload").addEventListener("click", () => {
    if (registration && registration.waiting) registration.waiting.postMessage({ type: "activate" });
    else window.location.reload(); // the running worker is newer than this page already
  });

  async function check() {
    const reg = registration;
    if (!reg) return;
    if (!sw.controller) {
      if (reg.installing || reg.waiting) set("saving");
      return;
    }
    const [version, mine] = await Promise.all([versionOf(sw.controller), deployment().catch(() => null)]);
    if (!version || !mine) return;
    const bytes = Object.values(mine.manifest.files || {}).reduce((n, f) => n + f.bytes, 0);
    // version: the deployment this page runs on; a newer one waits, or already serves (another tab)
    const newer = Boolean(reg.waiting) || version !== mine.sha256;
    set(newer ? "update" : "ready", { version: mine.sha256, bytes, error: null });
  }

  function track(worker) {
    if (!worker) return;
    worker.addEventListener("statechange", () => {
      if (worker.state === "redundant" && !sw.controller && status.state === "saving") {
        set("failed", { error: status.error || "the download was interrupted" });
      }
      check();
    });
  }

  async function register() {
    let reg;
    try {
      reg = await sw.register(WORKER_URL, { scope: SCOPE });
    } catch (err) {
      set("unavailable", { error: err.message });
      return;
    }
    if (!reg) { // an embedding browser (or an automation tool) turned registration into a no-op
      set("unavailable", { error: null, reason: "offline.blocked" });
      return;
    }
    registration = reg;
    status.lookForUpdate = lookForUpdate;
    track(reg.installing);
    track(reg.waiting);
    reg.addEventListener("updatefound", () => {
      track(reg.installing);
      check();
    });
    check();
    if (sw.controller) lookForUpdate();
    let lastCheck = Date.now();
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState !== "visible" || Date.now() - lastCheck < UPDATE_EVERY_MS) return;
      lastCheck = Date.now();
      lookForUpdate();
    });
    window.addEventListener("online", lookForUpdate);
    window.addEventListener("offline", () => {
      reachable = false;
      showNote();
    });
  }

  /** Ask the site for a new deployment; whether it answered is whether it can be reached. */
  function lookForUpdate() {
    return registration.update().then(() => true, () => false).then((answered) => {
      reachable = answered;
      showNote();
      return answered;
    });
  }

  // A returning visit registers at once (that is the browser's check for a new deployment);
  // a first visit waits until the page and the semantic model are in, so the download that
  // saves them does not compete with the one that starts the page (it is mostly answered
  // from the browser's HTTP cache then).
  if (sw.controller) {
    register();
  } else {
    const settled = () => ["ready", "failed", "absent"].includes(raglab.semantic.state)
      || (raglab.info && !(raglab.info.semantic || []).length);
    const whenSettled = () => {
      if (!settled()) return;
      raglab.removeEventListener("semantic", whenSettled);
      raglab.removeEventListener("ready", whenSettled);
      register();
    };
    raglab.addEventListener("semantic", whenSettled);
    raglab.addEventListener("ready", whenSettled);
  }
  return status;
}
