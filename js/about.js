// The About panel: what this page is, what it runs (the semantic model and its licence,
// Pyodide's and raglab's versions), the sha256 of every file it loaded (from the
// deployment's manifest.json, the same digests the page and the service worker check),
// whether it is saved for offline use, and that nothing leaves the browser.

import { el, replace } from "./dom.js";
import { addStrings, num, t } from "./i18n.js";
import { deployment, offlineText } from "./offline.js";

/** The semantic retrievers' model, as its authors publish it. */
export const MODEL = { name: "multilingual-e5-small", licence: "MIT", by: "Wang et al., Microsoft" };

addStrings({
  en: {
    "about.open": "About",
    "about.title": "About this page",
    "about.close": "Close",
    "about.what": "raglab answers questions from the help centre of Shapla Pay (a fictional mobile wallet) in Bangla and English, and shows how each answer was found: the passages, their scores and the sentences quoted. The same Python package runs here, inside this browser tab, as on the command line, and gives the same results.",
    "about.private": "Nothing leaves this browser. The page fetches only its own files, from this site; your questions, your answers and the files you choose stay in this tab and are sent nowhere.",
    "about.model": "Semantic model",
    "about.model.text": "{name} ({by}), {licence} licence; raglab's 4-bit copy of it, {mb} MB, runs through raglab's own WebAssembly kernel.",
    "about.raglab": "raglab",
    "about.python": "Python",
    "about.python.text": "{python} in Pyodide {pyodide}",
    "about.offline": "Offline",
    "about.loaded": "What was loaded (sha256)",
    "about.loaded.note": "Every file is checked against these digests before it is used; the deployment's digest is that of manifest.json, which lists all of them.",
    "about.all": "Every file of this version ({n})",
    "about.row.deployment": "this version (manifest.json)",
    "about.row.wheel": "raglab's Python package",
    "about.row.runtime": "Pyodide runtime",
    "about.row.stdlib": "Python standard library",
    "about.row.analysis": "prebuilt analysis of the articles",
    "about.row.model": "semantic model",
    "about.row.kernel": "encoder kernel",
    "about.row.vectors": "chunk vectors",
    "about.row.articles": "The articles and the example questions ({n} files) are in the list of every file below.",
    "about.unknown": "not started yet",
    "about.footer.model": "semantic model: {name} ({licence} licence)",
    "kb": "{n} kB",
    "mb": "{n} MB",
  },
  bn: {
    "about.open": "পরিচিতি",
    "about.title": "এই পেজের পরিচিতি",
    "about.close": "বন্ধ করুন",
    "about.what": "raglab শাপলা পে (একটি কাল্পনিক মোবাইল ওয়ালেট)-এর সহায়তা কেন্দ্র থেকে বাংলা ও ইংরেজিতে প্রশ্নের উত্তর দেয়, আর দেখায় উত্তরটি কীভাবে পাওয়া গেল: কোন অংশগুলো, তাদের স্কোর আর উদ্ধৃত বাক্য। কমান্ড লাইনের একই পাইথন প্যাকেজ এখানে, এই ব্রাউজার ট্যাবের ভেতরে চলে, আর একই ফল দেয়।",
    "about.private": "এই ব্রাউজারের বাইরে কিছুই যায় না। পেজটি শুধু এই সাইট থেকে নিজের ফাইলগুলো আনে; আপনার প্রশ্ন, উত্তর আর আপনার বাছাই করা ফাইল এই ট্যাবেই থাকে, কোথাও পাঠানো হয় না।",
    "about.model": "সিমান্টিক মডেল",
    "about.model.text": "{name} ({by}), {licence} লাইসেন্স; এর ৪-বিটের একটি raglab কপি, {mb} মেগাবাইট, raglab-এর নিজস্ব WebAssembly কার্নেলে চলে।",
    "about.raglab": "raglab",
    "about.python": "পাইথন",
    "about.python.text": "{python}, Pyodide {pyodide}-এ",
    "about.offline": "অফলাইন",
    "about.loaded": "যা লোড হয়েছে (sha256)",
    "about.loaded.note": "প্রতিটি ফাইল ব্যবহারের আগে এই ডাইজেস্টের সঙ্গে মিলিয়ে দেখা হয়; সংস্করণের ডাইজেস্ট হলো manifest.json-এর, যাতে সবগুলোর তালিকা আছে।",
    "about.all": "এই সংস্করণের সব ফাইল ({n}টি)",
    "about.row.deployment": "এই সংস্করণ (manifest.json)",
    "about.row.wheel": "raglab-এর পাইথন প্যাকেজ",
    "about.row.runtime": "Pyodide রানটাইম",
    "about.row.stdlib": "পাইথনের স্ট্যান্ডার্ড লাইব্রেরি",
    "about.row.analysis": "নিবন্ধগুলোর আগে থেকে তৈরি বিশ্লেষণ",
    "about.row.model": "সিমান্টিক মডেল",
    "about.row.kernel": "এনকোডার কার্নেল",
    "about.row.vectors": "অংশগুলোর ভেক্টর",
    "about.row.articles": "নিবন্ধ ও উদাহরণ প্রশ্নগুলো ({n}টি ফাইল) নিচের সব ফাইলের তালিকায় আছে।",
    "about.unknown": "এখনো চালু হয়নি",
    "about.footer.model": "সিমান্টিক মডেল: {name} ({licence} লাইসেন্স)",
    "kb": "{n} কিলোবাইট",
    "mb": "{n} মেগাবাইট",
  },
});

const $ = (id) => document.getElementById(id);
const code = (text) => el("code", { lang: "en", dataset: { content: "id" } }, text);
const name = (text) => el("span", { lang: "en", dataset: { content: "name" } }, text);

/** t(key, vars) as text and nodes: a placeholder whose value is a DOM node becomes that node. */
function tNodes(key, vars) {
  const marked = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, v instanceof Node ? `\u0000${k}\u0000` : v]));
  return t(key, marked).split("\u0000").map((part, i) => (i % 2 ? vars[part] : part));
}

/** A file size in the interface's words and digits. */
export function size(bytes) {
  return bytes >= 1e6 ? t("mb", { n: num(bytes / 1e6, 1) }) : t("kb", { n: num(Math.max(1, Math.round(bytes / 1e3))) });
}

/** One loaded file: what it is, its path and size, and its sha256 on a line of its own. */
function fileItem(what, path, bytes, sha256) {
  return el("li", { dataset: { path } },
    what ? [el("span", { class: "about-what" }, what), " · "] : null,
    code(path), bytes === undefined ? null : ` · ${size(bytes)}`,
    el("br"), el("code", { class: "digest", lang: "en", dataset: { content: "id" } }, sha256 || ""));
}

function loadedList(manifest, sha256) {
  const files = manifest.files || {};
  const item = (what, path) => fileItem(what, path, (files[path] || {}).bytes, (files[path] || {}).sha256);
  const data = [...(manifest.corpus || []), ...(manifest.goldens ? [manifest.goldens] : [])];
  const encoder = manifest.encoder || {};
  const all = Object.entries(files);
  return [
    el("ul", { id: "about-loaded", class: "about-files" },
      fileItem(t("about.row.deployment"), "manifest.json", undefined, sha256),
      item(t("about.row.wheel"), manifest.wheel),
      item(t("about.row.runtime"), "pyodide/pyodide.asm.wasm"),
      item(t("about.row.stdlib"), "pyodide/python_stdlib.zip"),
      manifest.analysis ? item(t("about.row.analysis"), manifest.analysis.path) : null,
      ["model", "kernel", "vectors"].filter((k) => encoder[k]).map((k) => item(t(`about.row.${k}`), encoder[k].path))),
    el("p", { class: "note" }, t("about.row.articles", { n: num(data.length) })),
    el("details", { class: "about-all" }, el("summary", {}, t("about.all", { n: num(all.length) })),
      el("ul", { class: "about-files" }, all.map(([path, f]) => fileItem(null, path, f.bytes, f.sha256)))),
  ];
}

export function setupAbout({ raglab, onLanguage }) {
  const dialog = $("about-dialog");
  const body = $("about-body");

  async function draw() {
    let d = null;
    try {
      d = await deployment();
    } catch {
      // offline before anything was saved: the panel says what it can without the manifest
    }
    const info = raglab.info;
    const model = d && d.manifest.encoder ? d.manifest.encoder.model : null;
    const pyodide = (raglab.runtime && raglab.runtime.pyodide) || (d && d.manifest.pyodide) || "?";
    replace(body,
      el("p", {}, t("about.what")),
      el("p", { id: "about-private", class: "about-private" }, t("about.private")),
      el("dl", { class: "about-list" },
        el("dt", {}, t("about.model")),
        el("dd", { id: "about-model" }, tNodes("about.model.text", {
          name: name(MODEL.name), by: name(MODEL.by), licence: name(MODEL.licence), mb: model ? num(model.bytes / 1e6, 1) : "?",
        })),
        el("dt", {}, t("about.raglab")),
        el("dd", { id: "about-raglab" }, info ? code(info.version) : t("about.unknown")),
        el("dt", {}, t("about.python")),
        el("dd", { id: "about-python" }, info
          ? [code(info.python), " · Pyodide ", code(pyodide)]
          : [t("about.unknown"), " · Pyodide ", code(pyodide)]),
        el("dt", {}, t("about.offline")),
        el("dd", { id: "about-offline", dataset: { state: raglab.offline ? raglab.offline.state : "" } },
          raglab.offline ? offlineText(raglab.offline) : "")),
      el("h3", {}, t("about.loaded")),
      el("p", { class: "note" }, t("about.loaded.note")),
      d ? loadedList(d.manifest, d.sha256) : null);
  }

  $("about-open").addEventListener("click", async () => {
    await draw();
    if (!dialog.open) dialog.showModal();
  });
  $("about-close").addEventListener("click", () => dialog.close());
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) dialog.close(); // a click on the backdrop
  });
  const redraw = () => {
    if (dialog.open) draw();
  };
  raglab.addEventListener("offline", redraw);
  raglab.addEventListener("ready", redraw);
  onLanguage(redraw);
}

/** The footer line: versions, and the model with its licence. */
export function footer(info, runtime) {
  return [
    "raglab ", code(info.version), " · Python ", code(info.python), " · Pyodide ", code((runtime && runtime.pyodide) || "?"),
    " · ", tNodes("about.footer.model", { name: name(MODEL.name), licence: name(MODEL.licence) }),
  ];
}
