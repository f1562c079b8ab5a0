// The page: start the Python worker, show its start-up, wire the language switch
// and the tabs, and publish the JS API as `window.raglab` (documented in client.js).

import { raglab } from "./start.js"; // the worker is already starting (index.html loads start.js first)
import { STAGES } from "./client.js";
import { errorText, initialLanguage, saveLanguage, setLanguage, t, num } from "./i18n.js";
import { setupAsk } from "./ask.js";
import { setupEvaluate } from "./evaluate.js";
import { setupOwnData } from "./owndata.js";
import { setupSemantic } from "./semantic-ui.js";
import { errorDetails, replace } from "./dom.js";
import { deployment, setupOffline } from "./offline.js";
import { footer, setupAbout } from "./about.js";


const $ = (id) => document.getElementById(id);
const languageListeners = [];

/** Call `fn` now and whenever the interface language changes. */
export function onLanguage(fn) {
  languageListeners.push(fn);
}

function applyLanguage(lang) {
  setLanguage(lang);
  for (const button of document.querySelectorAll(".lang-switch button")) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === lang));
  }
  showBoot();
  for (const fn of languageListeners) fn(lang);
}

// --- start-up progress ---------------------------------------------------------------

let bootStage = "start";
const MB = 1024 * 1024;

/** What the start-up is doing, in words a support person understands, with the bytes so far. */
function bootText() {
  const stage = STAGES.includes(bootStage) ? bootStage : "runtime";
  const download = raglab.download;
  if (stage === "runtime" && download && download.total) {
    return t("boot.download", { loaded: num(download.loaded / MB, 1), total: num(download.total / MB, 1) });
  }
  return t(`boot.${stage}`);
}

function showBoot() {
  const progress = $("boot-progress");
  if (raglab.state === "ready") {
    $("boot").classList.add("done");
    progress.value = progress.max;
    const info = raglab.info;
    $("boot-stage").textContent = t("boot.ready", { articles: num(info.articles.length), questions: num(info.questions) });
    $("boot-error").hidden = true;
  } else if (raglab.state === "failed") {
    const failure = raglab.failure;
    $("boot-error-text").textContent = failure.stage === "worker"
      ? t("boot.died", { message: failure.message })
      : t("boot.failed", { stage: t(`stage.${failure.stage}`), message: errorText(failure, failure.stage) });
    replace($("boot-error-details"), errorDetails(failure, t("error.details")));
    $("boot-error").hidden = false;
    $("boot-stage").textContent = "";
  } else {
    $("boot").classList.remove("done");
    const download = raglab.download;
    if (STAGES.indexOf(bootStage) <= 0 && download && download.total) {
      progress.max = download.total;
      progress.value = download.loaded;
    } else {
      progress.max = STAGES.length;
      progress.value = Math.max(0, STAGES.indexOf(bootStage));
    }
    $("boot-stage").textContent = bootText();
    $("boot-error").hidden = true;
  }
  document.body.dataset.state = raglab.state;
}

raglab.addEventListener("stage", (event) => {
  bootStage = event.detail.stage;
  showBoot();
});
raglab.addEventListener("bytes", () => showBoot());
raglab.addEventListener("failed", () => showBoot());
raglab.addEventListener("ready", () => showBoot());

$("retry").addEventListener("click", () => {
  bootStage = "start";
  raglab.start();
  showBoot();
});

// --- tabs (arrow keys move between them, as in the ARIA tabs pattern) ------------------

const tabs = [...document.querySelectorAll('[role="tab"]')];

export function selectTab(tab, { focus = false } = {}) {
  for (const other of tabs) {
    const selected = other === tab;
    other.setAttribute("aria-selected", String(selected));
    other.tabIndex = selected ? 0 : -1;
    $(other.getAttribute("aria-controls")).hidden = !selected;
  }
  if (focus) tab.focus();
}

for (const tab of tabs) {
  tab.addEventListener("click", () => selectTab(tab));
  tab.addEventListener("keydown", (event) => {
    const i = tabs.indexOf(tab);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    selectTab(tabs[(next + tabs.length) % tabs.length], { focus: true });
  });
}

// --- language switch -----------------------------------------------------------------

for (const button of document.querySelectorAll(".lang-switch button")) {
  button.addEventListener("click", () => {
    saveLanguage(button.dataset.lang);
    applyLanguage(button.dataset.lang);
  });
}

const context = { raglab, t, onLanguage, selectTab: (id) => selectTab($(id)) };
const ask = setupAsk(context);
const { askThere } = setupEvaluate(context);
setupOwnData({ ...context, askThere });
setupSemantic(context);
setupOffline(context);
setupAbout(context);
applyLanguage(initialLanguage());

// Until Python is ready the controls show the served defaults, disabled (the manifest
// carries them, so no selector is an empty sliver while the runtime downloads).
deployment().then(({ manifest }) => {
  if (raglab.state !== "ready" && manifest.defaults) ask.placeholders(manifest.defaults);
}, () => {});

function drawFooter() {
  if (raglab.info) replace($("foot"), footer(raglab.info, raglab.runtime));
}
raglab.addEventListener("ready", drawFooter);
onLanguage(drawFooter);
