// The notes of the report's findings sections (raglab.evaluation.findings: harm, risk-coverage,
// contextual precision, golden-set size, the recommendation) in Bangla. Python writes them in
// English from the report's numbers; these sentences say the same, computed from the same
// numbers and formatted the same way (num() rounds as Python's format does), with Bangla
// digits. Configuration and metric names stay as the command line prints them; `code` and
// *emphasis* are marked as in Python's notes (report_text.noteNodes renders both).

import { num } from "./i18n.js";

// The recommendation rule as raglab.evaluation.recommend.RULE states it; a report whose
// rule reads otherwise keeps Python's English sentence (and the Bangla interface test says so).
export const RULE_EN = "of the configurations compared, those whose dev recall@k reaches the lower end of the 95% interval "
  + "of the best dev recall@k are candidates; a candidate is rejected when its figure on a guarded slice "
  + "(crosslingual questions each way and misspelt questions by recall@k, Bangla questions and paraphrases "
  + "by MRR@10) falls below the lower end of the 95% interval of the best candidate's figure on that slice; "
  + "serve the remaining candidate with the highest mean of its dev MRR@10 on paraphrase questions (overall "
  + "MRR@10 without paraphrases) and its recorded dev MRR@10 on each external question set (when every "
  + "remaining candidate has them), ties to three decimals going to the higher overall dev MRR@10, then to fewer "
  + "context words";
const RULE_BN = "তুলনা করা কনফিগারেশনগুলোর মধ্যে যেগুলোর dev recall@k সেরা dev recall@k-এর ৯৫% ব্যবধানের নিচের প্রান্তে "
  + "পৌঁছায়, সেগুলো প্রার্থী; কোনো সুরক্ষিত অংশে (দুই দিকের ভিন্ন ভাষার প্রশ্ন ও ভুল বানানের প্রশ্নে recall@k, বাংলা প্রশ্ন ও "
  + "ভিন্ন ভাষ্যের প্রশ্নে MRR@10) কোনো প্রার্থীর মান সেরা প্রার্থীর ওই অংশের মানের ৯৫% ব্যবধানের নিচের প্রান্তের নিচে নামলে সেটি "
  + "বাদ যায়; বাকি প্রার্থীদের মধ্যে যার dev-এ ভিন্ন ভাষ্যের প্রশ্নে MRR@10 (ভিন্ন ভাষ্যের প্রশ্ন না থাকলে সামগ্রিক MRR@10) "
  + "আর প্রতিটি বাইরের প্রশ্নসেটে লিখে রাখা dev MRR@10-এর (বাকি সব প্রার্থীর তা থাকলে) গড় সবচেয়ে বেশি, সেটি পরিবেশন করুন; "
  + "তিন দশমিক পর্যন্ত সমান হলে যার সামগ্রিক dev MRR@10 বেশি, তারপর যার প্রসঙ্গ-শব্দ কম";
export const MIN_INTERVAL_N = 10; // raglab.evaluation.metrics.MIN_INTERVAL_N: no interval below this many questions

const f = (x, places = 3) => (x === null || x === undefined ? "n/a" : num(x, places));
const ci = (pair) => (pair ? `[${f(pair[0])}, ${f(pair[1])}]` : `n খুব কম (< ${num(MIN_INTERVAL_N)})`);
const p = (x) => (x === null || x === undefined ? "n/a" : x < 0.001 ? `<${num(0.001, 3)}` : f(x));
const signed = (x) => (x < 0 || Object.is(x, -0) ? "-" : "+") + f(Math.abs(x));

function harm(st) {
  return [
    `ভুল: মোট ${num(st.questions)}টি প্রশ্নের মধ্যে যেগুলোর উত্তরে নির্ধারিত তথ্যটি নেই (নির্ধারিত উত্তরের প্রতিটি সংখ্যা আর `
      + "অন্তত অর্ধেক বিষয়বস্তু-শব্দ), অথবা উত্তরহীন প্রশ্নেও উত্তর দেওয়া হয়েছে, তাদের ভাগ; ঝুঁকি: দেওয়া উত্তরের মধ্যে ভুলের ভাগ; "
      + "দুটিই ঠিক করা সীমায়। misleading@1: উত্তরযোগ্য প্রশ্নের মধ্যে যেগুলোর শীর্ষ অংশ এমন নিবন্ধ থেকে আসে যাতে কোনো প্রমাণ নেই, "
      + "অথচ অংশটিতে প্রশ্নের উত্তরের ধরনের একটি মান আছে (যেমন ‘কত’ প্রশ্নে একটি টাকার অঙ্ক), তাদের ভাগ।",
    `AURC: ঝুঁকি–কভারেজ রেখার নিচের ক্ষেত্রফল (Geifman ও El-Yaniv ${num(2017)}; প্রশ্নগুলো উত্তরদাতার আস্থা অনুযায়ী সাজানো, `
      + "সমান আস্থার প্রশ্নগুলো একসঙ্গে উত্তর পায়), কম হলে ভালো; প্রশ্নের ওপর ৯৫% পারসেন্টাইল বুটস্ট্র্যাপ ব্যবধানসহ "
      + `(${num(st.resamples)}টি পুনর্নমুনা)। সর্বোচ্চ কভারেজ: সীমা ${num(0)} হলে উত্তরদাতা যত ভাগ প্রশ্নে কিছু বলতে পারে, `
      + "যেখানে রেখাটি শেষ হয়।",
  ];
}

function riskCoverage() {
  return ["কভারেজ / ঝুঁকি, যখন আস্থা সীমা t ছুঁলেই প্রশ্নের উত্তর দেওয়া হয় (কভারেজ: সব প্রশ্নের মধ্যে উত্তর দেওয়ার ভাগ; ঝুঁকি: "
    + `দেওয়া উত্তরের মধ্যে ভুলের ভাগ)। পুরো পরিসর (t = ${num(0, 2)}, ${num(0.05, 2)}, …, ${num(1, 2)}) ওপরের চিত্রে আঁকা আছে।`];
}

function context(st) {
  const k = num(st.k);
  return [`DeepEval-এর সংজ্ঞা, তবে LLM বিচারকের বদলে স্প্যান দিয়ে, শীর্ষ ${k}টি অংশে। প্রাসঙ্গিক নির্ভুলতা = `
    + "`(1/R) × Σᵢ (শীর্ষ i-তে প্রাসঙ্গিক অংশ / i) × rᵢ`, যেখানে `i` ক্রমের অংশটি কোনো প্রমাণ ঢাকলে `rᵢ` = ১, আর `R` = শীর্ষ k-তে "
    + "প্রাসঙ্গিক অংশের সংখ্যা। প্রাসঙ্গিক recall = নির্ধারিত উত্তরের তথ্যগুলোর যত ভাগ শীর্ষ k-র অংশগুলো *একসঙ্গে* ঢাকে "
    + "(recall@k চায় একটি অংশই তথ্যটি একা ঢাকুক)।"];
}

function goldenSize(report) {
  const st = report.settings;
  let family = 0;
  let survivors = 0;
  const mdes = [];
  for (const r of report.configs) {
    if (!r.paired) continue;
    for (const m of ["mrr", "recall"]) {
      family += 1;
      if (r.paired[m].survives) survivors += 1;
      if (m === "mrr" && r.paired[m].mde !== null && r.paired[m].mde !== undefined) mdes.push(r.paired[m].mde);
    }
  }
  mdes.sort((a, b) => a - b);
  const median = mdes.length ? mdes[Math.floor(mdes.length / 2)] : null;
  return [
    `ন্যূনতম শনাক্তযোগ্য প্রভাব (MDE): বেসলাইন (${st.baseline}) থেকে সবচেয়ে ছোট যে প্রকৃত পার্থক্য এই ${num(st.answerable)}টি `
      + `উত্তরযোগ্য প্রশ্নে দুই-দিকের জোড়া পরীক্ষা ৮০% ক্ষমতায়, alpha = ${num(0.05, 2)} স্তরে ধরতে পারে; নরমাল আসন্নমান `
      + "`(1.960 + 0.842) × sd(d) / √n` দিয়ে, যেখানে `sd(d)` প্রশ্নভিত্তিক পার্থক্যগুলোর দেখা আদর্শ বিচ্যুতি। পুরো গ্রিডে MRR@10-এর "
      + `মধ্যমা MDE: ${f(median)}; এর চেয়ে ছোট প্রকৃত পার্থক্য বেশিরভাগ সময় চোখে পড়বে না।`,
    `p-মান: দুই-দিকের জোড়া চিহ্ন-উল্টানো বিন্যাস পরীক্ষা (${num(2000)}টি দৈব চিহ্ন-বিন্যাস, নির্দিষ্ট বীজ); Holm p-মান: এই টেবিলের `
      + `সব ${num(family)}টি তুলনার ওপর Holm-Bonferroni সংশোধন। ${num(family)}টির মধ্যে ${num(survivors)}টি পার্থক্য `
      + `${num(0.05, 2)} স্তরে সংশোধনের পরও টিকে থাকে (‘টিকে থাকে’ কলাম)।`,
  ];
}

function recommendation(report) {
  const st = report.settings;
  const rec = report.recommendation;
  const by = Object.fromEntries(report.configs.map((r) => [r.label, r]));
  const pick = by[rec.pick];
  const m = pick.metrics;
  const figs = rec.figures;
  const basis = rec.chosen_on === "dev" ? "dev প্রশ্নগুলোতে"
    : `রিপোর্ট করা ${rec.chosen_on} প্রশ্নগুলোতে (dev প্রশ্ন নেই, তাই এটি একই নমুনার ভেতরের বাছাই)`;
  const rule = rec.rule === RULE_EN ? RULE_BN : rec.rule;
  const paraphrase = rec.by.startsWith("paraphrase");
  // Step 4 with the external sets: the mean of the three figures (raglab.evaluation.findings._step4_figure).
  const external = rec.by.includes("external") && rec.step4;
  const notes = [
    `${rec.pick} পরিবেশন করুন। বাছাই হয়েছে ${basis} (${num(rec.answerable)}টি উত্তরযোগ্য), এই নিয়মে: ${rule}।`,
    `dev-এ সেরা recall@${st.k}: ${rec.best}, ${f(figs[rec.best].recall)} ${ci(rec.best_ci)}; ${num(report.configs.length)}টি `
      + `কনফিগারেশনের মধ্যে ${num(rec.candidates.length)}টি ${f(rec.floor)}-এ পৌঁছায়, আর recall দিয়ে ডেটা এদের আলাদা করতে পারে না। `
      + `এদের মধ্যে ${rec.pick}-এর dev ${paraphrase ? "ভিন্ন ভাষ্যের প্রশ্নে MRR@10" : "MRR@10"}`
      + `${external ? " আর বাইরের প্রশ্নসেটগুলোর MRR@10-এর গড়" : ""} সবচেয়ে বেশি `
      + `(${f(external ? rec.step4[rec.pick] : paraphrase ? figs[rec.pick].paraphrase_mrr : figs[rec.pick].mrr)})।`,
    `${st.split}-এ এর recall@${st.k} ${f(m.recall)} ${ci(pick.ci.recall)}, MRR@10 ${f(m.mrr)} ${ci(pick.ci.mrr)}; এটি উত্তরযোগ্য `
      + `প্রশ্নের ${f(m.answer_rate)} ভাগের উত্তর দেয়`
      + (m.abstention_rate !== null && m.abstention_rate !== undefined ? `, উত্তরহীন প্রশ্নের ${f(m.abstention_rate)} ভাগে বিরত থাকে` : "")
      + `, আর সব প্রশ্নের ${f(m.wrong_rate)} ভাগ ভুল উত্তর পায় (AURC ${f(pick.aurc.value)}); প্রতি প্রশ্নে উত্তরদাতার কাছে `
      + `${f(m.words, 0)}টি শব্দ যায়।`,
  ];
  const latency = st.latency || {};
  if (rec.pick in latency) notes.push(`লেটেন্সি (বেঞ্চমার্ক ফাইল থেকে): প্রতি প্রশ্নে গড়ে ${f(latency[rec.pick], 1)} ms।`);
  const vs = rec.versus_cheapest;
  if (vs) {
    const saving = (figs[rec.pick].words || 0) - (figs[rec.cheapest].words || 0);
    if (vs.p !== null && vs.p !== undefined && vs.p > 0.05) {
      notes.push(`সস্তা প্রার্থী ${rec.cheapest} (প্রতি প্রশ্নে ${f(saving, 0)}টি শব্দ কম) থেকে dev MRR@10-এ ডেটা একে আলাদা করতে `
        + `পারে না: পার্থক্য ${signed(vs.diff)}, জোড়া p = ${p(vs.p)}। খরচ গুরুত্বপূর্ণ হলে ${rec.cheapest} পরিবেশন করুন: `
        + "এখানে মাপা যায় এমন কিছুই তাতে হারায় না।");
    } else {
      notes.push(`সবচেয়ে সস্তা প্রার্থী ${rec.cheapest} (প্রতি প্রশ্নে ${f(saving, 0)}টি শব্দ কম) dev MRR@10-এ ${f(vs.diff)} `
        + `খারাপ (জোড়া p = ${p(vs.p)}): বাড়তি প্রসঙ্গের দাম উঠে আসে।`);
    }
  } else {
    notes.push("এটিই সবচেয়ে সস্তা প্রার্থীও (প্রসঙ্গের শব্দ সবচেয়ে কম)।");
  }
  if (rec.pick !== st.served && !(st.served in by)) {
    notes.push(`পরিবেশিত ডিফল্ট (${st.served}) এখানে তুলনা করা কনফিগারেশনগুলোর মধ্যে নেই।`);
  } else if (rec.pick !== st.served) {
    notes.push(`এটি পরিবেশিত ডিফল্ট (${st.served}) থেকে আলাদা: এই dev প্রশ্নগুলোতে নিয়মটি সেই কনফিগারেশনের বদলে অন্যটি পছন্দ করে, `
      + "যেটি ডিফল্ট ঠিক করার সময় বাছাই হয়েছিল।");
  } else {
    notes.push("এটিই পরিবেশিত ডিফল্ট (`raglab ask`, কোনো বিকল্প ছাড়া)।");
  }
  return notes;
}

/** The Bangla notes of a findings section, or undefined when `title` is not one. */
export function findingsNotes(title, report) {
  const st = report.settings;
  switch (title) {
    case "Harm and selective answering": return harm(st);
    case "Risk-coverage": return riskCoverage();
    case "Contextual precision and recall (on spans)": return context(st);
    case "Is the golden set big enough?": return goldenSize(report);
    case "Recommendation": return recommendation(report);
    default: return undefined;
  }
}
