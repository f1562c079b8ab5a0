// The Ask tab: a question, the pipeline selectors, examples from the golden set,
// and the result: the cited answer (or the abstention), the top chunks with the
// query's matched terms highlighted, and the article view behind every citation.
// Every offset used for highlighting comes from Python (chunk "matches", quote
// and chunk spans), and so does a golden example's verdict (raglab.web.api.judge);
// this file only turns them into DOM nodes.

import { el, errorDetails, guessLang, replace } from "./dom.js";
import { renderMarkdown } from "./markdown.js";
import { addStrings, errorText, kindLabel, num, say, sayRaw } from "./i18n.js";

addStrings({
  en: {
    "ask.model": "Waiting for the semantic model ({done} of {total} MB)…",
    "ask.model.start": "Waiting for the semantic model…",
    "ask.link": "Link to this question",
  },
  bn: {
    "ask.model": "সিমান্টিক মডেলের অপেক্ষা ({total} মেগাবাইটের {done} এসেছে)…",
    "ask.model.start": "সিমান্টিক মডেলের অপেক্ষা…",
    "ask.link": "এই প্রশ্নের লিংক",
  },
});

const $ = (id) => document.getElementById(id);
const K_CHOICES = [1, 2, 3, 4, 5, 6, 7, 8, 10];
const TOP_SHOWN = 5;
const NARROW = window.matchMedia("(max-width: 40rem)"); // the CSS breakpoint for phones
const MARKS = { right: "✓", wrong: "✗", abstained: "✓", "wrongly-abstained": "✗" };
const MB = 1e6;
const LINK_FIELDS = ["chunker", "retriever", "k", "expand"];

/** Whether an answer's one short answer is a whole line of it (`shorts.best_sentence`: the best of
 * two quoted sentences as the headline), which the page then bolds in place rather than repeating. */
function wholeHeadline(r) {
  return (r.short_answers || []).length === 1 && r.answer.split("\n").includes(r.short_answers[0].text);
}

/** The URL fragment that asks `question` with `config`: #q=…&chunker=…&retriever=…&k=…&expand=on|off. */
export function shareHash(question, config) {
  const params = new URLSearchParams({ q: question });
  for (const name of LINK_FIELDS) params.set(name, name === "expand" ? (config.expand ? "on" : "off") : String(config[name]));
  return `#${params}`;
}

export function setupAsk({ raglab, t, onLanguage }) {
  let info = null;
  let userInfo = null; // info of the Your-own-data corpus, once loaded
  let last = null; // {result, corpus, ms, judged}
  let articleLangs = {};
  let seq = 0; // counts finished asks; #result[data-seq] lets tests and embedders wait for a new answer
  const verdicts = { bundled: {}, user: {} }; // corpus -> example id -> verdict of its last asking
  let waiting = false; // a question is queued behind a running evaluation
  let linked = window.location.hash; // the fragment last asked or written (a new one is a new link)

  const corpusInfo = (corpus) => (corpus === "user" ? userInfo : info);

  /** Before Python is ready: every selector shows its served default, disabled. */
  function placeholders(defaults) {
    for (const id of ["chunker", "retriever", "k"]) {
      const shown = id === "k" ? num(defaults[id]) : defaults[id];
      replace($(id), el("option", { value: String(defaults[id]) }, `${shown} ${t("ask.default")}`));
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

  function fillSelect(select, values, selected, label = String) {
    const current = select.value || String(selected);
    replace(select, values.map((value) => el("option", { value: String(value) },
      label(value) + (String(value) === String(selected) ? " " + t("ask.default") : ""))));
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
    fillSelect($("k"), K_CHOICES.includes(d.k) ? K_CHOICES : [...K_CHOICES, d.k].sort((a, b) => a - b), d.k, num);
    for (const id of ["chunker", "retriever", "k", "expand", "corpus"]) $(id).disabled = false;
    drawExamples();
    drawSummary();
  }

  function drawExamples() {
    const corpus = $("corpus").value;
    const source = corpusInfo(corpus) || info;
    // Redrawn after an example is judged: the button that was pressed keeps the focus.
    const focused = $("examples").contains(document.activeElement) ? document.activeElement.dataset.id : null;
    $("examples-title").textContent = t(corpus === "user" ? "ask.examples.user" : "ask.examples");
    replace($("examples"), source.examples.map((ex) => {
      const v = verdicts[corpus][ex.id];
      return el("li", {},
        el("button", { type: "button", class: "example", lang: ex.lang, dataset: { id: ex.id },
          onclick: () => {
            $("question").value = ex.question;
            ask();
          } }, ex.question),
        " ", el("span", { class: "badge", lang: document.documentElement.lang }, kindLabel(ex.kind, corpus)),
        v ? el("span", { class: `verdict-mark verdict-${v}`, dataset: { verdict: v }, lang: document.documentElement.lang,
          title: t(`verdict.${v}`) }, ` ${MARKS[v]} ${t(`verdict.${v}`)}`) : null);
    }));
    const again = focused && [...$("examples").querySelectorAll(".example")].find((b) => b.dataset.id === focused);
    if (again) again.focus({ preventScroll: true });
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
    const chosen = config();
    $("result").setAttribute("aria-busy", "true");
    await waitForModel(chosen);
    waiting = Boolean(raglab.running);
    showWorking();
    const started = performance.now(); // the answer's time: the wait for the model is not in it
    try {
      const result = await raglab.ask(question, chosen, { corpus });
      // A golden example gets its verdict (right / wrong ...) from Python, next to its reference answer.
      const example = (corpusInfo(corpus)?.examples || []).find((ex) => ex.question === result.question);
      const judged = example ? await raglab.judge(result, example.id, { corpus }) : null;
      if (judged) verdicts[corpus][judged.id] = judged.verdict;
      last = { result, corpus, ms: performance.now() - started, judged };
      sayRaw($("ask-status"), "");
      drawResult();
      if (judged) drawExamples();
      bringIntoView();
      // The address bar names the question once the answer is painted: replacing the URL takes
      // a few milliseconds (tens on a busy machine), which the answer need not wait for.
      requestAnimationFrame(() => setTimeout(() => share(result, corpus), 0));
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

  /** A semantic question waits for the model in the page, saying how much of it has arrived,
   * so that the answer's reported time is the answer's own. */
  async function waitForModel(chosen) {
    const loading = ["idle", "loading"].includes(raglab.semantic.state); // a failed model: the worker says why
    if (!info || !(info.semantic || []).includes(chosen.retriever) || !loading) return;
    const show = () => {
      const s = raglab.semantic;
      if (s.state === "loading" && s.total) {
        say($("ask-status"), "ask.model", () => ({
          done: num(Math.round(raglab.semantic.done / MB)), total: num(Math.round(raglab.semantic.total / MB)) }));
      } else {
        say($("ask-status"), "ask.model.start");
      }
    };
    show();
    raglab.addEventListener("semantic", show);
    try {
      await raglab.semanticReady();
    } catch {
      // the question is sent anyway: the worker's answer says what failed and what to do
    } finally {
      raglab.removeEventListener("semantic", show);
    }
  }

  /** The address bar names the question and its configuration, so the URL can be shared
   * (not for your own data, which lives only in this tab). */
  function share(result, corpus) {
    const url = new URL(window.location.href);
    url.hash = corpus === "bundled" ? shareHash(result.question, result.config) : "";
    linked = url.hash;
    window.history.replaceState(window.history.state, "", url.hash ? url.href : url.pathname + url.search);
  }

  /** A link's question and configuration (#q=…&retriever=…), asked; false when there is none.
   * A setting the page does not offer falls back to the served default. */
  function askLink() {
    const params = new URLSearchParams(window.location.hash.slice(1));
    const question = params.get("q");
    linked = window.location.hash;
    if (!question || !question.trim() || !info) return false;
    const d = info.defaults;
    const offered = { chunker: info.chunkers, retriever: info.retrievers, k: [...$("k").options].map((o) => o.value) };
    $("corpus").value = "bundled";
    for (const name of ["chunker", "retriever", "k"]) {
      const value = params.get(name);
      $(name).value = value !== null && offered[name].map(String).includes(value) ? value : String(d[name]);
    }
    const expand = params.get("expand");
    $("expand").checked = expand === "on" || expand === "off" ? expand === "on" : Boolean(d.expand);
    $("question").value = question;
    $("question").lang = guessLang(question);
    drawExamples();
    drawSummary();
    ask();
    return true;
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

  /** The language of article `doc` (an article id: a chunk id is `<doc>#<n>`). */
  function langOf(doc) {
    return articleLangs[last.corpus]?.[doc] || "en";
  }

  function drawResult() {
    if (!last) return;
    const { result: r, judged } = last;
    const qlang = guessLang(r.question);
    const where = t(last.corpus === "user" ? "ask.where.user" : "ask.where.bundled");
    const closest = r.chunks[0];
    // Digits enough that an abstention never shows "confidence 0.25, threshold 0.25".
    const belowThreshold = (c, th) => {
      let d = 2;
      while (d < 6 && c < th && c.toFixed(d) === th.toFixed(d)) d += 1;
      return { confidence: num(c, d), threshold: num(th, d) };
    };
    // Why the answer is withheld ("withheld" in the ask JSON), said in words for each reason; a
    // reason the page has no words for is said as the low confidence.
    const why = r.withheld || "low-confidence";
    const withheldText = (reason, vars) => {
      const key = `ask.withheld.${reason}`;
      const text = reason === "low-confidence" ? key : t(key, vars);
      return text === key ? t("ask.abstained", vars) : text;
    };
    const answer = r.abstained
      ? el("div", { id: "answer", class: "answer abstained", tabindex: "-1", dataset: { abstained: "true", withheld: why } },
          el("h2", {}, t("ask.answer")),
          el("p", { id: "answer-text", class: "abstention" },
            withheldText(why, { where, ...belowThreshold(r.confidence, r.config.threshold) })),
          r.chunks.length ? el("p", { class: "passages-note" }, t("ask.passages")) : null,
          closest ? el("p", { id: "closest", class: "closest" }, t("ask.closest"), " ",
            el("button", { type: "button", class: "closest-link", lang: langOf(closest.doc),
              dataset: { doc: closest.doc, chunk: closest.id }, onclick: () => openArticle(closest, r) },
            [closest.title, ...closest.heading.slice(1)].join(" › "))) : null,
          reference(judged))
      : el("div", { id: "answer", class: "answer", tabindex: "-1", dataset: { abstained: "false" } },
          el("h2", {}, t("ask.answer")),
          // The short answer first, in bold (one per fact asked), then the quoted sentences. A headline
          // that is a whole quoted sentence (the best of two) is that sentence in bold, not said twice.
          (r.short_answers || []).length && !wholeHeadline(r)
            ? el("p", { id: "short-answer", class: "short-answer", lang: langOf(r.short_answers[0].chunk.split("#")[0]) },
                el("strong", {}, r.short_answers.map((s) => s.text).join("; ")))
            : null,
          el("blockquote", { id: "answer-text", lang: langOf(r.citations[0].split("#")[0]) },
            wholeHeadline(r)
              ? r.answer.split("\n").map((line, i) => [i ? "\n" : "", line === r.short_answers[0].text ? el("strong", {}, line) : line])
              : r.answer),
          languageNote(r.answer_language),
          el("p", { class: "citations-label" }, t("ask.citations")),
          el("ul", { id: "citations", class: "citations" }, r.citations.map((id) => {
            const chunk = citedChunk(id, r);
            return el("li", {},
              el("button", { type: "button", class: "citation", dataset: { chunk: id },
                onclick: () => openArticle(chunk, r) },
                el("span", { class: "cite-id" }, `[${id}]`), " ",
                el("span", { lang: langOf(chunk.doc) }, chunk.title)));
          })),
          el("p", { class: "meta" }, t("ask.coverage", { confidence: num(r.confidence, 2), coverage: num(r.coverage, 2) })),
          reference(judged));
    // A Banglish question is searched in Bangla script: say so, so the terms below make sense.
    const readAs = r.read_as && r.read_as !== r.question
      ? el("p", { id: "read-as", class: "meta read-as" }, t("ask.readas"), " ", el("span", { lang: "bn" }, r.read_as))
      : null;
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
    // Only the question's, answer's and articles' own text carries their language; the
    // interface words around them keep the interface's (the page's <html lang>).
    const link = last.corpus === "bundled" ? el("a", { id: "share-link", href: shareHash(r.question, r.config) }, t("ask.link")) : null;
    replace($("result"), answer, readAs, terms,
      el("p", { class: "meta timing" }, t("ask.time", { ms: num(Math.round(last.ms)) }), link ? " · " : null, link),
      chunks);
    $("result").dataset.lang = qlang;
    $("result").dataset.question = r.question;
    $("result").dataset.config = JSON.stringify(r.config);
  }

  /** Why the answer is in the other language than the question ("answer_language" in the ask
   *  JSON): quoted from an English article, say, and whether the articles have a Bangla one on it. */
  function languageNote(lang) {
    if (!lang) return null;
    const key = `ask.lang.${lang.quoted}${lang.twin ? ".twin" : ""}`;
    const text = t(key, { where: t(last.corpus === "user" ? "ask.lang.where.user" : "ask.lang.where.bundled") });
    if (text === key) return null; // a language the page has no words for
    return el("p", { id: "answer-language", class: "meta answer-language",
      dataset: { quoted: lang.quoted, asked: lang.asked, twin: String(lang.twin) } }, text);
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

  // A citation may name a chunk outside the passages shown: an answer quoted in the customer's language
  // from the twin article's unit cites that unit's chunk. It stands for the quote it cites (the article's
  // highlight), titled with the article's title once the article is read.
  function citedChunk(id, r) {
    const shown = r.chunks.find((c) => c.id === id);
    if (shown) return shown;
    const quote = (r.quotes || []).find((q) => q.chunk === id) || { start: 0, end: 0 };
    const chunk = { id, doc: id.split("#")[0], title: id.split("#")[0], start: quote.start, end: quote.end };
    raglab.article(chunk.doc, { corpus: last ? last.corpus : "bundled" }).then((doc) => {
      chunk.title = doc.title;
      const label = document.querySelector(`#citations .citation[data-chunk="${CSS.escape(id)}"] span[lang]`);
      if (label) label.textContent = doc.title;
    }, () => {});
    return chunk;
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
    if (first) askLink();
  });
  window.addEventListener("hashchange", () => {
    if (window.location.hash !== linked) askLink();
  });
  // A shared link shows its question while the page starts.
  const opening = new URLSearchParams(window.location.hash.slice(1)).get("q");
  if (opening) {
    $("question").value = opening;
    $("question").lang = guessLang(opening);
  }
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
    $("corpus").dispatchEvent(new Event("corpusshown")); // the own-data banner (owndata.js) follows the corpus
  });
  onLanguage(() => {
    drawSummary();
    if (!info) return;
    drawControls();
    drawResult();
  });
  return { placeholders };
}
