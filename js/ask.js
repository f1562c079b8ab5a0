// The Ask tab: a question, the pipeline selectors, examples from the golden set,
// and the result: the cited answer (or the abstention), the top chunks with the
// query's matched terms highlighted, and the article view behind every citation.
// Every offset used for highlighting comes from Python (chunk "matches", quote
// and chunk spans); this file only turns them into DOM nodes.

import { el, errorDetails, guessLang, replace } from "./dom.js";
import { renderMarkdown } from "./markdown.js";
import { errorText, num } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const K_CHOICES = [1, 2, 3, 4, 5, 6, 7, 8, 10];
const TOP_SHOWN = 5;

export function setupAsk({ raglab, t, onLanguage }) {
  let info = null;
  let last = null; // {result, corpus, ms}
  let articleLangs = {};
  let seq = 0; // counts finished asks; #result[data-seq] lets tests and embedders wait for a new answer

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
    drawExamples();
  }

  function drawExamples() {
    replace($("examples"), info.examples.map((ex) => el("li", {},
      el("button", { type: "button", class: "example", lang: ex.lang, dataset: { id: ex.id },
        onclick: () => {
          $("question").value = ex.question;
          ask();
        } }, ex.question),
      " ", el("span", { class: "badge", lang: document.documentElement.lang }, t(`kind.${ex.kind}`)))));
  }

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
      $("ask-status").textContent = t("boot.runtime");
      try {
        await raglab.ready;
      } catch {
        return; // the start-up error and its retry button are already on screen
      }
    }
    const question = $("question").value;
    if (!question.trim()) {
      $("ask-status").textContent = t("ask.empty");
      $("question").focus();
      return;
    }
    const corpus = $("corpus").value;
    $("ask-status").textContent = t("ask.working");
    $("result").setAttribute("aria-busy", "true");
    const started = performance.now();
    try {
      const result = await raglab.ask(question, config(), { corpus });
      last = { result, corpus, ms: performance.now() - started };
      $("ask-status").textContent = "";
      drawResult();
    } catch (err) {
      last = null;
      replace($("ask-status"), errorText(err), errorDetails(err, t("error.details")));
      replace($("result"));
    } finally {
      $("result").removeAttribute("aria-busy");
      $("result").dataset.seq = String(++seq);
    }
  }

  function langOf(doc) {
    return articleLangs[last.corpus]?.[doc] || "en";
  }

  function drawResult() {
    if (!last) return;
    const { result: r } = last;
    const qlang = guessLang(r.question);
    const answer = r.abstained
      ? el("div", { id: "answer", class: "answer abstained", dataset: { abstained: "true" } },
          el("h2", {}, t("ask.answer")),
          el("p", { id: "answer-text", class: "abstention" },
            t("ask.abstained", { confidence: num(r.confidence, 2), threshold: num(r.config.threshold, 2) })))
      : el("div", { id: "answer", class: "answer", dataset: { abstained: "false" } },
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
          el("p", { class: "meta" }, t("ask.coverage", { confidence: num(r.confidence, 2), coverage: num(r.coverage, 2) })));
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

  async function openArticle(chunk, result) {
    const dialog = $("article-dialog");
    const corpus = last ? last.corpus : "bundled";
    let doc;
    try {
      doc = await raglab.article(chunk.doc, { corpus });
    } catch (err) {
      $("ask-status").textContent = err.message;
      return;
    }
    const ranges = [{ start: chunk.start, end: chunk.end, className: "chunk", mark: true }];
    for (const q of result.quotes || []) {
      if (q.doc === doc.id) ranges.push({ start: q.start, end: q.end, className: "evidence", mark: true });
    }
    // A golden example also shows its reference evidence.
    const example = info && last && last.corpus === "bundled" ? info.examples.find((ex) => ex.question === result.question) : null;
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
      if (last && $("question").value.trim()) ask();
    });
  }

  function langsOf(data) {
    return Object.fromEntries(data.articles.map((a) => [a.id, a.lang]));
  }

  // Synchronous on purpose: a question typed before start-up finished waits for
  // raglab.ready, whose continuation runs only after these listeners have drawn.
  raglab.addEventListener("ready", (event) => {
    info = event.detail;
    articleLangs = { bundled: langsOf(info) };
    drawControls({ initial: true });
    $("question").focus();
  });
  raglab.addEventListener("userdata", async () => {
    articleLangs.user = langsOf(await raglab.corpusInfo({ corpus: "user" }));
    $("corpus").querySelector('option[value="user"]').disabled = false;
  });
  onLanguage(() => {
    if (!info) return;
    drawControls();
    drawResult();
  });
}
