"""What the browser benchmarks run inside the page, shared by browser_timings.py and
semantic_browser.py (each imports it from here, so neither imports the other)."""

# Submit a question through the form; resolve when the result area shows it, then after
# the next paint: [ms to rendered, ms to painted, whether the shown answer is this question's].
ASK_IN_PAGE = """async (question) => {
  const result = document.getElementById('result');
  const before = Number(result.dataset.seq || 0);
  const done = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (Number(result.dataset.seq || 0) > before) { observer.disconnect(); resolve(performance.now()); }
    });
    observer.observe(result, { attributes: true, attributeFilter: ['data-seq'] });
  });
  document.getElementById('question').value = question;
  const start = performance.now();
  document.getElementById('ask-form').requestSubmit();
  const end = await done;
  await new Promise((resolve) => requestAnimationFrame(() => resolve()));  // until painted
  return [end - start, performance.now() - start, result.dataset.question === question];
}"""
