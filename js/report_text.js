// The evaluation report's words in the interface language. Python makes the report's
// tables (raglab.evaluation.report.sections) in English, for the command line; the page shows
// the same cells, with section titles, notes, column names and the few worded cells
// translated here, and in the Bangla interface every number in Bangla digits (configuration
// and metric names stay as the command line prints them). A section this file does not know
// keeps its English (and the Bangla interface test fails, so it gets translated). The notes'
// `code` and *emphasis* (Markdown, for the command line's --format markdown) are shown as
// such, never as raw backticks or asterisks.

import { el } from "./dom.js";
import { digits, language, num } from "./i18n.js";
import { findingsNotes } from "./findings_bn.js";

const KIND_BN = {
  direct: "সরাসরি", paraphrase: "ভিন্ন ভাষ্যে", multi: "দুটি তথ্য", crosslingual: "আন্তঃভাষিক", typo: "বানান ভুলসহ",
  unanswerable: "উত্তরহীন",
};
const LANG_BN = { en: "ইংরেজি", bn: "বাংলা" };
const SPLIT_BN = { all: "সব (dev ও test)", dev: "dev", test: "test" };
const GROUP_BN = { language: "ভাষা অনুযায়ী", kind: "ধরন অনুযায়ী", "language x kind": "ভাষা × ধরন অনুযায়ী" };

// Column names; metric abbreviations (recall@5, MRR@10, nDCG@5, hit@1, F1, EM) stay.
const HEADER_BN = {
  configuration: "কনফিগারেশন", "95% CI": "৯৫% CI", "answer F1": "উত্তরের F1", answered: "উত্তর দিয়েছে",
  abstained: "বিরত থেকেছে", threshold: "সীমা", "dev objective": "dev-এ লক্ষ্যমান", faithful: "বিশ্বস্ততা",
  "cite prec": "উদ্ধৃতির নির্ভুলতা", metric: "মাপকাঠি", difference: "পার্থক্য", verdict: "রায়",
  served: "পরিবেশিত", "ranked-low": "নিচে র‍্যাঙ্ক", reranker: "রির‍্যাঙ্কার", retriever: "রিট্রিভার", chunker: "চাঙ্কার",
  "labels by": "লেবেল যে চাঙ্কারের", wrong: "ভুল", risk: "ঝুঁকি", "max cov.": "সর্বোচ্চ কভারেজ", candidate: "প্রার্থী",
  p: "p-মান", "Holm p": "Holm p-মান", survives: "টিকে থাকে", MDE: "ন্যূনতম শনাক্তযোগ্য প্রভাব", words: "শব্দ",
  "holds fact": "তথ্য ঠিক", "holds strict": "তথ্য ঠিক (কঠোর)", "short F1": "সংক্ষিপ্ত F1", "short EM": "সংক্ষিপ্ত EM",
  "dev paraphrase MRR": "dev ভিন্ন ভাষ্যে MRR", "dev MRR@10": "dev MRR@10", scored: "মাপা হয়েছে", "MRR ids": "MRR (id)", "MRR spans": "MRR (স্প্যান)", diff: "পার্থক্য",
  "ms/question": "ms/প্রশ্ন",
};
const CELL_BN = {
  better: "ভালো", worse: "খারাপ", "no clear difference (interval contains 0)": "স্পষ্ট পার্থক্য নেই (ব্যবধানে ০ আছে)",
  yes: "হ্যাঁ", no: "না",
};
const WORD_BN = { better: "ভালো", worse: "খারাপ" };

/** A worded cell in Bangla (numbers in Bangla digits); other cells as Python wrote them. */
function cellBn(cell) {
  if (cell in CELL_BN) return CELL_BN[cell];
  let m = /^n too small \(< (\d+)\)$/.exec(cell);
  if (m) return `n খুব কম (< ${digits(m[1])})`;
  m = /^(better|worse), but not after Holm's correction$/.exec(cell);
  if (m) return `${WORD_BN[m[1]]}, তবে Holm সংশোধনের পরে নয়`;
  m = /^(better|worse) \(survives Holm's correction\)$/.exec(cell);
  if (m) return `${WORD_BN[m[1]]} (Holm সংশোধনের পরও টিকে থাকে)`;
  // numbers, intervals, "0.52 / 0.10", "<0.001", "+0.012", "n/a": digits only
  if (/\d/.test(cell) && /^[\d\s.,+\-\[\]/<>%]*$/.test(cell.replaceAll("n/a", ""))) return digits(cell);
  return cell;
}

/** A note's text as nodes: `code` as <code>, *emphasis* as <em>, the rest as text. */
export function noteNodes(text) {
  return text.split(/(`[^`]+`|\*[^*\s][^*]*\*)/).filter(Boolean).map((part) => {
    if (part.length > 2 && part.startsWith("`") && part.endsWith("`")) {
      return el("code", { lang: "en", dataset: { content: "code" } }, part.slice(1, -1));
    }
    if (part.length > 2 && part.startsWith("*") && part.endsWith("*")) return el("em", {}, part.slice(1, -1));
    return part;
  });
}

function header(cell) {
  if (cell in HEADER_BN) return HEADER_BN[cell];
  let m = /^t = ([\d.]+)$/.exec(cell);
  if (m) return `সীমা = ${digits(m[1])}`;
  m = /^ctx (precision|recall)@(\d+)$/.exec(cell);
  if (m) return `প্রাসঙ্গিক ${m[1] === "precision" ? "নির্ভুলতা" : "recall"}@${m[1] === "precision" ? digits(m[2]) : m[2]}`;
  m = /^(test|dev) (.+)$/.exec(cell);
  if (m && m[2] in HEADER_BN) return `${m[1]}-এ ${HEADER_BN[m[2]]}`;
  m = /^words@(\d+)$/.exec(cell);
  if (m) return `শব্দ@${digits(m[1])}`;
  m = /^(recall|MRR)@(\d+) (ids|spans)$/.exec(cell);
  if (m) return `${m[1]}@${m[2]} (${m[3] === "ids" ? "id" : "স্প্যান"})`;
  // slice columns: "en (n=12)", "bn paraphrase (n=3)", "paraphrase (n=7)"
  // and per-language answer columns: "holds fact en (n=54)"
  m = /^(.+) \(n=(\d+)\)$/.exec(cell);
  if (m) {
    const metric = Object.keys(HEADER_BN).find((key) => m[1].startsWith(key + " "));
    const rest = metric ? m[1].slice(metric.length + 1) : m[1];
    const words = rest.split(" ").map((w) => LANG_BN[w] || KIND_BN[w] || w);
    return `${metric ? HEADER_BN[metric] + " " : ""}${words.join(" ")} (${num(Number(m[2]))}টি)`;
  }
  return cell;
}

function title(raw) {
  const fixed = {
    Headline: "মূল ফলাফল", Retrieval: "খুঁজে আনা (রিট্রিভাল)", Answers: "উত্তর", "Failure attribution": "কোন ধাপে হারিয়েছে",
    "Abstention on unanswerable questions by language": "উত্তরহীন প্রশ্নে বিরত থাকা, ভাষা অনুযায়ী",
    "Id labels versus spans": "id লেবেল বনাম স্প্যান",
    "Harm and selective answering": "ক্ষতি ও বেছে উত্তর দেওয়া", "Risk-coverage": "ঝুঁকি–কভারেজ",
    "Contextual precision and recall (on spans)": "প্রাসঙ্গিক নির্ভুলতা ও recall (স্প্যানে)",
    "Is the golden set big enough?": "গোল্ডেন সেট কি যথেষ্ট বড়?", Recommendation: "সুপারিশ",
  };
  if (raw in fixed) return fixed[raw];
  let m = /^Against the baseline \((.+)\)$/.exec(raw);
  if (m) return `বেসলাইনের (${m[1]}) তুলনায়`;
  m = /^(.+) by (language x kind|language|kind)$/.exec(raw);
  if (m) return `${m[1] in fixed ? fixed[m[1]] : m[1]}, ${GROUP_BN[m[2]]}`;
  return raw;
}

/** The dev risk the threshold rule may not exceed, as the English note states it: the report's
 * `risk_budget` (`stats.RISK_BUDGET`), else the bound its rule's text names ("stays <= 0.10"),
 * for a report written before the setting was. */
export function riskBudget(settings) {
  if (typeof settings.risk_budget === "number") return settings.risk_budget;
  const m = /<= ([0-9]+(?:\.[0-9]+)?)/.exec(settings.tuning_rule || "");
  return m ? Number(m[1]) : null;
}

function notes(raw, report) {
  const st = report.settings;
  const k = num(st.k);
  const nAns = num(st.answerable);
  const nUna = num(st.unanswerable);
  switch (raw.title) {
    case "Headline":
      return [
        `স্প্লিট ${SPLIT_BN[st.split] || st.split}: ${num(st.questions)}টি প্রশ্ন (${nAns}টি উত্তরযোগ্য, ${nUna}টি উত্তরহীন), ${num(st.articles)}টি নিবন্ধ, k = ${k}; `
          + `কোনো অংশ প্রমাণের অন্তত ${num(st.min_coverage)} ভাগ ঢাকলে সেটি প্রমাণ ধারণ করে। ব্যবধান: প্রশ্নের ওপর পারসেন্টাইল বুটস্ট্র্যাপ, `
          + `${num(st.resamples)}টি পুনর্নমুনা, বীজ ${num(st.seed)}।`,
        `রিট্রিভালের মাপ ${nAns}টি উত্তরযোগ্য প্রশ্নে; "উত্তর দিয়েছে" হলো উত্তরযোগ্য প্রশ্নে উত্তর দেওয়ার হার, "বিরত থেকেছে" হলো `
          + `${nUna}টি উত্তরহীন প্রশ্নে বিরত থাকার হার, "ভুল" হলো সব প্রশ্নের মধ্যে ভুল উত্তরের ভাগ, "ঝুঁকি" হলো যেসব প্রশ্নের `
          + `উত্তর দিয়েছে তার মধ্যে ভুলের ভাগ। পরিবেশিত ডিফল্ট (কোনো বিকল্প ছাড়া raglab ask) হলো ${st.served}।`,
        ...(st.split !== "test"
          ? ["এখানকার প্রশ্নে সেই dev প্রশ্নগুলোও আছে যেগুলোতে সীমা ঠিক করা হয়েছে, তাই উত্তরের মাপ আশাবাদী; চূড়ান্ত ফল test-এ দেখুন।"]
          : []),
      ];
    case "Retrieval":
      return [`উত্তরযোগ্য প্রশ্ন (${nAns}টি)। শব্দ@${k}: উত্তরদাতার কাছে যাওয়া গড় শব্দসংখ্যা (সব প্রশ্নে)।`];
    case "Answers":
      return [
        "সীমা: প্রতিটি কনফিগারেশনের জন্য ০.০০, ০.০৫, …, ১.০০ এর মধ্যে সেই বিরতির সীমা, যা dev-এর ঝুঁকি (উত্তর দেওয়া প্রশ্নের "
          + `মধ্যে ভুলের ভাগ) ${num(riskBudget(st), 2)} বা কম রেখে dev-এর সবচেয়ে বেশি উত্তরযোগ্য প্রশ্নের উত্তর দেয়; সেটিই রিপোর্টের স্প্লিটে অপরিবর্তিত প্রয়োগ হয়।`,
        "তথ্য ঠিক: উত্তর (সংক্ষিপ্ত উত্তর ও উদ্ধৃত বাক্য) রেফারেন্স উত্তরের প্রতিটি সংখ্যা ও বাকি শব্দের অন্তত অর্ধেক বলে; "
          + "সংক্ষিপ্ত F1 ও EM: সংক্ষিপ্ত উত্তরের (না থাকলে উদ্ধৃত বাক্যের) টোকেন F1 ও হুবহু মিল, রেফারেন্সের সঙ্গে।",
        `F1 ও EM উদ্ধৃত বাক্যের, উত্তরযোগ্য প্রশ্নে (বিরত থাকলে ০); বিশ্বস্ততা: উত্তরের যত বাক্য শীর্ষ ${k}টি অংশে হুবহু আছে তার ভাগ; `
          + "উদ্ধৃতির নির্ভুলতা: উদ্ধৃত অংশের যত ভাগ প্রমাণ ধারণ করে।",
      ];
    case "Failure attribution":
      return [`প্রতিটি উত্তরযোগ্য প্রশ্ন ঠিক একটি ধাপের নামে (মোট ${nAns}টি): পরিবেশিত — প্রমাণ-ধারী অংশ শীর্ষ k-তে আছে; `
        + "নিচে র‍্যাঙ্ক — প্রথম ধাপের শীর্ষ ৫০-এ আছে কিন্তু শীর্ষ k-তে নেই; রির‍্যাঙ্কার — প্রথম ধাপের শীর্ষ k-তে ছিল, রির‍্যাঙ্কার সরিয়ে দিয়েছে; "
        + "রিট্রিভার — প্রমাণ-ধারী অংশ আছে কিন্তু শীর্ষ ৫০-এ নেই; চাঙ্কার — কোনো অংশই প্রমাণ ধারণ করে না।"];
    case "Answers by language":
      return ["প্রতিটি ভাষার উত্তরযোগ্য প্রশ্নে তথ্য ঠিক, সংক্ষিপ্ত F1 ও উত্তরের হার।"];
    case "Id labels versus spans":
      return ["প্রতিটি প্রশ্ন একটি চাঙ্কারের অংশ-id দিয়ে লেবেল করা, আর প্রতিটি চাঙ্কার সেই id ও স্প্যান দুইভাবে মাপা; পার্থক্যটুকুই এক চাঙ্কারে লেবেল করার দাম।"];
    default:
      if (raw.title.startsWith("Against the baseline")) {
        return ["প্রশ্নভিত্তিক পার্থক্যের (কনফিগারেশন বিয়োগ বেসলাইন) জোড়া বুটস্ট্র্যাপ, ৯৫% ব্যবধান। ব্যবধানে ০ থাকলে ডেটা দুটিকে আলাদা করতে পারে না; "
          + "অনেক কনফিগারেশন থাকলে প্রায় বিশটিতে একটি ব্যবধান কেবল দৈবক্রমে ০ বাদ দেবে।"];
      }
      return findingsNotes(raw.title, report) ?? (raw.notes.length ? null : []);
  }
}

/** `section` ({title, notes, header, rows}) with its words in the interface language; its
 * notes as lists of nodes (noteNodes). */
export function localSection(section, report) {
  if (language() !== "bn") return { ...section, notes: section.notes.map(noteNodes) };
  const translatedNotes = notes(section, report);
  return {
    title: title(section.title),
    notes: (translatedNotes === null ? section.notes : translatedNotes).map(noteNodes),
    header: section.header.map(header),
    rows: section.rows.map((row) => row.map((cell, i) => (i > 0 ? cellBn(cell) : cell))),
  };
}
