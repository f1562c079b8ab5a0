// The Your-own-data tab: articles and a questions file chosen or pasted by the
// user are read in this tab as bytes, handed to the worker, and loaded under the
// corpus name "user" by the same loaders the CLI uses (so a file that is not
// UTF-8 is named, not silently mangled), checked, and evaluated with the same
// compare code. Nothing is uploaded: the only requests the page makes are
// for its own static files. Errors come from the Python loaders verbatim, so
// they name the file, the line and the question id.

import { el, replace, table } from "./dom.js";
import { num } from "./i18n.js";
import { drawReport, runCompare } from "./evaluate.js";
import { encodeOwnData } from "./semantic-ui.js";

const $ = (id) => document.getElementById(id);

export function setupOwnData({ raglab, t, onLanguage, askThere }) {
  const articles = new Map(); // file name -> bytes (Uint8Array)
  let questions = null; // {name, bytes}
  const encode = (text) => new TextEncoder().encode(text);
  const bytesOf = async (file) => new Uint8Array(await file.arrayBuffer());
  let view = null;
  let loaded = null;

  function showFiles() {
    const q = questions ? t("own.questionsFile", { name: questions.name }) : t("own.noquestions");
    $("own-files").textContent = t("own.files", { articles: num(articles.size), questions: q });
  }

  function showError(message) {
    replace($("own-result"), el("div", { class: "error-box", role: "alert" },
      el("h3", {}, t("own.error")),
      el("pre", { class: "error-text" }, message)));
  }

  $("own-articles").addEventListener("change", async (event) => {
    for (const file of event.target.files) articles.set(file.name, await bytesOf(file));
    showFiles();
  });
  $("own-questions").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    questions = file ? { name: file.name, bytes: await bytesOf(file) } : null;
    showFiles();
  });
  $("own-questions-paste").addEventListener("input", (event) => {
    const text = event.target.value;
    questions = text.trim() ? { name: "pasted-questions.jsonl", bytes: encode(text) } : null;
    showFiles();
  });
  $("own-add").addEventListener("click", () => {
    const text = $("own-paste").value;
    if (!text.trim()) return;
    let name = $("own-paste-name").value.trim() || "pasted.md";
    if (!name.endsWith(".md")) name += ".md";
    articles.set(name, encode(text));
    $("own-paste").value = "";
    showFiles();
  });
  $("own-clear").addEventListener("click", () => {
    articles.clear();
    questions = null;
    view = null;
    loaded = null;
    $("own-form").reset();
    replace($("own-result"));
    $("own-status").textContent = "";
    showFiles();
  });

  $("own-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const squad = questions && /\.json$/i.test(questions.name); // SQuAD JSON brings its own articles
    if (!articles.size && !squad) {
      $("own-status").textContent = t("own.needArticles");
      return;
    }
    const notMarkdown = [...articles.keys()].filter((name) => !name.toLowerCase().endsWith(".md"));
    if (notMarkdown.length) {
      showError(`${notMarkdown[0]}: articles must be Markdown files named <id>.md`);
      return;
    }
    $("own-run").disabled = true;
    view = null;
    replace($("own-result"));
    $("own-status").textContent = "";
    try {
      loaded = await raglab.loadFiles("user", Object.fromEntries(articles), questions);
      raglab.dispatchEvent(new CustomEvent("userdata", { detail: loaded }));
      drawLoaded();
      if (loaded.goldens_error) {
        showError(loaded.goldens_error);
      } else if (loaded.questions && raglab.info && raglab.info.compare) {
        // the semantic retrievers only when asked for: they first encode every chunk here
        const semantic = $("own-semantic").checked && (raglab.info.semantic || []).length > 0;
        const options = { split: "all", per_question: true };
        if (!semantic) options.retriever = raglab.info.retrievers.filter((r) => !(raglab.info.semantic || []).includes(r));
        if (semantic && !(await encodeOwnData(raglab, raglab.info.chunkers))) return;
        view = await runCompare(raglab, t, {
          options, corpus: "user", progress: $("own-progress"), status: $("own-status"),
        });
        if (view) drawView();
      }
    } catch (err) {
      showError(err.message);
    } finally {
      $("own-run").disabled = false;
    }
  });

  function drawLoaded() {
    if (!loaded) return;
    const counts = loaded.counts.map((r) => [r.lang, r.kind, String(r.dev), String(r.test), String(r.total)]);
    replace($("own-result"),
      el("p", { class: "status" }, t("own.loaded", { articles: num(loaded.articles), questions: num(loaded.questions) })),
      loaded.imported ? el("p", { class: "status own-imported" }, t("own.imported", {
        dropped: num(loaded.imported.dropped.reduce((n, d) => n + d.count, 0)),
        reasons: loaded.imported.dropped.map((d) => `${d.reason} (${num(d.count)})`).join("; ") || "–",
      })) : null,
      el("p", { class: "status" }, t("own.askHint")),
      counts.length ? table(["lang", "kind", "dev", "test", "total"], counts) : null,
      el("div", { id: "own-report" }));
  }

  function drawView() {
    const target = $("own-report");
    if (target && view) {
      drawReport(target, view, {
        t, corpus: "user",
        onAsk: askThere,
      });
    }
  }

  onLanguage(() => {
    showFiles();
    if (loaded && !loaded.goldens_error) {
      drawLoaded();
      drawView();
    }
  });
}
