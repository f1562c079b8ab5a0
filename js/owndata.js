// The Your-own-data tab: articles and a questions file chosen or pasted by the
// user are read in this tab as bytes, handed to the worker, and loaded under the
// corpus name "user" by the same loaders the CLI uses (so a file that is not
// UTF-8 is named, not silently mangled), checked, and evaluated with the same
// compare code. Nothing is uploaded: the only requests the page makes are
// for its own static files. Errors come from the Python loaders verbatim, so
// they name the file, the line and the question id; a broken questions file has
// every problem listed (Python checks the whole file and caps the list).
//
// A new choice in a file picker replaces the files chosen before (pasted articles
// stay until Clear). The evaluation defaults to the served retriever with every
// chunker; identical rows are hidden; the review comes first. Afterwards the Ask
// tab answers from these articles, with these questions as examples and the
// threshold the evaluation tuned on their dev split.

import { el, errorDetails, replace, table } from "./dom.js";
import { errorText, num, say, sayRaw } from "./i18n.js";
import { drawReport, runCompare } from "./evaluate.js";
import { encodeOwnData } from "./semantic-ui.js";

const $ = (id) => document.getElementById(id);

export function setupOwnData({ raglab, t, onLanguage, askThere }) {
  let chosen = new Map(); // file name -> bytes (Uint8Array), from the file picker's latest choice
  const pasted = new Map(); // file name -> bytes, added from the paste box
  let questions = null; // {name, bytes}
  let problems = null; // {header, items, more} of the last failed check
  const encode = (text) => new TextEncoder().encode(text);
  const bytesOf = async (file) => new Uint8Array(await file.arrayBuffer());
  let view = null;
  let loaded = null;
  // Files still being read (a folder of a thousand articles takes a while): the run
  // waits for them and the button says so, so a click never evaluates a partial set.
  const reading = new Set();
  const readCount = { done: 0, total: 0 };
  let running = false; // a check and evaluation is under way
  let started = false; // the worker is ready

  const articles = () => new Map([...chosen, ...pasted]);

  /** What is chosen, and that it is not checked yet ("Loaded" appears only after checking). */
  function showFiles() {
    const all = [...articles().keys()];
    const SHOWN = 6; // a folder of articles is named by its first few files
    const names = all.length > SHOWN ? [...all.slice(0, SHOWN), `+${num(all.length - SHOWN)}`] : all;
    const q = questions ? t("own.questionsFile", { name: questions.name }) : t("own.noquestions");
    $("own-files").textContent = reading.size
      ? t("own.reading", { done: num(readCount.done), total: num(readCount.total) })
      : all.length || questions
        ? t("own.chosen", { articles: num(all.length), names: names.join(", "), questions: q })
        : "";
    $("own-run").disabled = !started || reading.size > 0 || running;
    $("own-run").setAttribute("aria-busy", String(reading.size > 0));
  }

  /** A new choice invalidates what was loaded from the previous one. */
  function choiceChanged() {
    loaded = null;
    view = null;
    problems = null;
    replace($("own-result"));
    sayRaw($("own-status"), "");
    showFiles();
  }

  function showProblems(header, items, more = 0, err = null) {
    problems = { header, items, more, err };
    drawProblems();
  }

  function drawProblems() {
    if (!problems) return;
    const { header, items, more, err } = problems;
    replace($("own-result"), el("div", { class: "error-box", role: "alert" },
      el("h3", {}, t(header, { n: num(items.length + more) })),
      el("ul", { class: "error-list" }, items.map((item) => el("li", { class: "error-text", lang: "en", dataset: { content: "error" } }, item))),
      more ? el("p", { class: "error-more" }, t("own.more", { n: num(more) })) : null,
      errorDetails(err, t("error.details"))));
  }

  /** Read files in the background, tracked so that a run waits for every one of them;
   * `land` receives [[file, bytes], ...] once all are read. */
  function readFiles(files, land) {
    readCount.total += files.length;
    const job = (async () => {
      const read = [];
      for (const file of files) {
        read.push([file, await bytesOf(file)]);
        readCount.done += 1;
        if (readCount.done % 50 === 0) showFiles();
      }
      land(read);
    })();
    reading.add(job);
    showFiles();
    job.catch(() => {}).finally(() => {
      reading.delete(job);
      if (!reading.size) readCount.done = readCount.total = 0;
      showFiles();
    });
    return job;
  }

  // Only the latest choice may land (an older read finishing late must not bring back
  // files the user replaced).
  let choice = 0;
  $("own-articles").addEventListener("change", (event) => {
    const mine = ++choice;
    readFiles([...event.target.files], (read) => {
      if (mine !== choice) return;
      chosen = new Map(read.map(([file, bytes]) => [file.name, bytes]));
      choiceChanged();
    });
  });
  let questionChoice = 0;
  $("own-questions").addEventListener("change", (event) => {
    const mine = ++questionChoice;
    const file = event.target.files[0];
    readFiles(file ? [file] : [], (read) => {
      if (mine !== questionChoice) return;
      questions = read.length ? { name: read[0][0].name, bytes: read[0][1] } : null;
      $("own-questions-paste").value = "";
      choiceChanged();
    });
  });
  $("own-questions-paste").addEventListener("input", (event) => {
    const text = event.target.value;
    questions = text.trim() ? { name: "pasted-questions.jsonl", bytes: encode(text) } : null;
    choiceChanged();
  });
  $("own-add").addEventListener("click", () => {
    const text = $("own-paste").value;
    if (!text.trim()) return;
    let name = $("own-paste-name").value.trim() || "pasted.md";
    if (!name.endsWith(".md")) name += ".md";
    pasted.set(name, encode(text));
    $("own-paste").value = "";
    choiceChanged();
  });
  $("own-clear").addEventListener("click", () => {
    chosen = new Map();
    pasted.clear();
    questions = null;
    $("own-form").reset();
    choiceChanged();
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
    const files = articles();
    const squad = questions && /\.json$/i.test(questions.name); // SQuAD JSON brings its own articles
    if (!files.size && !squad) {
      say($("own-status"), "own.needArticles");
      return;
    }
    const notMarkdown = [...files.keys()].filter((name) => !name.toLowerCase().endsWith(".md"));
    if (notMarkdown.length) {
      showProblems("own.error", notMarkdown.map((name) => `${name}: articles must be Markdown files named <id>.md`));
      return;
    }
    view = null;
    loaded = null;
    problems = null;
    replace($("own-result"));
    say($("own-status"), "own.checking");
    try {
      loaded = await raglab.loadFiles("user", Object.fromEntries(files), questions);
      sayRaw($("own-status"), "");
      raglab.dispatchEvent(new CustomEvent("userdata", { detail: { summary: loaded, select: true } }));
      if (loaded.goldens_error) {
        showProblems("own.problems", loaded.goldens_problems, loaded.goldens_more);
      } else {
        drawLoaded();
        if (loaded.questions && raglab.info && raglab.info.compare) {
          const options = evaluationOptions();
          // a semantic retriever first needs every chunk encoded here
          const semantic = (options.retriever || raglab.info.retrievers).some((r) => (raglab.info.semantic || []).includes(r));
          if (semantic && !(await encodeOwnData(raglab, raglab.info.chunkers))) return;
          view = await runCompare(raglab, t, {
            options, corpus: "user", progress: $("own-progress"), status: $("own-status"),
            cancel: $("own-cancel"),
          });
          if (view) {
            drawView();
            // The tuned threshold and the questions as examples go to the Ask tab.
            raglab.dispatchEvent(new CustomEvent("userdata", { detail: { summary: loaded, select: true } }));
          }
        }
      }
    } catch (err) {
      loaded = null;
      showProblems("own.error", [errorText(err)], 0, err);
    }
  }

  /** The served retriever (and expansion setting) with every chunker, unless the full grid is asked
   * for. A semantic served retriever is evaluated as served (the Ask tab needs these chunks'
   * vectors for it anyway); the full grid has the semantic retrievers only when that box is ticked,
   * since they first encode every chunk of every chunker in this tab. */
  function evaluationOptions() {
    const info = raglab.info;
    const options = { split: "all", per_question: true, hide_identical: true };
    const encoders = info.semantic || [];
    if ($("own-full").checked) {
      const withSemantic = $("own-semantic").checked && encoders.length > 0;
      return withSemantic ? options : { ...options, retriever: info.retrievers.filter((r) => !encoders.includes(r)) };
    }
    const d = info.defaults;
    return { ...options, chunker: info.chunkers, retriever: [d.retriever], expand: d.expand ? "on" : "off", baseline: info.served };
  }

  function drawLoaded() {
    if (!loaded) return;
    const counts = loaded.counts.map((r) => [r.lang === "all" ? t("own.all") : r.lang,
      r.kind === "all" ? t("own.all") : t(`kind.${r.kind}`), num(r.dev), num(r.test), num(r.total)]);
    replace($("own-result"),
      el("p", { class: "status", id: "own-loaded" }, t("own.loaded", { articles: num(loaded.articles), questions: num(loaded.questions) })),
      loaded.imported ? el("p", { class: "status own-imported" }, t("own.imported", {
        dropped: num(loaded.imported.dropped.reduce((n, d) => n + d.count, 0)),
        reasons: loaded.imported.dropped.map((d) => `${d.reason} (${num(d.count)})`).join("; ") || "–",
      })) : null,
      el("p", { class: "status" }, t("own.askHint")),
      counts.length ? table([t("own.col.lang"), t("own.col.kind"), "dev", "test", t("own.col.total")], counts) : null,
      el("div", { id: "own-report" }));
  }

  function drawView() {
    const target = $("own-report");
    if (!target || !view) return;
    drawReport(target, view, { t, corpus: "user", onAsk: askThere, reviewFirst: true });
    if (view.tuned) {
      target.prepend(el("p", { class: "status", id: "own-tuned" },
        t("own.tuned", { threshold: num(view.tuned.threshold, 2), n: num(view.tuned.dev_questions) })));
    }
  }

  onLanguage(() => {
    showFiles();
    drawProblems();
    if (loaded && !loaded.goldens_error) {
      drawLoaded();
      drawView();
    }
  });
  raglab.addEventListener("ready", () => {
    started = true;
    showFiles();
  });
}
