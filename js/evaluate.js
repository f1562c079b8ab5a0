// The Evaluate tab: run raglab compare in the worker with a progress bar, then
// show the report: an SVG chart of MRR@10 with its confidence interval, the very
// tables the CLI prints (raglab.compare.sections, cell for cell), the CLI's text
// output, and a per-question drill-down of which stage lost each question.

import { el, guessLang, replace, svg, table } from "./dom.js";
import { num } from "./i18n.js";

const $ = (id) => document.getElementById(id);

/** Run compareView with a progress bar; returns the view or null (the error is shown). */
export async function runCompare(raglab, t, { options, corpus, progress, status }) {
  progress.hidden = false;
  progress.value = 0;
  progress.max = 1;
  const started = performance.now();
  try {
    const view = await raglab.compareView(options, ({ done, total, label }) => {
      progress.max = total;
      progress.value = done;
      status.textContent = t("eval.running", { label, done: num(done), total: num(total) });
    }, { corpus });
    const st = view.report.settings;
    status.textContent = t("eval.done", {
      seconds: num((performance.now() - started) / 1000, 1), configs: num(view.report.configs.length), questions: num(st.questions),
    });
    status.dataset.seconds = String((performance.now() - started) / 1000);
    return view;
  } catch (err) {
    status.textContent = err.message;
    return null;
  } finally {
    progress.hidden = true;
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
      svg("text", { x: x(v), y: top - 12, "text-anchor": "middle", class: "tick" }, v.toFixed(1)));
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
        svg("title", {}, `${row.label}: MRR@10 ${mrr.toFixed(3)}` + (ci ? ` [${ci[0].toFixed(3)}, ${ci[1].toFixed(3)}]` : ""))));
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
export function riskChart(report, title) {
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
      svg("text", { x: x(v), y: y(0) + 16, "text-anchor": "middle", class: "tick" }, v.toFixed(1)),
      svg("text", { x: x(0) - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, v.toFixed(1)));
  }
  chart.append(
    svg("text", { x: x(0.5), y: y(0) + 34, "text-anchor": "middle", class: "label" }, "coverage (answered share)"),
    svg("text", { x: 12, y: y(0.5), "text-anchor": "middle", class: "label", transform: `rotate(-90 12 ${y(0.5)})` }, "risk (wrong share)"));
  const roles = (label) => [label === pick && "pick", label === st.served && "served", label === st.baseline && "baseline"].filter(Boolean);
  const ordered = [...rows].sort((a, b) => roles(a.label).length - roles(b.label).length); // highlighted on top
  const legend = el("ul", { class: "risk-legend" });
  for (const row of ordered) {
    const points = row.curve.filter((p) => p.risk !== null && p.coverage !== null);
    if (!points.length) continue;
    const role = roles(row.label);
    const aurc = row.aurc && row.aurc.value !== null ? row.aurc.value.toFixed(3) : "n/a";
    const line = svg("polyline", {
      points: points.map((p) => `${x(p.coverage).toFixed(1)},${y(p.risk).toFixed(1)}`).join(" "),
      class: "risk-line " + (role.length ? role[0] : "other"),
    }, svg("title", {}, `${row.label}: AURC ${aurc}`));
    chart.append(line);
    if (role.length) legend.prepend(el("li", { class: role[0] }, `${row.label} (${role.join(", ")}): AURC ${aurc}`));
  }
  return el("figure", { class: "chart-figure" }, chart, legend, el("figcaption", {}, title));
}

/** The report view: chart, tables, CLI text and drill-down, into `container`. */
export function drawReport(container, view, { t, onAsk, corpus, command = null }) {
  const { report, sections, text, questions } = view;
  const parts = [];
  if (command) parts.push(el("p", { class: "meta" }, t("eval.same"), " ", el("code", { class: "command", lang: "en" }, command)));
  parts.push(mrrChart(report, t("eval.chart")));
  const risk = riskChart(report, t("eval.risk"));
  if (risk) parts.push(risk);
  for (const section of sections) {
    parts.push(el("section", { class: "report-section", lang: "en", dataset: { title: section.title } },
      el("h3", {}, section.title),
      section.notes.map((note) => el("p", { class: "note" }, note)),
      table(section.header, section.rows, { caption: null })));
  }
  parts.push(el("details", { class: "cli-text" },
    el("summary", {}, t("eval.cli")),
    el("pre", { lang: "en", tabindex: "0" }, text)));
  if (report.questions) parts.push(drillDown(report, questions, { t, onAsk, corpus }));
  replace(container, parts);
}

function drillDown(report, texts, { t, onAsk, corpus }) {
  const labels = report.configs.map((c) => c.label);
  const select = el("select", { class: "drill-config" },
    labels.map((label) => el("option", { value: label, selected: label === report.settings.baseline }, label)));
  const onlyLost = el("input", { type: "checkbox", class: "drill-lost", checked: true });
  const body = el("div", { class: "drill-body" });
  const byLabel = Object.fromEntries(report.configs.map((c) => [c.label, c]));

  function draw() {
    const label = select.value;
    const rows = report.questions.filter((q) => q.config === label && (!onlyLost.checked || (q.stage && q.stage !== "served")));
    replace(body, el("div", { class: "table-scroll", tabindex: "0" }, el("table", { class: "data drill" },
      el("thead", {}, el("tr", {},
        ["id", t("eval.drill.question"), "lang", "kind", t("eval.drill.rank"), t("eval.drill.stage"), t("eval.drill.answered"), "F1", ""]
          .map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, rows.map((q) => {
        const question = texts[q.id] || "";
        const config = byLabel[label];
        return el("tr", { class: `stage-${q.stage || "none"}` },
          el("th", { scope: "row" }, q.id),
          el("td", { lang: guessLang(question) }, question),
          el("td", {}, q.lang), el("td", {}, q.kind),
          el("td", { class: "num" }, q.rank === null ? "-" : String(q.rank)),
          el("td", {}, q.stage || "-"),
          el("td", {}, q.answered ? t("yes") : t("no")),
          el("td", { class: "num" }, q.f1 === null ? "n/a" : q.f1.toFixed(2)),
          el("td", {}, el("button", { type: "button", class: "drill-ask",
            onclick: () => onAsk(question, { chunker: config.chunker, retriever: config.retriever, expand: config.expand }, corpus) },
          t("eval.drill.ask"))));
      })))));
  }
  select.addEventListener("change", draw);
  onlyLost.addEventListener("change", draw);
  draw();
  return el("section", { class: "drill-down" },
    el("h3", {}, t("eval.drill")),
    el("div", { class: "drill-controls" },
      el("label", {}, t("eval.drill.config"), " ", select),
      el("label", { class: "check" }, onlyLost, " ", t("eval.drill.only"))),
    body);
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
    parts.push(`--expand ${opts.expand}`);
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
      $("eval-status").textContent = t("eval.nothing");
      return;
    }
    $("eval-run").disabled = true;
    replace($("eval-result"));
    view = await runCompare(raglab, t, { options: opts, corpus: "bundled", progress: $("eval-progress"), status: $("eval-status") });
    $("eval-run").disabled = false;
    lastCommand = command(opts);
    if (view) drawReport($("eval-result"), view, { t, onAsk: askThere, corpus: "bundled", command: lastCommand });
    $("eval-result").dataset.seq = String(++runs);
  });

  raglab.addEventListener("ready", (event) => {
    info = event.detail;
    // Preselected: every chunker with BM25 and the served retriever, under the served
    // expansion setting (so the served configuration is one of the rows). Checking
    // everything gives the CLI's full grid, which takes minutes rather than seconds here.
    const d = info.defaults;
    checks($("eval-chunkers"), "chunker", info.chunkers);
    checks($("eval-retrievers"), "retriever", info.retrievers, (name) => name === "bm25" || name === d.retriever);
    $("eval-expand").value = d.expand ? "on" : "off";
    $("eval-run").disabled = !info.compare;
    $("eval-status").textContent = info.compare ? "" : t("eval.unavailable");
  });
  onLanguage(() => {
    if (info && !info.compare) $("eval-status").textContent = t("eval.unavailable");
    if (view) drawReport($("eval-result"), view, { t, onAsk: askThere, corpus: "bundled", command: lastCommand });
  });
  return { askThere };
}
