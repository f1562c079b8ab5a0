// The Your-own-data tab: articles and a questions file chosen or pasted by the
// user are read in this tab as bytes, handed to the worker, and loaded under the
// corpus name "user" by the same loaders the CLI uses (so a file that is not
// UTF-8 is named, not silently mangled), checked, and evaluated with the same
// compare code. Nothing is uploaded: the only requests the page makes are
// for its own static files. Errors come from the Python loaders verbatim, so
// they name the file, the line and the question id.

import { el, errorDetails, replace, table } from "./dom.js";
import { errorText, num } from "./i18n.js";
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
  // Files still being read (a folder of a thousand articles takes a while): the run
  // waits for them and the button says so, so a click never evaluates a partial set.
  const reading = new Set();
  const readCount = { done: 0, total: 0 };
  let running = false; // a check and evaluation is under way

  function showFiles() {
    const q = questions ? t("own.questionsFile", { name: questions.name }) : t("own.noquestions");
    $("own-files").textContent = reading.size
      ? t("own.reading", { done: num(readCount.done), total: num(readCount.total) })
      : t("own.files", { articles: num(articles.size), questions: q });
    $("own-run").disabled = reading.size > 0 || running;
    $("own-run").setAttribute("aria-busy", String(reading.size > 0));
  }

  /** Read files in the background, tracked so that a run waits for every one of them. */
  function readFiles(files, store) {
    readCount.total += files.length;
    const job = (async () => {
      for (const file of files) {
        store(file, await bytesOf(file));
        readCount.done += 1;
        if (readCount.done % 50 === 0) showFiles();
      }
    })();
    reading.add(job);
    showFiles();
    job.finally(() => {
      reading.delete(job);
      if (!reading.size) readCount.done = readCount.total = 0;
      showFiles();
    });
    return job;
  }

  function showError(message, err = null) {
    replace($("own-result"), el("div", { class: "error-box", role: "alert" },
      el("h3", {}, t("own.error")),
      el("pre", { class: "error-text" }, message),
      errorDetails(err, t("error.details"))));
  }

  $("own-articles").addEventListener("change", (event) => {
    readFiles([...event.target.files], (file, bytes) => articles.set(file.name, bytes));
  });
  $("own-questions").addEventListener("change", (event) => {
    const file = event.target.files[0];
    if (!file) {
      questions = null;
      showFiles();
      return;
    }
    readFiles([file], (f, bytes) => {
      questions = { name: f.name, bytes };
    });
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
    if (running) return;
    running = true;
    try {
      await Promise.allSettled([...reading]); // a submit by the Enter key while files are read
      await run();
    } finally {
      running = false;
      showFiles();
    }
  });

  async function run() {
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
      showError(errorText(err), err);
    }
  }

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
