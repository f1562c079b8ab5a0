// Markdown as the help centre shows it: headings, paragraphs, bulleted and numbered
// lists and tables become DOM nodes, never HTML strings. The block syntax (the "## "
// of a heading, the "- " of a bullet, a table's "|" and its "|---|" rule) is not shown,
// but every character that is shown keeps its offset in the source text, so ranges
// given in source offsets (query-term matches, the cited quote, the chunk's span)
// land on the same characters as in the raw text. Offsets count code points, as
// Python does (see dom.highlighted).
//
// Only the shapes the help centre uses are recognised; anything else is a paragraph
// of plain text. A chunk may start or end inside a list or a table: each line is read
// on its own, so a partial table or list still renders.

import { el, highlighted, scrollBox } from "./dom.js";

const HEADING = /^(#{1,6})[ \t]+/;
const BULLET = /^[ \t]*[-*+][ \t]+/;
// "1. ", "১. " (Bangla digits), "2) ": the number stays visible, in the article's digits.
const NUMBERED = /^[ \t]*([0-9০-৯]+)[.)][ \t]+/;
const TABLE_ROW = /^[ \t]*\|/;
const TABLE_RULE = /^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$/;

/** Lines of `points` (an array of code points) as {start, end} offsets, without the "\n". */
function lines(points) {
  const out = [];
  let start = 0;
  for (let i = 0; i <= points.length; i++) {
    if (i === points.length || points[i] === "\n") {
      out.push({ start, end: i });
      start = i + 1;
    }
  }
  return out;
}

/** The prefix a regular expression matches at the start of a line, in code points. */
function prefixLength(text, pattern) {
  const found = pattern.exec(text);
  return found ? Array.from(found[0]).length : 0;
}

/** The table cells of a row line: {start, end} of each cell's text, trimmed. */
function cells(points, line) {
  const out = [];
  let i = line.start;
  while (i < line.end && (points[i] === " " || points[i] === "\t")) i++;
  if (points[i] === "|") i++;
  let start = i;
  for (; i <= line.end; i++) {
    if (i === line.end || points[i] === "|") {
      let [a, b] = [start, i];
      while (a < b && (points[a] === " " || points[a] === "\t")) a++;
      while (b > a && (points[b - 1] === " " || points[b - 1] === "\t")) b--;
      if (i < line.end || a < b) out.push({ start: a, end: b });
      start = i + 1;
    }
  }
  return out;
}

/**
 * The DOM of Markdown `text` with `ranges` ({start, end, className, mark}, offsets in
 * `text`) highlighted: a <div class="md"> of h2–h6, p, ul, ol and table elements.
 * `headingLevelOffset` shifts heading levels (with 1, the default, the article's "#"
 * title is an <h2>, since the page's own title is the <h1>). Every shown piece of
 * text is a <span class="src" data-start data-end> naming its source offsets.
 */
export function renderMarkdown(text, ranges = [], { headingLevelOffset = 1 } = {}) {
  const points = Array.from(text);
  const piece = (start, end) => {
    const local = [];
    for (const r of ranges) {
      if (r.start < end && start < r.end && r.start < r.end) local.push({ ...r, start: r.start - start, end: r.end - start });
    }
    const node = el("span", { class: "src", dataset: { start: String(start), end: String(end) } });
    node.append(...highlighted(points.slice(start, end).join(""), local));
    return node;
  };
  const root = el("div", { class: "md" });
  let list = null; // the open <ul> or <ol>
  let table = null; // {node, body, header}
  let para = null; // the open <p>
  const close = () => {
    list = null;
    table = null;
    para = null;
  };
  for (const line of lines(points)) {
    const raw = points.slice(line.start, line.end).join("");
    if (!raw.trim()) {
      close();
      continue;
    }
    const skip = prefixLength(raw, HEADING);
    if (skip) {
      close();
      const hashes = HEADING.exec(raw)[1].length;
      root.append(el(`h${Math.min(6, hashes + headingLevelOffset)}`, { class: `md-h md-h${hashes}` },
        piece(line.start + skip, line.end)));
      continue;
    }
    if (TABLE_ROW.test(raw)) {
      if (TABLE_RULE.test(raw)) {
        // The rule under the header row: the row above it becomes the header.
        if (table && table.body.rows.length === 1 && !table.header) {
          const row = table.body.rows[0];
          for (const cell of [...row.cells]) {
            const th = el("th", { scope: "col" });
            th.append(...cell.childNodes);
            cell.replaceWith(th);
          }
          table.node.tHead.append(row);
          table.header = true;
        }
        continue;
      }
      if (!table) {
        close();
        const body = el("tbody");
        const node = el("table", { class: "md-table" }, el("thead"), body);
        // named by its first row's cells (the article's own words, in the article's language)
        const label = cells(points, line).map((c) => points.slice(c.start, c.end).join("")).join(", ");
        root.append(scrollBox(node, label));
        table = { node, body, header: false };
      }
      table.body.append(el("tr", {}, cells(points, line).map((c) => el("td", {}, piece(c.start, c.end)))));
      continue;
    }
    const bullet = prefixLength(raw, BULLET);
    const numbered = bullet ? 0 : prefixLength(raw, NUMBERED);
    if (bullet || numbered) {
      const tag = bullet ? "ul" : "ol";
      if (!list || list.tagName.toLowerCase() !== tag) {
        close();
        list = el(tag, { class: "md-list" });
        root.append(list);
      }
      if (bullet) {
        list.append(el("li", {}, piece(line.start + bullet, line.end)));
      } else {
        // The number is part of the text (১., ২. in a Bangla article), so it stays shown as written.
        const number = NUMBERED.exec(raw)[1];
        const numberEnd = line.start + prefixLength(raw, /^[ \t]*[0-9০-৯]+[.)]/);
        list.append(el("li", { dataset: { number } },
          el("span", { class: "md-number" }, piece(line.start + prefixLength(raw, /^[ \t]*/), numberEnd)), " ",
          piece(line.start + numbered, line.end)));
      }
      continue;
    }
    if (para) {
      para.append("\n", piece(line.start, line.end));
      continue;
    }
    close();
    para = el("p", {}, piece(line.start, line.end));
    root.append(para);
  }
  return root;
}
