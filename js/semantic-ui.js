// The page's view of the semantic model, which the worker loads after the page is ready
// (js/semantic.js): a status line with its own progress ("semantic model 12 / 21 MB"),
// Retry when it failed, and the semantic retrievers marked as loading in every selector
// until it is in. Questions asked with them meanwhile simply wait in the worker.

import { addStrings, t, num } from "./i18n.js";

addStrings({
  en: {
    "semantic.loading": "Semantic model {done} / {total} MB…",
    "semantic.ready": "Semantic model ready.",
    "semantic.failed": "The semantic model did not load: {message}. Lexical retrievers keep working.",
    "semantic.retry": "Retry",
    "semantic.option": "(loading…)",
    "semantic.default": "The served default is semantic: its first answer waits for the model; pick a lexical retriever to answer at once.",
  },
  bn: {
    "semantic.loading": "সিমান্টিক মডেল {done} / {total} MB…",
    "semantic.ready": "সিমান্টিক মডেল প্রস্তুত।",
    "semantic.failed": "সিমান্টিক মডেল লোড হয়নি: {message}। শব্দভিত্তিক রিট্রিভার কাজ করছে।",
    "semantic.retry": "আবার চেষ্টা করুন",
    "semantic.option": "(লোড হচ্ছে…)",
    "semantic.default": "ডিফল্ট রিট্রিভার সিমান্টিক: প্রথম উত্তর মডেলের জন্য অপেক্ষা করবে; এখনই উত্তর পেতে শব্দভিত্তিক রিট্রিভার বেছে নিন।",
  },
});

const MB = 1e6;

export function setupSemantic({ raglab, onLanguage }) {
  const box = document.getElementById("semantic");
  const text = document.getElementById("semantic-text");
  const bar = document.getElementById("semantic-progress");
  const retry = document.getElementById("semantic-retry");

  function markOptions() {
    const info = raglab.info;
    if (!info || !info.semantic) return;
    const loading = raglab.semantic.state !== "ready";
    for (const option of document.querySelectorAll("option")) {
      if (!info.semantic.includes(option.value)) continue;
      if (!option.dataset.label) option.dataset.label = option.textContent;
      const label = option.dataset.label + (loading ? " " + t("semantic.option") : "");
      if (option.textContent !== label) option.textContent = label; // (unchanged: no mutation, no loop)
    }
    for (const input of document.querySelectorAll('input[type="checkbox"]')) {
      if (info.semantic.includes(input.value)) input.closest("label")?.classList.toggle("loading", loading);
    }
  }

  function show() {
    const s = raglab.semantic;
    const info = raglab.info;
    if (!info || !info.semantic || !info.semantic.length) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.dataset.state = s.state;
    retry.hidden = s.state !== "failed";
    bar.hidden = s.state !== "loading" && s.state !== "idle";
    if (s.state === "failed") {
      text.textContent = t("semantic.failed", { message: s.error.message });
    } else if (s.state === "ready") {
      text.textContent = t("semantic.ready");
    } else {
      const done = s.done || 0;
      const total = s.total || 0;
      bar.max = total || 1;
      bar.value = done;
      text.textContent = t("semantic.loading", { done: num(Math.round(done / MB)), total: num(Math.round(total / MB)) })
        + (info.semantic.includes(info.defaults.retriever) ? " " + t("semantic.default") : "");
    }
    markOptions();
  }

  raglab.addEventListener("semantic", show);
  raglab.addEventListener("ready", show);
  raglab.addEventListener("stage", () => {
    box.hidden = true;
  });
  retry.addEventListener("click", () => {
    raglab.semantic = { state: "loading", done: 0, total: 0 };
    show();
    raglab.retrySemantic().catch(() => {});
  });
  onLanguage(show);
  // selectors are refilled on language changes and corpus switches: mark them again
  new MutationObserver(markOptions).observe(document.getElementById("main"), { childList: true, subtree: true });
}
