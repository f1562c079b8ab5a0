// DOM helpers. Text from users, the corpus or Python is only ever placed with
// textContent or as text nodes: nothing here parses a string as HTML.

/** Create an element: el("a", {href: "#x", class: "y", lang: "bn"}, "text", childNode, ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** Create an SVG element with attributes (numbers are fine) and children. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, String(value));
  }
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "dataset") Object.assign(node.dataset, value);
    else if (name.startsWith("on") && typeof value === "function") node.addEventListener(name.slice(2), value);
    else if (name in node && typeof value !== "string") node[name] = value; // properties such as hidden, checked
    else node.setAttribute(name, value === true ? "" : String(value));
  }
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Remove every child of `node`, then append `children`. */
export function replace(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/**
 * Text with highlighted ranges, as DOM nodes. `ranges` are {start, end, className}
 * with offsets counted in code points, as Python counts them (JavaScript strings
 * count UTF-16 units, which differ for characters outside the BMP such as emoji).
 * Ranges may nest or overlap: each piece of text gets the classes of every range
 * that covers it, and pieces covered by a range with `tag` become that element.
 */
export function highlighted(text, ranges, { tag = "mark" } = {}) {
  const points = Array.from(text);
  const cuts = new Set([0, points.length]);
  for (const r of ranges) {
    cuts.add(Math.max(0, Math.min(points.length, r.start)));
    cuts.add(Math.max(0, Math.min(points.length, r.end)));
  }
  const sorted = [...cuts].sort((a, b) => a - b);
  const out = [];
  for (let i = 0; i + 1 < sorted.length; i++) {
    const [a, b] = [sorted[i], sorted[i + 1]];
    const piece = points.slice(a, b).join("");
    const covering = ranges.filter((r) => r.start <= a && b <= r.end && r.start < r.end);
    if (!covering.length) {
      out.push(document.createTextNode(piece));
      continue;
    }
    const classes = [...new Set(covering.map((r) => r.className).filter(Boolean))].join(" ");
    const node = document.createElement(covering.some((r) => r.mark) ? tag : "span");
    if (classes) node.className = classes;
    node.textContent = piece;
    out.push(node);
  }
  return out;
}

/** "bn" when the text is mostly Bangla letters, else "en" (for lang attributes only).
 * The Bengali-block test mirrors raglab.text.analyzer.in_bangla_block (U+0980-U+09FF). */
export function guessLang(text) {
  let bangla = 0;
  let latin = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    if (cp >= 0x0980 && cp <= 0x09ff) bangla++;
    else if ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) latin++;
  }
  return bangla > latin ? "bn" : "en";
}

/** Set `box`'s more-left / more-right classes: a wide table's box shows a shadow at an edge
 * only while there is more of the table beyond it (none when the table fits). */
export function markOverflow(box) {
  const more = box.scrollWidth - box.clientWidth > 1;
  box.classList.toggle("more-left", more && box.scrollLeft > 1);
  box.classList.toggle("more-right", more && box.scrollLeft + box.clientWidth < box.scrollWidth - 1);
}

const overflowWatch = typeof ResizeObserver === "function"
  ? new ResizeObserver((entries) => {
    for (const entry of entries) {
      const box = entry.target.closest(".table-scroll");
      if (box) markOverflow(box);
    }
  })
  : null;

/** A box that scrolls `child` (a table) sideways, keyboard-focusable, its shadows kept current. */
export function scrollBox(child, label) {
  const box = el("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": label }, child);
  box.addEventListener("scroll", () => markOverflow(box), { passive: true });
  if (overflowWatch) {
    overflowWatch.observe(box);
    overflowWatch.observe(child);
  }
  return box;
}

/** A table from a header row and rows of cell strings (numeric-looking columns right-aligned). */
export function table(header, rows, { caption = null, className = "data" } = {}) {
  const numeric = header.map((_, i) => i > 0 && rows.length > 0 && rows.every((r) => /^[-+\[\d০-৯]|^n\/a$/.test(r[i] ?? "")));
  return scrollBox(
    el("table", { class: className },
      caption ? el("caption", {}, caption) : null,
      el("thead", {}, el("tr", {}, header.map((h, i) => el("th", { scope: "col", class: numeric[i] ? "num" : null }, h)))),
      el("tbody", {}, rows.map((row) => el("tr", {}, row.map((cell, i) =>
        i === 0 ? el("th", { scope: "row" }, cell) : el("td", { class: numeric[i] ? "num" : null }, cell)))))),
    caption || header.join(", "));
}

/** A "details" toggle with an error's technical text (null when it has none). */
export function errorDetails(err, label) {
  const text = err && err.details;
  if (!text) return null;
  return el("details", { class: "error-details" }, el("summary", {}, label), el("pre", { lang: "en" }, text));
}
