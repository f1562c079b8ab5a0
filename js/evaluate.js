// The Evaluate tab: run raglab compare in the worker with a progress bar (and a
// Cancel), then show the report: an SVG chart of MRR@10 with its confidence
// interval, the very tables the CLI prints (raglab.evaluation.report.sections, cell for cell,
// their titles and notes in the interface language), the CLI's text output, and the
// answer review (review.js).

import { el, replace, svg, table } from "./dom.js";
import { addStrings, language, num, say, sayRaw } from "./i18n.js";
import { localSection } from "./report_text.js";
import { reviewSection } from "./review.js";

const $ = (id) => document.getElementById(id);

// What a running evaluation is doing, in words (the worker's progress detail, see worker.js and
// raglab.web.compare.progress_detail). Counts name what they count: the run asks the reported
// split's questions and, besides, the dev questions the thresholds are tuned on.
addStrings({
  en: {
    "eval.vectors": "Loading the vectors of the sentence chunks and the golden questions: {done} of {total} MB…",
    "eval.encode": "Encoding the {chunker} chunks: {done} of {total}{left}…",
    "eval.encode.start": "Encoding the {chunker} chunks…",
    "eval.left.s": ", about {n} seconds left",
    "eval.left.min": ", about {n} minutes left",
    "eval.left.min.one": ", about a minute left",
    "eval.index": "Evaluating {config} ({n} of {configs}): building its index…",
    "eval.questions": "Evaluating {config} ({n} of {configs}): question {question} of {questions}…",
    "eval.questions.extra": "Evaluating {config} ({n} of {configs}): question {question} of {questions} ({reported} {split} questions for the report and {extra} dev questions that tune the threshold)…",
    "eval.report": "Writing the report: confidence intervals and significance tests…",
    "eval.progress": "{text}",
    "eval.finished": "Done in {seconds} s: {configs} configurations, {questions} {split} questions in the report.",
    "eval.finished.one": "Done in {seconds} s: 1 configuration, {questions} {split} questions in the report.",
    "eval.finished.extra": "Done in {seconds} s: {configs} configurations, {questions} {split} questions in the report ({extra} dev questions tuned the thresholds).",
    "eval.finished.extra.one": "Done in {seconds} s: 1 configuration, {questions} {split} questions in the report ({extra} dev questions tuned the thresholds).",
  },
  bn: {
    "eval.vectors": "বাক্যভিত্তিক অংশ ও গোল্ডেন প্রশ্নের ভেক্টর লোড হচ্ছে: {total} মেগাবাইটের {done}…",
    "eval.encode": "{chunker} অংশগুলোর ভেক্টর হিসাব হচ্ছে: {total}টির মধ্যে {done}টি{left}…",
    "eval.encode.start": "{chunker} অংশগুলোর ভেক্টর হিসাব হচ্ছে…",
    "eval.left.s": ", আনুমানিক আর {n} সেকেন্ড",
    "eval.left.min": ", আনুমানিক আর {n} মিনিট",
    "eval.left.min.one": ", আনুমানিক আর এক মিনিট",
    "eval.index": "{config} মূল্যায়ন হচ্ছে ({configs}টির মধ্যে {n}): ইনডেক্স তৈরি হচ্ছে…",
    "eval.questions": "{config} মূল্যায়ন হচ্ছে ({configs}টির মধ্যে {n}): {questions}টি প্রশ্নের {question} নম্বর…",
    "eval.questions.extra": "{config} মূল্যায়ন হচ্ছে ({configs}টির মধ্যে {n}): {questions}টি প্রশ্নের {question} নম্বর (রিপোর্টের জন্য {split} স্প্লিটের {reported}টি, আর সীমা ঠিক করতে dev স্প্লিটের {extra}টি)…",
    "eval.report": "রিপোর্ট তৈরি হচ্ছে: আস্থা-ব্যবধান ও তাৎপর্য পরীক্ষা…",
    "eval.progress": "{text}",
    "eval.finished": "{seconds} সেকেন্ডে শেষ: {configs}টি কনফিগারেশন, রিপোর্টে {split} স্প্লিটের {questions}টি প্রশ্ন।",
    "eval.finished.extra": "{seconds} সেকেন্ডে শেষ: {configs}টি কনফিগারেশন, রিপোর্টে {split} স্প্লিটের {questions}টি প্রশ্ন (সীমা ঠিক করেছে dev স্প্লিটের {extra}টি প্রশ্ন)।",
    "eval.finished.one": "{seconds} সেকেন্ডে শেষ: ১টি কনফিগারেশন, রিপোর্টে {split} স্প্লিটের {questions}টি প্রশ্ন।",
    "eval.finished.extra.one": "{seconds} সেকেন্ডে শেষ: ১টি কনফিগারেশন, রিপোর্টে {split} স্প্লিটের {questions}টি প্রশ্ন (সীমা ঠিক করেছে dev স্প্লিটের {extra}টি প্রশ্ন)।",
  },
});

/** A count for the interface: digits grouped (1,603), in Bangla digits in the Bangla interface. */
export function count(n) {
  return num(Number(n).toLocaleString("en-US"));
}

/** "about 2 minutes left" for a number of seconds (nothing when not known yet). */
function timeLeft(t, seconds) {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "";
  if (seconds < 90) return t("eval.left.s", { n: count(Math.max(1, Math.round(seconds / 5) * 5)) });
  const minutes = Math.round(seconds / 60);
  return minutes === 1 && language() === "en" ? t("eval.left.min.one") : t("eval.left.min", { n: count(minutes) });
}

/** The status line for one progress report of a running evaluation (or an encoding before it). */
export function progressText(t, { done, total, label, detail }, split = null) {
  const d = detail || {};
  const MB = 1e6;
  if (d.phase === "vectors") return t("eval.vectors", { done: num(d.done / MB, 1), total: num(d.total / MB, 1) });
  if (d.phase === "encode") {
    if (!d.total) return t("eval.encode.start", { chunker: d.chunker });
    return t("eval.encode", { chunker: d.chunker, done: count(d.done), total: count(d.total), left: timeLeft(t, d.left) });
  }
  if (d.phase === "report") return t("eval.report");
  const where = { config: d.config || label, n: count(d.n || done + 1), configs: count(d.configs || total) };
  if (d.phase === "questions") {
    const key = d.extra ? "eval.questions.extra" : "eval.questions";
    return t(key, { ...where, question: count(d.question), questions: count(d.questions), reported: count(d.reported),
      extra: count(d.extra), split: split ? t(`eval.split.${split}`) : "" });
  }
  return t("eval.index", where);
}

/** Run compareView with a progress bar and a Cancel button; returns the view or null (the error is shown). */
export async function runCompare(raglab, t, { options, corpus, progress, status, cancel }) {
  progress.hidden = false;
  progress.value = 0;
  progress.max = 1;
  say(status, "eval.starting");
  cancel.hidden = false;
  cancel.onclick = () => raglab.cancel();
  const started = performance.now();
  try {
    const view = await raglab.compareView(options, (update) => {
      progress.max = update.total || 1;
      progress.value = update.done;
      status.dataset.phase = (update.detail && update.detail.phase) || "";
      say(status, "eval.progress", () => ({ text: progressText(t, update, options.split) }));
    }, { corpus });
    const st = view.report.settings;
    const seconds = (performance.now() - started) / 1000;
    const configs = view.report.configs.length + (view.hidden ? view.hidden.length : 0);
    // dev questions asked besides the reported split's, to tune the thresholds
    const extra = st.split === "test" ? st.dev_questions : 0;
    const key = "eval.finished" + (extra ? ".extra" : "") + (configs === 1 ? ".one" : "");
    say(status, key, () => ({ seconds: num(seconds, 1), configs: count(configs), questions: count(st.questions),
      extra: count(extra), split: t(`eval.split.${st.split}`) }));
    status.dataset.seconds = String(seconds);
    status.dataset.phase = "done";
    return view;
  } catch (err) {
    if (err.type === "Cancelled") say(status, "eval.cancelled");
    else sayRaw(status, err.message);
    return null;
  } finally {
    progress.hidden = true;
    cancel.hidden = true;
  }
}

/** MRR@10 per configuration as dots with 95% interval whiskers on a 0–1 axis. */
export function mrrChart(report, title) {
  const rows = report.configs;
  const labelWidth = 210;
  const plotWidth = 360;
  const rowHeight = 22;
  const top = 28;
  const height = top + rows.length * rowHeight + 10;
  const x = (v) => labelWidth + v * plotWidth;
  const chart = svg("svg", {
    class: "chart", viewBox: `0 0 ${labelWidth + plotWidth + 20} ${height}`, role: "img", "aria-labelledby": "chart-title",
  }, svg("title", { id: "chart-title" }, title));
  for (let tick = 0; tick <= 10; tick += 2) {
    const v = tick / 10;
    chart.append(
      svg("line", { x1: x(v), x2: x(v), y1: top - 6, y2: height - 6, class: "grid" }),
      svg("text", { x: x(v), y: top - 12, "text-anchor": "middle", class: "tick" }, num(v, 1)));
  }
  rows.forEach((row, i) => {
    const y = top + i * rowHeight + rowHeight / 2;
    const mrr = row.metrics.mrr;
    const ci = row.ci.mrr;
    const isBase = row.label === report.settings.baseline;
    const g = svg("g", { class: "row" + (isBase ? " baseline" : "") },
      svg("text", { x: labelWidth - 8, y: y + 4, "text-anchor": "end", class: "label" }, row.label),
      svg("line", { x1: labelWidth, x2: labelWidth + plotWidth, y1: y, y2: y, class: "track" }));
    if (ci) g.append(svg("line", { x1: x(ci[0]), x2: x(ci[1]), y1: y, y2: y, class: "ci" }),
      svg("line", { x1: x(ci[0]), x2: x(ci[0]), y1: y - 5, y2: y + 5, class: "ci" }),
      svg("line", { x1: x(ci[1]), x2: x(ci[1]), y1: y - 5, y2: y + 5, class: "ci" }));
    if (mrr !== null) {
      g.append(svg("circle", { cx: x(mrr), cy: y, r: 4.5, class: "dot" },
        svg("title", {}, `${row.label}: MRR@10 ${num(mrr, 3)}` + (ci ? ` [${num(ci[0], 3)}, ${num(ci[1], 3)}]` : ""))));
    }
    chart.append(g);
  });
  return el("figure", { class: "chart-figure" }, chart, el("figcaption", {}, title));
}

/**
 * Risk–coverage per configuration (raglab.risk): x = coverage (share of questions
 * answered), y = risk (share of the answered that are wrong), one step per abstention
 * threshold of the report's sweep. Every configuration is drawn faintly; the
 * recommended one, the served default and the baseline stand out and are labelled.
 */
export function riskChart(report, title, t) {
  const rows = report.configs.filter((row) => row.curve);
  if (!rows.length) return null;
  const st = report.settings;
  const pick = report.recommendation ? report.recommendation.pick : null;
  const left = 44, top = 14, size = 300, right = 20;
  const x = (v) => left + v * size;
  const y = (v) => top + (1 - v) * size;
  const chart = svg("svg", {
    class: "chart risk-chart", viewBox: `0 0 ${left + size + right} ${top + size + 40}`, role: "img", "aria-labelledby": "risk-title",
  }, svg("title", { id: "risk-title" }, title));
  for (let tick = 0; tick <= 10; tick += 2) {
    const v = tick / 10;
    chart.append(
      svg("line", { x1: x(v), x2: x(v), y1: y(0), y2: y(1), class: "grid" }),
      svg("line", { x1: x(0), x2: x(1), y1: y(v), y2: y(v), class: "grid" }),
      svg("text", { x: x(v), y: y(0) + 16, "text-anchor": "middle", class: "tick" }, num(v, 1)),
      svg("text", { x: x(0) - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, num(v, 1)));
  }
  chart.append(
    svg("text", { x: x(0.5), y: y(0) + 34, "text-anchor": "middle", class: "label" }, t("eval.risk.x")),
    svg("text", { x: 12, y: y(0.5), "text-anchor": "middle", class: "label", transform: `rotate(-90 12 ${y(0.5)})` }, t("eval.risk.y")));
  const roles = (label) => [label === pick && "pick", label === st.served && "served", label === st.baseline && "baseline"].filter(Boolean);
  const ordered = [...rows].sort((a, b) => roles(a.label).length - roles(b.label).length); // highlighted on top
  const legend = el("ul", { class: "risk-legend" });
  for (const row of ordered) {
    const points = row.curve.filter((p) => p.risk !== null && p.coverage !== null);
    if (!points.length) continue;
    const role = roles(row.label);
    const aurc = row.aurc && row.aurc.value !== null ? num(row.aurc.value, 3) : "n/a";
    const line = svg("polyline", {
      points: points.map((p) => `${x(p.coverage).toFixed(1)},${y(p.risk).toFixed(1)}`).join(" "),
      class: "risk-line " + (role.length ? role[0] : "other"),
    }, svg("title", {}, `${row.label}: AURC ${aurc}`));
    chart.append(line);
    if (role.length) {
      legend.prepend(el("li", { class: role[0] }, el("span", { lang: "en" }, row.label),
        ` (${role.map((r) => t(`eval.role.${r}`)).join(", ")}): AURC ${aurc}`));
    }
  }
  return el("figure", { class: "chart-figure" }, chart, legend, el("figcaption", {}, title));
}

/** The report view into `container`: the answer review (first when `reviewFirst`), the
 * configurations hidden as identical, the chart, the tables and the CLI's text. */
export function drawReport(container, view, { t, onAsk, corpus, command = null, reviewFirst = false }) {
  const { report, sections, text } = view;
  const review = reviewSection(view, { t, onAsk, corpus });
  const parts = [];
  if (command) parts.push(el("p", { class: "meta" }, t("eval.same"), " ", el("code", { class: "command", lang: "en" }, command)));
  if (reviewFirst) parts.push(review);
  if (view.hidden && view.hidden.length) {
    parts.push(el("p", { class: "note hidden-rows" }, t("eval.hidden", { n: num(view.hidden.length) }), " ",
      view.hidden.map((h, i) => [i ? "; " : "", el("span", { lang: "en" }, `${h.label} = ${h.same_as}`)])));
  }
  parts.push(mrrChart(report, t("eval.chart")));
  const risk = riskChart(report, t("eval.risk"), t);
  if (risk) parts.push(risk);
  for (const raw of sections) {
    const section = localSection(raw, report);
    parts.push(el("section", { class: "report-section", dataset: { title: raw.title } },
      el("h3", {}, section.title),
      section.notes.map((note) => el("p", { class: "note" }, note)),
      table(section.header, section.rows, { caption: null })));
  }
  parts.push(el("details", { class: "cli-text" },
    el("summary", {}, t("eval.cli")),
    el("pre", { lang: "en", tabindex: "0", dataset: { content: "cli" } }, text)));
  if (!reviewFirst) parts.push(review);
  replace(container, parts);
}

export function setupEvaluate({ raglab, t, onLanguage, selectTab }) {
  let info = null;
  let view = null;
  let lastCommand = null;
  let runs = 0; // #eval-result[data-seq] changes when a run has finished (drawn or failed)

  function checks(container, name, values, checked = () => true) {
    replace(container, values.map((value) => el("label", { class: "check" },
      el("input", { type: "checkbox", name, value, checked: checked(value) }), " ", value)));
  }

  function options() {
    const picked = (id) => [...$(id).querySelectorAll("input:checked")].map((input) => input.value);
    const opts = {
      split: $("eval-split").value,
      chunker: picked("eval-chunkers"),
      retriever: picked("eval-retrievers"),
      expand: $("eval-expand").value,
      // the served k, so the served configuration's row (and its answer review) is what Ask serves
      k: info.defaults.k,
      per_question: true,
    };
    // Differences are taken against the served configuration when it is in the grid
    // (the question the page asks is "is anything better than what we serve?");
    // otherwise compare's own default baseline applies.
    const d = info.defaults;
    const expands = { off: [false], on: [true], both: [false, true] }[opts.expand];
    if (opts.chunker.includes(d.chunker) && opts.retriever.includes(d.retriever) && expands.includes(d.expand)) {
      opts.baseline = info.served;
    }
    return opts;
  }

  /** The command line that prints the same tables (all names given means the default: all). */
  function command(opts) {
    const parts = ["raglab compare", `--split ${opts.split}`];
    if (opts.chunker.length < info.chunkers.length) parts.push(...opts.chunker.map((c) => `--chunker ${c}`));
    if (opts.retriever.length < info.retrievers.length) parts.push(...opts.retriever.map((r) => `--retriever ${r}`));
    parts.push(`--expand ${opts.expand}`, `-k ${opts.k}`);
    if (opts.baseline) parts.push(`--baseline ${opts.baseline}`);
    return parts.join(" ");
  }

  /** Ask one question in the Ask tab with a given configuration (from the drill-down). */
  function askThere(question, config, corpus) {
    $("chunker").value = config.chunker;
    $("retriever").value = config.retriever;
    $("expand").checked = config.expand;
    $("corpus").value = corpus;
    $("question").value = question;
    selectTab("tab-ask");
    $("ask-form").requestSubmit();
  }

  $("eval-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const opts = options();
    if (!opts.chunker.length || !opts.retriever.length) {
      say($("eval-status"), "eval.nothing");
      return;
    }
    $("eval-run").disabled = true;
    replace($("eval-result"));
    view = await runCompare(raglab, t, {
      options: opts, corpus: "bundled", progress: $("eval-progress"), status: $("eval-status"), cancel: $("eval-cancel"),
    });
    $("eval-run").disabled = false;
    lastCommand = command(opts);
    if (view) drawReport($("eval-result"), view, { t, onAsk: askThere, corpus: "bundled", command: lastCommand });
    $("eval-result").dataset.seq = String(++runs);
  });

  raglab.addEventListener("ready", (event) => {
    if (info) return; // a restart after a cancelled evaluation keeps the choices
    info = event.detail;
    // Preselected: the README's headline, the served chunker with BM25 and the served
    // retriever under the served expansion setting (the served configuration against the
    // baseline). Every chunker as well took three times as long (about 40 s on a desktop, minutes
    // on a phone); checking everything gives the CLI's full grid, which takes minutes here.
    const d = info.defaults;
    checks($("eval-chunkers"), "chunker", info.chunkers, (name) => name === d.chunker);
    checks($("eval-retrievers"), "retriever", info.retrievers, (name) => name === "bm25" || name === d.retriever);
    $("eval-expand").value = d.expand ? "on" : "off";
    $("eval-run").disabled = !info.compare;
    if (info.compare) sayRaw($("eval-status"), "");
    else say($("eval-status"), "eval.unavailable");
  });
  onLanguage(() => {
    if (info && !info.compare) say($("eval-status"), "eval.unavailable");
    if (view) drawReport($("eval-result"), view, { t, onAsk: askThere, corpus: "bundled", command: lastCommand });
  });
  return { askThere };
}
