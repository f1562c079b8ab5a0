// The answer review of the Evaluate tab: per question, what the customer was served,
// the reference answer, the verdict (right / wrong / abstained / wrongly abstained)
// and the stage that lost it, with a filter per verdict ("Answered wrongly" first).
// Every verdict and stage comes from Python (raglab.evaluation.review via compare_view); this
// file only lays them out: key columns first, a row expands for the rest, so the
// table fits a phone without hidden columns.

import { el, guessLang, replace } from "./dom.js";
import { kindLabel, num } from "./i18n.js";

/** The review section for `view.review`, or null when the run had no per-question rows. */
export function reviewSection(view, { t, onAsk, corpus }) {
  const review = view.review;
  if (!review) return null;
  const { report } = view;
  const labels = report.configs.map((c) => c.label);
  const byLabel = Object.fromEntries(report.configs.map((c) => [c.label, c]));
  const preferred = labels.includes(report.settings.served) ? report.settings.served : report.settings.baseline;
  const select = el("select", { class: "review-config", "aria-label": t("eval.drill.config") },
    labels.map((label) => el("option", { value: label, selected: label === preferred, lang: "en" }, label)));
  let filter = review.verdicts[0]; // "wrong": what a team opens first
  const filters = el("div", { class: "review-filters", role: "group", "aria-label": t("review.filter") });
  const body = el("div", { class: "review-body" });

  function drawFilters() {
    const counts = review.counts[select.value] || {};
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    replace(filters, [...review.verdicts, "all"].map((name) => el("button", {
      type: "button", class: `review-filter verdict-${name}`, "aria-pressed": String(filter === name),
      dataset: { verdict: name }, onclick: () => {
        filter = name;
        draw();
      } }, `${t(`review.filter.${name}`)} (${num(name === "all" ? total : counts[name] || 0)})`)));
  }

  function detail(row, config) {
    const answer = row.answer === null
      ? el("span", { class: "abstained-text" }, t("review.none"))
      : el("span", { lang: guessLang(row.answer) }, row.answer);
    const reference = row.reference === null
      ? el("span", {}, t("ask.reference.none"))
      : el("span", { lang: guessLang(row.reference) }, row.reference);
    return el("dl", { class: "review-detail-list" },
      el("dt", {}, t("review.served")), el("dd", { class: "review-served" }, answer),
      el("dt", {}, t("review.reference")), el("dd", { class: "review-reference" }, reference),
      el("dt", {}, t("review.facts")),
      el("dd", {}, el("code", { dataset: { content: "id" } }, row.id),
        ` · ${t(`lang.${row.lang}`)} · ${kindLabel(row.kind, corpus)} · ${t("eval.drill.rank")} ${row.rank === null ? "-" : num(row.rank)}`
        + ` · F1 ${row.f1 === null ? "-" : num(row.f1, 2)}`),
      el("dd", {}, el("button", { type: "button", class: "drill-ask",
        onclick: () => onAsk(row.question, { chunker: config.chunker, retriever: config.retriever, expand: config.expand }, corpus) },
      t("eval.drill.ask"))));
  }

  function draw() {
    drawFilters();
    const label = select.value;
    const config = byLabel[label];
    const rows = review.rows.filter((r) => r.config === label && (filter === "all" || r.verdict === filter));
    if (!rows.length) {
      replace(body, el("p", { class: "note review-empty" }, t("review.empty")));
      return;
    }
    replace(body, el("table", { class: "data drill review" },
      el("thead", {}, el("tr", {},
        [t("eval.drill.question"), t("review.verdict"), t("eval.drill.stage"), el("span", { class: "visually-hidden" }, t("review.more"))]
          .map((h) => el("th", { scope: "col" }, h)))),
      rows.map((row) => {
        const more = el("tr", { class: "review-detail", hidden: true }, el("td", { colspan: "4" }, detail(row, config)));
        const toggle = el("button", { type: "button", class: "review-toggle", "aria-expanded": "false",
          "aria-label": t("review.more"), onclick: () => {
            more.hidden = !more.hidden;
            toggle.setAttribute("aria-expanded", String(!more.hidden));
          } }, "▸");
        return el("tbody", { class: `review-item verdict-${row.verdict}`, dataset: { id: row.id, verdict: row.verdict } },
          el("tr", { class: "review-row" },
            el("th", { scope: "row", lang: guessLang(row.question) }, row.question),
            el("td", { class: "review-verdict" }, t(`verdict.${row.verdict}`)),
            el("td", { class: "review-stage" }, row.stage ? t(`lost.${row.stage}`) : "-"),
            el("td", {}, toggle)),
          more);
      })));
  }

  select.addEventListener("change", draw);
  draw();
  return el("section", { class: "review-section", "aria-label": t("review.title") },
    el("h3", {}, t("review.title")),
    el("p", { class: "note" }, t("review.intro")),
    el("div", { class: "drill-controls" }, el("label", {}, t("eval.drill.config"), " ", select)),
    filters,
    body);
}
