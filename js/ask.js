// The Ask tab: a question, the pipeline selectors, examples from the golden set,
// and the result: the cited answer (or the abstention), the top chunks with the
// query's matched terms highlighted, and the article view behind every citation.
// Every offset used for highlighting comes from Python (chunk "matches", quote
// and chunk spans), and so does a golden example's verdict (raglab.web.judge);
// this file only turns them into DOM nodes.

import { el, errorDetails, guessLang, replace } from "./dom.js";
import { renderMarkdown } from "./markdown.js";
import { errorText, num, say, sayRaw } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const K_CHOICES = [1, 2, 3, 4, 5, 6, 7, 8, 10];
const TOP_SHOWN = 5;
const NARROW = window.matchMedia("(max-width: 40rem)"); // the CSS breakpoint for phones
const MARKS = { right: "✓", wrong: "✗", abstained: "✓", "wrongly-abstained": "✗" };

export function setupAsk({ raglab, t, onLanguage }) {
  let info = null;
  let userInfo = null; // info of the Your-own-data corpus, once loaded
  let last = null; // {result, corpus, ms, judged}
  let articleLangs = {};
  let seq = 0; // counts finished asks; #result[data-seq] lets tests and embedders wait for a new answer
  const verdicts = { bundled: {}, user: {} }; // corpus -> example id -> verdict of its last asking
  let waiting = false; // a question is queued behind a running evaluation

  const corpusInfo = (corpus) => (corpus === "user" ? userInfo : info);

  /** Before Python is ready: every selector shows its served default, disabled. */
  function placeholders(defaults) {
    for (const id of ["chunker", "retriever", "k"]) {
      replace($(id), el("option", { value: String(defaults[id]) }, `${defaults[id]} ${t("ask.default")}`));
    }
    $("expand").checked = Boolean(defaults.expand);
    drawSummary(defaults);
  }

  /** The one-line summary of the pipeline settings (what the folded disclosure shows). */
  function drawSummary(config = null) {
    const c = config || (info ? { ...currentConfig(), threshold: corpusInfo($("corpus").value)?.defaults.threshold } : null);
    if (!c) return;
    const label = `${c.chunker}+${c.retriever}${c.expand ? "+exp" : ""}, k = ${num(Number(c.k))}`;
    const d = info ? info.defaults : c;
    const isDefault = c.chunker === d.chunker && c.retriever === d.retriever && Number(c.k) === d.k && c.expand === d.expand;
    $("settings-summary").textContent = label + (isDefault ? " " + t("ask.default") : "");
  }

  function fitSettings() {
    $("settings").open = !NARROW.matches;
  }

  function fillSelect(select, values, selected) {
    const current = select.value || String(selected);
    replace(select, values.map((value) => el("option", { value: String(value) },
      String(value) + (String(value) === String(selected) ? " " + t("ask.default") : ""))));
    select.value = values.map(String).includes(current) ? current : String(selected);
  }

  function drawControls({ initial = false } = {}) {
    if (!info) return;
    const d = info.defaults;
    if (initial) {
      for (const id of ["chunker", "retriever", "k"]) $(id).value = "";
      $("expand").checked = Boolean(d.expand);
    }
    fillSelect($("chunker"), info.chunkers, d.chunker);
    fillSelect($("retriever"), info.retrievers, d.retriever);
    fillSelect($("k"), K_CHOICES.includes(d.k) ? K_CHOICES : [...K_CHOICES, d.k].sort((a, b) => a - b), d.k);
    for (const id of ["chunker", "retriever", "k", "expand", "corpus"]) $(id).disabled = false;
    drawExamples();
    drawSummary();
  }

  function drawExamples() {
    const corpus = $("corpus").value;
    const source = corpusInfo(corpus) || info;
    $("examples-title").textContent = t(corpus === "user" ? "ask.examples.user" : "ask.examples");
    replace($("examples"), source.examples.map((ex) => {
      const v = verdicts[corpus][ex.id];
      return el("li", {},
        el("button", { type: "button", class: "example", lang: ex.lang, dataset: { id: ex.id },
          onclick: () => {
            $("question").value = ex.question;
            ask();
          } }, ex.question),
        " ", el("span", { class: "badge", lang: document.documentElement.lang }, t(`kind.${ex.kind}`)),
        v ? el("span", { class: `verdict-mark verdict-${v}`, dataset: { verdict: v }, lang: document.documentElement.lang,
          title: t(`verdict.${v}`) }, ` ${MARKS[v]} ${t(`verdict.${v}`)}`) : null);
    }));
  }

  const currentConfig = () => ({
    chunker: $("chunker").value, retriever: $("retriever").value, k: Number($("k").value), expand: $("expand").checked,
  });

  function config() {
    return {
      chunker: $("chunker").value,
      retriever: $("retriever").value,
      k: Number($("k").value),
      expand: $("expand").checked,
    };
  }

  async function ask() {
    if (raglab.state !== "ready") {
      say($("ask-status"), "boot.runtime");
      try {
        await raglab.ready;
      } catch {
        return; // the start-up error and its retry button are already on screen
      }
    }
    const question = $("question").value;
    if (!question.trim()) {
      say($("ask-status"), "ask.empty");
      $("question").focus();
      return;
    }
    const corpus = $("corpus").value;
    waiting = Boolean(raglab.running);
    showWorking();
    $("result").setAttribute("aria-busy", "true");
    const started = performance.now();
    try {
      const result = await raglab.ask(question, config(), { corpus });
      // A golden example gets its verdict (right / wrong ...) from Python, next to its reference answer.
      const example = (corpusInfo(corpus)?.examples || []).find((ex) => ex.question === result.question);
      const judged = example ? await raglab.judge(result, example.id, { corpus }) : null;
      if (judged) verdicts[corpus][judged.id] = judged.verdict;
      last = { result, corpus, ms: performance.now() - started, judged };
      sayRaw($("ask-status"), "");
      drawResult();
      if (judged) drawExamples();
      bringIntoView();
    } catch (err) {
      last = null;
      sayRaw($("ask-status"), "");
      replace($("ask-status"), errorText(err), errorDetails(err, t("error.details")));
      replace($("result"));
    } finally {
      waiting = false;
      $("result").removeAttribute("aria-busy");
      $("result").dataset.seq = String(++seq);
    }
  }

  /** "Searching…", or, behind a running evaluation, how far it is and a way to cancel it. */
  function showWorking() {
    const running = raglab.running;
    if (!waiting || !running) {
      say($("ask-status"), "ask.working");
      return;
    }
    sayRaw($("ask-status"), "");
    replace($("ask-status"),
      el("span", { id: "ask-waiting" }, t("ask.waiting", { done: num(running.done), total: num(running.total) })), " ",
      el("button", { type: "button", id: "ask-cancel-eval", onclick: () => raglab.cancel() }, t("eval.cancel")));
  }

  /** On a phone the answer lands below the fold: scroll it into view and move focus to it. */
  function bringIntoView() {
    const answer = $("answer");
    if (!answer) return;
    const box = answer.getBoundingClientRect();
    if (box.top < 0 || box.top > window.innerHeight * 0.5) answer.scrollIntoView({ block: "start" });
    if (NARROW.matches) answer.focus({ preventScroll: true });
  }

  function langOf(doc) {
    return articleLangs[last.corpus]?.[doc] || "en";
  }

  function drawResult() {
    if (!last) return;
    const { result: r, judged } = last;
    const qlang = guessLang(r.question);
    const where = t(last.corpus === "user" ? "ask.where.user" : "ask.where.bundled");
    const closest = r.chunks[0];
    const answer = r.abstained
      ? el("div", { id: "answer", class: "answer abstained", tabindex: "-1", dataset: { abstained: "true" } },
          el("h2", {}, t("ask.answer")),
          el("p", { id: "answer-text", class: "abstention" },
            t("ask.abstained", { where, confidence: num(r.confidence, 2), threshold: num(r.config.threshold, 2) })),
          closest ? el("p", { id: "closest", class: "closest" }, t("ask.closest"), " ",
            el("button", { type: "button", class: "closest-link", lang: langOf(closest.doc),
              dataset: { doc: closest.doc, chunk: closest.id }, onclick: () => openArticle(closest, r) },
            [closest.title, ...closest.heading.slice(1)].join(" › "))) : null,
          reference(judged))
      : el("div", { id: "answer", class: "answer", tabindex: "-1", dataset: { abstained: "false" } },
          el("h2", {}, t("ask.answer")),
          el("blockquote", { id: "answer-text", lang: langOf(r.citations[0]) }, r.answer),
          el("p", { class: "citations-label" }, t("ask.citations")),
          el("ul", { id: "citations", class: "citations" }, r.citations.map((id) => {
            const chunk = r.chunks.find((c) => c.id === id);
            return el("li", {},
              el("button", { type: "button", class: "citation", dataset: { chunk: id },
                onclick: () => openArticle(chunk, r) },
                el("span", { class: "cite-id" }, `[${id}]`), " ",
                el("span", { lang: langOf(chunk.doc) }, chunk.title)));
          })),
          el("p", { class: "meta" }, t("ask.coverage", { confidence: num(r.confidence, 2), coverage: num(r.coverage, 2) })),
          reference(judged));
    const terms = r.terms.length
      ? el("p", { class: "meta terms" }, t("ask.terms", { terms: "" }),
          r.terms.map((term) => el("code", { class: "term", lang: guessLang(term) }, term)))
      : el("p", { class: "meta terms" }, t("ask.noterms"));
    const shown = r.chunks.slice(0, TOP_SHOWN);
    const chunks = el("section", { class: "top-chunks", "aria-labelledby": "top-title" },
      el("h2", { id: "top-title" }, t("ask.top", { n: num(shown.length) })),
      el("ol", { id: "chunks", class: "chunks" }, shown.map((c) => el("li", {
        class: "chunk" + (r.citations.includes(c.id) ? " cited" : ""), dataset: { id: c.id, rank: String(c.rank) } },
        el("div", { class: "chunk-head" },
          el("span", { class: "rank", "aria-label": t("ask.rank") }, `#${num(c.rank)}`),
          el("span", { class: "score" }, t("ask.score", { score: num(c.score, 3) })),
          el("span", { class: "title", lang: langOf(c.doc) }, c.title),
          el("span", { class: "chunk-id" }, c.id)),
        el("p", { class: "heading-path", lang: langOf(c.doc) }, c.heading.join(" › ")),
        el("div", { class: "chunk-text", lang: langOf(c.doc) },
          renderMarkdown(c.text, c.matches.map(([start, end]) => ({ start, end, className: "match", mark: true })),
            { headingLevelOffset: 2 })),
        el("button", { type: "button", class: "open-article", onclick: () => openArticle(c, r) }, t("ask.open"))))));
    replace($("result"), answer, terms,
      el("p", { class: "meta timing", lang: document.documentElement.lang }, t("ask.time", { ms: num(Math.round(last.ms)) })),
      chunks);
    $("result").lang = qlang;
    $("result").dataset.question = r.question;
    $("result").dataset.config = JSON.stringify(r.config);
  }

  /** A golden example's reference answer and the verdict on what was served. */
  function reference(judged) {
    if (!judged) return null;
    return el("div", { id: "reference", class: `reference verdict-${judged.verdict}`, dataset: { verdict: judged.verdict } },
      el("p", { class: "verdict-line" }, `${MARKS[judged.verdict]} ${t(`verdict.${judged.verdict}`)}`),
      el("p", {}, t("ask.reference"), " ",
        judged.reference === null ? t("ask.reference.none")
          : el("span", { lang: guessLang(judged.reference), class: "reference-text" }, judged.reference)));
  }

  async function openArticle(chunk, result) {
    const dialog = $("article-dialog");
    const corpus = last ? last.corpus : "bundled";
    let doc;
    try {
      doc = await raglab.article(chunk.doc, { corpus });
    } catch (err) {
      sayRaw($("ask-status"), "");
      replace($("ask-status"), errorText(err), errorDetails(err, t("error.details")));
      return;
    }
    const ranges = [{ start: chunk.start, end: chunk.end, className: "chunk", mark: true }];
    for (const q of result.quotes || []) {
      if (q.doc === doc.id) ranges.push({ start: q.start, end: q.end, className: "evidence", mark: true });
    }
    // A golden example also shows its reference evidence.
    const source = last ? corpusInfo(last.corpus) : null;
    const example = source ? source.examples.find((ex) => ex.question === result.question) : null;
    for (const ev of example ? example.evidence : []) {
      if (ev.doc === doc.id) ranges.push({ start: ev.start, end: ev.end, className: "evidence golden", mark: true });
    }
    $("article-title").textContent = doc.title;
    $("article-title").lang = doc.lang;
    const body = $("article-body");
    body.lang = doc.lang;
    body.dataset.doc = doc.id;
    replace(body, renderMarkdown(doc.text, ranges));
    if (!dialog.open) dialog.showModal();
    const target = body.querySelector("mark.chunk");
    if (target) target.scrollIntoView({ block: "center" });
  }

  $("article-close").addEventListener("click", () => $("article-dialog").close());
  $("article-dialog").addEventListener("click", (event) => {
    if (event.target === $("article-dialog")) $("article-dialog").close(); // a click on the backdrop
  });

  $("ask-form").addEventListener("submit", (event) => {
    event.preventDefault();
    ask();
  });
  $("question").addEventListener("input", () => {
    $("question").lang = guessLang($("question").value);
  });
  for (const id of ["chunker", "retriever", "k", "expand", "corpus"]) {
    $(id).addEventListener("change", () => {
      drawSummary();
      if (id === "corpus") drawExamples();
      if (last && $("question").value.trim()) ask();
    });
  }
  fitSettings();
  NARROW.addEventListener("change", fitSettings);
  raglab.addEventListener("busy", () => {
    if (waiting) showWorking();
  });

  function langsOf(data) {
    return Object.fromEntries(data.articles.map((a) => [a.id, a.lang]));
  }

  // Synchronous on purpose: a question typed before start-up finished waits for
  // raglab.ready, whose continuation runs only after these listeners have drawn.
  // After a restart (a cancelled evaluation) the choices the user made stay as they are.
  raglab.addEventListener("ready", (event) => {
    const first = !info;
    info = event.detail;
    articleLangs.bundled = langsOf(info);
    drawControls({ initial: first });
    if (first) $("question").focus();
  });
  // Your own data loaded (or evaluated: the tuned threshold and the examples come with it):
  // the Ask tab switches to it, with its questions as examples.
  raglab.addEventListener("userdata", async (event) => {
    userInfo = await raglab.corpusInfo({ corpus: "user" });
    articleLangs.user = langsOf(userInfo);
    verdicts.user = {};
    $("corpus").querySelector('option[value="user"]').disabled = false;
    if (event.detail && event.detail.select) $("corpus").value = "user";
    drawExamples();
    drawSummary();
  });
  onLanguage(() => {
    drawSummary();
    if (!info) return;
    drawControls();
    drawResult();
  });
  return { placeholders };
}
