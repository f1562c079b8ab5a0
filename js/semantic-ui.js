// The page's view of the semantic model, which the worker loads after the page is ready
// (js/semantic.js): a status line with its own progress ("semantic model 12 / 21 MB"),
// Retry when it failed, and the semantic retrievers marked as loading in every selector
// until it is in. Questions asked with them meanwhile simply wait in the worker.

import { addStrings, t, num } from "./i18n.js";
import { progressText } from "./evaluate.js";

addStrings({
  en: {
    "semantic.loading": "Semantic model {done} / {total} MB…",
    "semantic.ready": "Semantic model ready.",
    "semantic.absent": "This build has no semantic model; the lexical retrievers answer.",
    "semantic.failed": "The semantic model did not load: {message}. Lexical retrievers keep working.",
    "semantic.retry": "Retry",
    "semantic.option": "(loading…)",
    "semantic.unavailable": "(unavailable)",
    "semantic.default": "The served default is semantic: its first answer waits for the model; pick a lexical retriever to answer at once.",
    "own.semantic": "Include the semantic retrievers (your chunks' vectors are computed in this tab first)",
    "own.vectorsCancel": "Cancel",
  },
  bn: {
    "semantic.loading": "সিমান্টিক মডেল {done} / {total} MB…",
    "semantic.ready": "সিমান্টিক মডেল প্রস্তুত।",
    "semantic.absent": "এই বিল্ডে সিমান্টিক মডেল নেই; শব্দভিত্তিক রিট্রিভার উত্তর দেয়।",
    "semantic.failed": "সিমান্টিক মডেল লোড হয়নি: {message}। শব্দভিত্তিক রিট্রিভার কাজ করছে।",
    "semantic.retry": "আবার চেষ্টা করুন",
    "semantic.option": "(লোড হচ্ছে…)",
    "semantic.unavailable": "(পাওয়া যাচ্ছে না)",
    "semantic.default": "ডিফল্ট রিট্রিভার সিমান্টিক: প্রথম উত্তর মডেলের জন্য অপেক্ষা করবে; এখনই উত্তর পেতে শব্দভিত্তিক রিট্রিভার বেছে নিন।",
    "own.semantic": "সিমান্টিক রিট্রিভারও যাচাই করুন (আপনার অংশগুলোর ভেক্টর আগে এই ট্যাবেই হিসাব হবে)",
    "own.vectorsCancel": "বাতিল",
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
    const state = raglab.semantic.state;
    const loading = state !== "ready";
    // a model that failed or is not in this build is not "loading": say it is unavailable
    const note = state === "failed" || state === "absent" ? t("semantic.unavailable") : t("semantic.option");
    for (const option of document.querySelectorAll("option")) {
      if (!info.semantic.includes(option.value)) continue;
      if (!option.dataset.label) option.dataset.label = option.textContent;
      const label = option.dataset.label + (loading ? " " + note : "");
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
    if (s.state === "absent") {
      text.textContent = t("semantic.absent");
    } else if (s.state === "failed") {
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

/**
 * Own data has no shipped vectors: compute its chunk vectors in the worker for each chunker,
 * with progress, a time estimate and Cancel. Resolves true when all are in, false when the
 * user cancelled (what was computed is kept); rejects when the model is not available.
 */
export async function encodeOwnData(raglab, chunkers, { corpus = "user" } = {}) {
  const box = document.getElementById("own-vectors");
  const bar = document.getElementById("own-vectors-progress");
  const text = document.getElementById("own-vectors-text");
  const cancel = document.getElementById("own-vectors-cancel");
  const stop = () => raglab.cancelEncoding().catch(() => {});
  let cancelled = false;
  box.hidden = false;
  cancel.disabled = false;
  cancel.addEventListener("click", stop);
  try {
    for (const chunker of chunkers) {
      text.textContent = progressText(t, { detail: { phase: "encode", chunker, done: 0, total: 0, left: null } });
      await raglab.encodePassages({ chunker }, (update) => {
        bar.max = update.total || 1;
        bar.value = update.done;
        text.textContent = progressText(t, update); // "Encoding the fixed chunks: 65 of 1,603, about 2 minutes left…"
      }, { corpus });
    }
    return true;
  } catch (err) {
    if (err.type === "Cancelled") {
      cancelled = true;
      text.textContent = err.message;
      return false;
    }
    throw err;
  } finally {
    cancel.removeEventListener("click", stop);
    cancel.disabled = true;
    if (!cancelled) box.hidden = true;
  }
}
