// Interface text in English and Bangla. Static elements carry data-i18n="key"
// (their textContent), data-i18n-placeholder, data-i18n-aria-label or
// data-i18n-title; dynamic text calls t(key, {name: value}). Only the interface
// is translated: questions, answers and articles stay in the language they are in.

const STRINGS = {
  en: {
    "app.title": "raglab — Shapla Pay help centre",
    "app.skip": "Skip to the content",
    "app.tagline": "Ask the help centre in Bangla or English and see how the answer was found. Everything runs in your browser.",
    "lang.label": "Interface language",
    "tabs.label": "Sections",
    "tab.ask": "Ask",
    "tab.evaluate": "Evaluate",
    "tab.own": "Your own data",
    "boot.runtime": "Loading the search engine in your browser…",
    "boot.raglab": "Installing the search engine…",
    "boot.corpus": "Reading the help-centre articles…",
    "boot.indexing": "Preparing the search index…",
    "boot.ready": "Ready: {articles} articles, {questions} example questions. Everything runs in this browser tab.",
    "boot.failed": "Start-up failed while {stage}: {message}",
    "boot.died": "Python stopped working: {message}. Retry starts it again.",
    "boot.retry": "Retry",
    "error.details": "Details",
    "error.internal": "Something went wrong inside Python while doing this; nothing was changed. Try again, or reload the page if it happens again.",
    "advice.runtime": "The Python runtime could not be loaded. Check the connection and reload the page.",
    "advice.raglab": "raglab's Python package could not be installed. Reload the page; if it keeps failing, the site needs rebuilding.",
    "advice.corpus": "The help-centre articles could not be read. Reload the page; if it keeps failing, the site needs rebuilding.",
    "advice.indexing": "The search index could not be built. Reload the page; if it keeps failing, please report it.",
    "stage.start": "starting",
    "stage.runtime": "starting Python",
    "stage.raglab": "installing raglab",
    "stage.corpus": "reading the articles",
    "stage.indexing": "building the index",
    "ask.question": "Your question",
    "ask.placeholder": "e.g. What is the cash out fee?  /  ক্যাশ আউটের খরচ কত?",
    "ask.submit": "Ask",
    "ask.settings": "Pipeline",
    "ask.chunker": "Chunker",
    "ask.retriever": "Retriever",
    "ask.k": "Chunks to the answerer (k)",
    "ask.expand": "Expand the query with synonyms",
    "ask.corpus": "Articles",
    "ask.corpus.bundled": "Shapla Pay help centre",
    "ask.corpus.user": "Your own data",
    "ask.default": "(served default)",
    "ask.examples": "Examples from the golden set",
    "ask.empty": "Type a question first.",
    "ask.working": "Searching…",
    "ask.answer": "Answer",
    "ask.citations": "Sources",
    "ask.abstained": "Not sure: {where} clearly answer this. No sentence answers the question with enough confidence (confidence {confidence}, threshold {threshold}; an answer needs a confidence at or above the threshold), so raglab does not guess.",
    "ask.coverage": "Confidence: {confidence} · coverage of the question: {coverage}",
    // Why an answer is withheld, by the ask JSON's "withheld" (raglab.answer.answerer.WITHHELD);
    // "low-confidence" says ask.abstained. A rule's reason is given whatever the confidence, below the
    // threshold too (answerer.withheld: the reason a user can act on first), so its words hold either way.
    "ask.withheld.no-passage": "Not found: no passage shares a word with the question, so raglab has nothing to quote and does not guess.",
    "ask.withheld.no-match": "Not sure: {where} clearly answer this. The passage closest to your question shares none of its words, so raglab does not give it as the answer (confidence {confidence}, threshold {threshold}).",
    "ask.withheld.other-half": "Withheld: the passage closest to your question speaks of the other half of what you asked (cash out where you asked about cash in, say), so raglab does not give it as the answer, whatever its confidence ({confidence}, threshold {threshold}).",
    "ask.withheld.other-period": "Withheld: the passage states a figure for another period than the one you asked (a day where you asked about a month, say), so raglab does not give it as the answer, whatever its confidence ({confidence}, threshold {threshold}).",
    "ask.withheld.one-case": "Withheld: you asked for a limit and the passage closest to your question gives the figure of one worked example (for one amount), not the limit, so raglab does not give it as the answer, whatever its confidence ({confidence}, threshold {threshold}).",
    "ask.withheld.no-value": "Withheld: you asked for a figure (or a number to call, an address to write to) and the passage closest to your question states none, so raglab does not give it as the answer, whatever its confidence ({confidence}, threshold {threshold}).",
    "ask.withheld.only-the-way": "Withheld: you reported that something does not work and the passage closest to your question only says how it is done, which you have tried, so raglab does not give it as the answer, whatever its confidence ({confidence}, threshold {threshold}).",
    "ask.withheld.other-subject": "Withheld: you asked for a figure about a service or a kind of price that the passage closest to your question does not name, so its figure is about something else and raglab does not give it as the answer, whatever its confidence ({confidence}, threshold {threshold}).",
    "ask.withheld.no-list": "Withheld: you asked what is needed or which details there are, and the passages closest to your question name nothing of the kind, so raglab does not give them as the answer, whatever its confidence ({confidence}, threshold {threshold}).",
    "ask.withheld.no-way": "Withheld: you asked how to do something, and the passage closest to your question does not say what to do, while a passage that does ranked below it, so raglab does not give it as the answer, whatever its confidence ({confidence}, threshold {threshold}). Look at the steps among the passages below.",
    "ask.top": "Top {n} passages",
    "ask.rank": "Rank",
    "ask.score": "score {score}",
    "ask.terms": "Query terms (from the analyzer): {terms}",
    "ask.readas": "Read as Bangla:",
    "ask.noterms": "The analyzer found no searchable terms in this question.",
    "ask.time": "Answered in {ms} ms",
    "ask.open": "Open the article",
    "kind.direct": "direct",
    "kind.paraphrase": "paraphrase",
    "kind.multi": "two facts",
    "kind.crosslingual": "cross-lingual",
    "kind.typo": "with typos",
    "kind.unanswerable": "not in the help centre",
    "kind.unanswerable.user": "not in your articles",
    "article.close": "Close",
    "article.legend.chunk": "the retrieved passage",
    "article.legend.evidence": "the quoted evidence",
    "eval.intro": "Runs raglab compare on the bundled golden set in your browser: every selected chunker × retriever, scored on character spans, with bootstrap confidence intervals.",
    "eval.split": "Split",
    "eval.chunkers": "Chunkers",
    "eval.retrievers": "Retrievers",
    "eval.expand": "Query expansion",
    "eval.expand.off": "off",
    "eval.expand.on": "on",
    "eval.expand.both": "both (separate rows)",
    "eval.run": "Run the evaluation",
    "eval.hint": "Every box checked with expansion “both” is the command line’s full grid; it takes minutes in a browser.",
    "eval.unavailable": "This build has no evaluation module (raglab compare).",
    "eval.same": "The same tables as the command",
    "eval.chart": "MRR@10 per configuration, with its 95% confidence interval",
    "eval.risk": "Risk–coverage: the share of wrong answers among those given, as the abstention threshold lets more questions through (lower is better)",
    "eval.cli": "The same report as printed by the command line",
    "eval.drill.config": "Configuration",
    "eval.drill.question": "Question",
    "eval.drill.rank": "Rank",
    "eval.drill.stage": "Stage",
    "eval.drill.ask": "Ask",
    "eval.nothing": "Choose at least one chunker and one retriever.",
    "own.intro": "Evaluate your own articles and questions. The files stay in this tab: nothing is uploaded.",
    "own.articles": "Articles (Markdown, one file per article, starting with a '# Title' line)",
    "own.questions": "Questions (JSON Lines in the golden format: id, lang, kind, split, question, answer, evidence; or a SQuAD 1.1/2.0 .json file, which brings its own articles)",
    "own.paste": "…or paste one article",
    "own.pasteName": "File name",
    "own.pasteQuestions": "…or paste the questions",
    "own.add": "Add the pasted article",
    "own.clear": "Clear",
    "own.noquestions": "no questions file",
    "own.reading": "Reading your files… {done} of {total}",
    "own.questionsFile": "questions from {name}",
    "own.run": "Check and evaluate",
    "own.example": "An example line",
    "own.exampleNote": "\"doc\" is an article's file name without .md; \"quote\" must occur exactly once in it. kind: direct, paraphrase, multi, crosslingual, typo or unanswerable (then evidence is [] and answer null); split: dev or test.",
    "own.error": "Problem in your files",
    "own.askHint": "Your articles are now selectable under “Articles” in the Ask tab.",
    "own.needArticles": "Add at least one Markdown article first (or a SQuAD .json questions file).",
    "own.imported": "Imported from SQuAD JSON as the command raglab import squad does; dropped {dropped}: {reasons}.",
    "yes": "yes",
    "no": "no",
    "boot.download": "Loading the search engine in your browser, {loaded} of {total} MB…",
    "ask.examples.user": "Examples from your questions",
    // with the verb, which agrees with it ("the help centre does not", "your articles do not")
    "ask.where.bundled": "the help centre does not",
    "ask.where.user": "your articles do not",
    // An answer quoted from an article in the other language than the question's, by the ask
    // JSON's "answer_language": .en / .bn is the quoted language, .twin when an article in the
    // question's language says it too (raglab.pipeline.Pipeline.answer_language); `raglab ask` prints the same.
    "ask.lang.en": "Quoted from an English article: no Bangla article {where} was found to say this.",
    "ask.lang.en.twin": "Quoted from an English article: a Bangla article {where} says this too, but this one answers the question more closely.",
    "ask.lang.bn": "Quoted from a Bangla article: no English article {where} was found to say this.",
    "ask.lang.bn.twin": "Quoted from a Bangla article: an English article {where} says this too, but this one answers the question more closely.",
    "ask.lang.where.bundled": "in the help centre",
    "ask.lang.where.user": "in your own data",
    "ask.closest": "Closest:",
    "ask.passages": "The passages below are what the help centre has closest to your question: read them before asking someone.",
    "ask.reference": "Reference answer:",
    "ask.reference.none": "none (the articles do not answer this question)",
    "ask.waiting": "Waiting for the evaluation ({done}/{total}) to finish; your question is next.",
    "verdict.right": "right",
    "verdict.wrong": "answered wrongly",
    "verdict.abstained": "rightly abstained",
    "verdict.wrongly-abstained": "wrongly abstained",
    "eval.starting": "Starting the evaluation…",
    "eval.cancel": "Cancel the evaluation",
    "eval.cancelled": "The evaluation was cancelled.",
    "eval.hidden": "{n} configurations gave exactly the same results as another and are not shown:",
    "eval.split.test": "test",
    "eval.split.dev": "dev",
    "eval.split.all": "all",
    "review.title": "Answer review: what each question was answered",
    "review.intro": "A served answer is right when it states the reference answer's fact (every number and at least half of its words). The stage names where a wrong answer or abstention was lost: a retrieval stage, the answerer (it had the evidence and said something else) or the threshold (it held back, or answered what the articles do not answer).",
    "review.filter": "Show",
    "review.filter.wrong": "Answered wrongly",
    "review.filter.wrongly-abstained": "Wrongly abstained",
    "review.filter.abstained": "Rightly abstained",
    "review.filter.right": "Right",
    "review.filter.all": "All",
    "review.verdict": "Verdict",
    "review.more": "Details",
    "review.served": "Served answer",
    "review.reference": "Reference answer",
    "review.facts": "Question",
    "review.none": "(abstained)",
    "review.empty": "No question has this verdict under this configuration.",
    "lost.answerer": "answerer",
    "lost.threshold": "threshold",
    "lost.ranked-low": "ranked too low",
    "lost.reranker": "reranker",
    "lost.retriever": "retriever",
    "lost.chunker": "chunker",
    "own.checking": "Checking your files…",
    "own.more": "and {n} more",
    "own.full": "Every retriever, with and without expansion (the command line's full grid; slower)",
    "own.all": "all",
    "own.col.lang": "language",
    "own.col.kind": "kind",
    "own.col.total": "total",
    "lang.en": "English",
    "lang.bn": "Bangla",
    "eval.risk.x": "coverage (answered share)",
    "eval.risk.y": "risk (wrong share)",
    "eval.role.pick": "pick",
    "eval.role.served": "served",
    "eval.role.baseline": "baseline",
  },
  bn: {
    "app.title": "raglab — শাপলা পে সহায়তা কেন্দ্র",
    "app.skip": "মূল অংশে যান",
    "app.tagline": "বাংলা বা ইংরেজিতে প্রশ্ন করুন, আর দেখুন উত্তরটি কীভাবে খুঁজে পাওয়া গেল। সবকিছু আপনার ব্রাউজারেই চলে।",
    "lang.label": "ইন্টারফেসের ভাষা",
    "tabs.label": "বিভাগ",
    "tab.ask": "প্রশ্ন করুন",
    "tab.evaluate": "মূল্যায়ন",
    "tab.own": "আপনার নিজের ডেটা",
    "boot.runtime": "আপনার ব্রাউজারে সার্চ ইঞ্জিন লোড হচ্ছে…",
    "boot.raglab": "সার্চ ইঞ্জিন ইনস্টল হচ্ছে…",
    "boot.corpus": "সহায়তা কেন্দ্রের নিবন্ধ পড়া হচ্ছে…",
    "boot.indexing": "সার্চ ইনডেক্স তৈরি হচ্ছে…",
    "boot.ready": "প্রস্তুত: {articles}টি নিবন্ধ, {questions}টি উদাহরণ প্রশ্ন। সবকিছু এই ব্রাউজার ট্যাবেই চলে।",
    "boot.failed": "চালু করার সময় ({stage}) সমস্যা হয়েছে: {message}",
    "boot.died": "পাইথন বন্ধ হয়ে গেছে: {message}। আবার চেষ্টা করলে নতুন করে চালু হবে।",
    "boot.retry": "আবার চেষ্টা করুন",
    "error.details": "বিস্তারিত",
    "error.internal": "এই কাজটি করার সময় পাইথনের ভেতরে একটি ত্রুটি হয়েছে; কিছুই বদলায়নি। আবার চেষ্টা করুন, বারবার হলে পেজটি রিলোড করুন।",
    "advice.runtime": "পাইথন রানটাইম লোড করা যায়নি। সংযোগ দেখে পেজটি রিলোড করুন।",
    "advice.raglab": "raglab-এর পাইথন প্যাকেজ ইনস্টল করা যায়নি। পেজটি রিলোড করুন; বারবার হলে সাইটটি নতুন করে বানাতে হবে।",
    "advice.corpus": "সহায়তা কেন্দ্রের নিবন্ধ পড়া যায়নি। পেজটি রিলোড করুন; বারবার হলে সাইটটি নতুন করে বানাতে হবে।",
    "advice.indexing": "সার্চ ইনডেক্স তৈরি করা যায়নি। পেজটি রিলোড করুন; বারবার হলে আমাদের জানান।",
    "stage.start": "শুরু হচ্ছে",
    "stage.runtime": "পাইথন চালু করা",
    "stage.raglab": "raglab ইনস্টল করা",
    "stage.corpus": "নিবন্ধ পড়া",
    "stage.indexing": "ইনডেক্স তৈরি",
    "ask.question": "আপনার প্রশ্ন",
    "ask.placeholder": "যেমন: ক্যাশ আউটের খরচ কত?",
    "ask.submit": "জিজ্ঞেস করুন",
    "ask.settings": "পাইপলাইন",
    "ask.chunker": "চাঙ্কার",
    "ask.retriever": "রিট্রিভার",
    "ask.k": "উত্তরদাতার কাছে কয়টি অংশ (k)",
    "ask.expand": "সমার্থক শব্দ দিয়ে প্রশ্ন বাড়ান",
    "ask.corpus": "নিবন্ধ",
    "ask.corpus.bundled": "শাপলা পে সহায়তা কেন্দ্র",
    "ask.corpus.user": "আপনার নিজের ডেটা",
    "ask.default": "(পরিবেশিত ডিফল্ট)",
    "ask.examples": "গোল্ডেন সেট থেকে উদাহরণ",
    "ask.empty": "আগে একটি প্রশ্ন লিখুন।",
    "ask.working": "খোঁজা হচ্ছে…",
    "ask.answer": "উত্তর",
    "ask.citations": "উৎস",
    "ask.abstained": "নিশ্চিত নই: {where} এই প্রশ্নের স্পষ্ট উত্তর দেয় না। কোনো বাক্য যথেষ্ট আস্থার সঙ্গে প্রশ্নের উত্তর দেয় না (আস্থা {confidence}, সীমা {threshold}; উত্তরের জন্য আস্থা সীমার সমান বা বেশি হতে হয়), তাই raglab অনুমান করে না।",
    "ask.coverage": "আস্থা: {confidence} · প্রশ্নের কভারেজ: {coverage}",
    "ask.withheld.no-passage": "পাওয়া যায়নি: প্রশ্নের কোনো শব্দ কোনো অংশে নেই, তাই raglab-এর উদ্ধৃত করার মতো কিছু নেই, আর raglab অনুমান করে না।",
    "ask.withheld.no-match": "নিশ্চিত নই: {where} এই প্রশ্নের স্পষ্ট উত্তর দেয় না। আপনার প্রশ্নের সবচেয়ে কাছের অংশে প্রশ্নের কোনো শব্দ নেই, তাই raglab সেটিকে উত্তর হিসেবে দেয় না (আস্থা {confidence}, সীমা {threshold})।",
    "ask.withheld.other-half": "উত্তর দেওয়া হয়নি: আপনার প্রশ্নের সবচেয়ে কাছের অংশটি আপনি যা জিজ্ঞেস করেছেন তার অন্য দিকের কথা বলে (যেমন ক্যাশ ইনের প্রশ্নে ক্যাশ আউট), তাই আস্থা যা-ই হোক (আস্থা {confidence}, সীমা {threshold}) raglab সেটিকে উত্তর হিসেবে দেয় না।",
    "ask.withheld.other-period": "উত্তর দেওয়া হয়নি: অংশটিতে আপনি যে সময়ের কথা জিজ্ঞেস করেছেন তার বদলে অন্য সময়ের অঙ্ক আছে (যেমন মাসের প্রশ্নে দিনের অঙ্ক), তাই আস্থা যা-ই হোক (আস্থা {confidence}, সীমা {threshold}) raglab সেটিকে উত্তর হিসেবে দেয় না।",
    "ask.withheld.one-case": "উত্তর দেওয়া হয়নি: আপনি একটি সীমা জানতে চেয়েছেন, কিন্তু আপনার প্রশ্নের সবচেয়ে কাছের অংশে শুধু একটি উদাহরণের (একটি অঙ্কের) হিসাব আছে, সীমা নয়, তাই আস্থা যা-ই হোক (আস্থা {confidence}, সীমা {threshold}) raglab সেটিকে উত্তর হিসেবে দেয় না।",
    "ask.withheld.no-value": "উত্তর দেওয়া হয়নি: আপনি একটি অঙ্ক (বা কল করার নম্বর, লেখার ঠিকানা) জানতে চেয়েছেন, কিন্তু আপনার প্রশ্নের সবচেয়ে কাছের অংশে তা নেই, তাই আস্থা যা-ই হোক (আস্থা {confidence}, সীমা {threshold}) raglab সেটিকে উত্তর হিসেবে দেয় না।",
    "ask.withheld.only-the-way": "উত্তর দেওয়া হয়নি: আপনি জানিয়েছেন কিছু একটা কাজ করছে না, কিন্তু আপনার প্রশ্নের সবচেয়ে কাছের অংশে শুধু কাজটি কীভাবে করতে হয় তা বলা আছে, যা আপনি আগেই চেষ্টা করেছেন, তাই আস্থা যা-ই হোক (আস্থা {confidence}, সীমা {threshold}) raglab সেটিকে উত্তর হিসেবে দেয় না।",
    "ask.withheld.other-subject": "উত্তর দেওয়া হয়নি: আপনি যে সেবা বা যে ধরনের খরচের অঙ্ক জানতে চেয়েছেন, আপনার প্রশ্নের সবচেয়ে কাছের অংশে তার উল্লেখ নেই, সেখানকার অঙ্কটি অন্য বিষয়ের, তাই আস্থা যা-ই হোক (আস্থা {confidence}, সীমা {threshold}) raglab সেটিকে উত্তর হিসেবে দেয় না।",
    "ask.withheld.no-list": "উত্তর দেওয়া হয়নি: আপনি জানতে চেয়েছেন কী কী লাগবে বা কী কী তথ্য আছে, কিন্তু আপনার প্রশ্নের সবচেয়ে কাছের অংশে তেমন কিছুর উল্লেখ নেই, তাই আস্থা যা-ই হোক (আস্থা {confidence}, সীমা {threshold}) raglab সেটিকে উত্তর হিসেবে দেয় না।",
    "ask.withheld.no-way": "উত্তর দেওয়া হয়নি: আপনি জানতে চেয়েছেন কাজটি কীভাবে করবেন, কিন্তু আপনার প্রশ্নের সবচেয়ে কাছের অংশে কী করতে হবে তা বলা নেই, অথচ যে অংশে বলা আছে সেটি নিচে, তাই আস্থা যা-ই হোক (আস্থা {confidence}, সীমা {threshold}) raglab সেটিকে উত্তর হিসেবে দেয় না। নিচের অংশগুলোর ধাপগুলো দেখুন।",
    "ask.top": "সেরা {n}টি অংশ",
    "ask.rank": "ক্রম",
    "ask.score": "স্কোর {score}",
    "ask.terms": "প্রশ্নের শব্দ (অ্যানালাইজার থেকে): {terms}",
    "ask.readas": "বাংলায় পড়া হয়েছে:",
    "ask.noterms": "এই প্রশ্নে খোঁজার মতো কোনো শব্দ পাওয়া যায়নি।",
    "ask.time": "{ms} মিলিসেকেন্ডে উত্তর",
    "ask.open": "নিবন্ধটি খুলুন",
    "kind.direct": "সরাসরি",
    "kind.paraphrase": "ভিন্ন ভাষ্যে",
    "kind.multi": "দুটি তথ্য",
    "kind.crosslingual": "আন্তঃভাষিক",
    "kind.typo": "বানান ভুলসহ",
    "kind.unanswerable": "সহায়তা কেন্দ্রে নেই",
    "kind.unanswerable.user": "আপনার নিবন্ধে নেই",
    "article.close": "বন্ধ করুন",
    "article.legend.chunk": "খুঁজে পাওয়া অংশ",
    "article.legend.evidence": "উদ্ধৃত প্রমাণ",
    "eval.intro": "আপনার ব্রাউজারেই সংযুক্ত গোল্ডেন সেটে মূল্যায়ন চালায় (কমান্ড লাইনের raglab compare): বাছাই করা প্রতিটি চাঙ্কার × রিট্রিভার, অক্ষর-স্প্যানে মাপা, বুটস্ট্র্যাপ আস্থা-ব্যবধানসহ।",
    "eval.split": "স্প্লিট",
    "eval.chunkers": "চাঙ্কার",
    "eval.retrievers": "রিট্রিভার",
    "eval.expand": "প্রশ্ন সম্প্রসারণ",
    "eval.expand.off": "বন্ধ",
    "eval.expand.on": "চালু",
    "eval.expand.both": "দুটোই (আলাদা সারি)",
    "eval.run": "মূল্যায়ন চালান",
    "eval.hint": "সব বাক্সে টিক দিয়ে সম্প্রসারণ “দুটোই” রাখলে কমান্ড লাইনের পুরো গ্রিড চলে; ব্রাউজারে তাতে কয়েক মিনিট লাগে।",
    "eval.unavailable": "এই বিল্ডে মূল্যায়নের মডিউল নেই।",
    "eval.same": "কমান্ড লাইনে একই টেবিল:",
    "eval.chart": "প্রতিটি কনফিগারেশনের MRR@10, ৯৫% আস্থা-ব্যবধানসহ",
    "eval.risk": "ঝুঁকি–কভারেজ: বিরতির সীমা যত প্রশ্ন পার হতে দেয়, দেওয়া উত্তরের মধ্যে ভুলের ভাগ (কম হলে ভালো)",
    "eval.cli": "কমান্ড লাইনের ছাপা একই রিপোর্ট",
    "eval.drill.config": "কনফিগারেশন",
    "eval.drill.question": "প্রশ্ন",
    "eval.drill.rank": "ক্রম",
    "eval.drill.stage": "ধাপ",
    "eval.drill.ask": "জিজ্ঞেস",
    "eval.nothing": "অন্তত একটি চাঙ্কার ও একটি রিট্রিভার বাছাই করুন।",
    "own.intro": "আপনার নিজের নিবন্ধ ও প্রশ্ন মূল্যায়ন করুন। ফাইলগুলো এই ট্যাবেই থাকে: কিছুই আপলোড হয় না।",
    "own.articles": "নিবন্ধ (মার্কডাউন, প্রতি নিবন্ধে একটি ফাইল, প্রথম লাইন '# শিরোনাম')",
    "own.questions": "প্রশ্ন (গোল্ডেন ফরম্যাটে প্রতি লাইনে একটি JSON অবজেক্ট: id, lang, kind, split, question, answer, evidence; অথবা SQuAD ১.১/২.০ .json ফাইল, যাতে নিবন্ধও থাকে)",
    "own.paste": "…অথবা একটি নিবন্ধ পেস্ট করুন",
    "own.pasteName": "ফাইলের নাম",
    "own.pasteQuestions": "…অথবা প্রশ্নগুলো পেস্ট করুন",
    "own.add": "পেস্ট করা নিবন্ধ যোগ করুন",
    "own.clear": "মুছে ফেলুন",
    "own.noquestions": "প্রশ্নের ফাইল নেই",
    "own.reading": "আপনার ফাইল পড়া হচ্ছে… {total}টির মধ্যে {done}টি",
    "own.questionsFile": "{name} থেকে প্রশ্ন",
    "own.run": "যাচাই ও মূল্যায়ন করুন",
    "own.example": "একটি উদাহরণ লাইন",
    "own.exampleNote": "\"doc\" হলো নিবন্ধের ফাইলের নাম (.md ছাড়া); \"quote\" নিবন্ধে ঠিক একবার থাকতে হবে। kind: direct, paraphrase, multi, crosslingual, typo বা unanswerable (তখন evidence [] এবং answer null); split: dev বা test।",
    "own.error": "আপনার ফাইলে সমস্যা",
    "own.askHint": "আপনার নিবন্ধগুলো এখন ‘প্রশ্ন করুন’ ট্যাবের ‘নিবন্ধ’ থেকে বাছাই করা যাবে।",
    "own.needArticles": "আগে অন্তত একটি মার্কডাউন নিবন্ধ যোগ করুন (অথবা একটি SQuAD .json প্রশ্নের ফাইল)।",
    "own.imported": "raglab import squad কমান্ডের মতো করে SQuAD JSON থেকে আনা হয়েছে; বাদ গেছে {dropped}টি: {reasons}।",
    "yes": "হ্যাঁ",
    "no": "না",
    "boot.download": "আপনার ব্রাউজারে সার্চ ইঞ্জিন লোড হচ্ছে, {total} মেগাবাইটের {loaded}…",
    "ask.examples.user": "আপনার প্রশ্ন থেকে উদাহরণ",
    "ask.where.bundled": "সহায়তা কেন্দ্র",
    "ask.where.user": "আপনার নিবন্ধ",
    "ask.lang.en": "ইংরেজি নিবন্ধ থেকে উদ্ধৃত: {where} কোনো বাংলা নিবন্ধে এ কথা পাওয়া যায়নি।",
    "ask.lang.en.twin": "ইংরেজি নিবন্ধ থেকে উদ্ধৃত: {where} বাংলা নিবন্ধেও এ কথা আছে, তবে এই নিবন্ধটি প্রশ্নের উত্তর বেশি স্পষ্ট করে দেয়।",
    "ask.lang.bn": "বাংলা নিবন্ধ থেকে উদ্ধৃত: {where} কোনো ইংরেজি নিবন্ধে এ কথা পাওয়া যায়নি।",
    "ask.lang.bn.twin": "বাংলা নিবন্ধ থেকে উদ্ধৃত: {where} ইংরেজি নিবন্ধেও এ কথা আছে, তবে এই নিবন্ধটি প্রশ্নের উত্তর বেশি স্পষ্ট করে দেয়।",
    "ask.lang.where.bundled": "সহায়তা কেন্দ্রের",
    "ask.lang.where.user": "আপনার নিজের ডেটার",
    "ask.closest": "সবচেয়ে কাছের:",
    "ask.passages": "নিচের অংশগুলো সহায়তা কেন্দ্রে আপনার প্রশ্নের সবচেয়ে কাছের লেখা: কাউকে জিজ্ঞেস করার আগে পড়ে দেখুন।",
    "ask.reference": "নির্ধারিত উত্তর:",
    "ask.reference.none": "নেই (নিবন্ধগুলোতে এই প্রশ্নের উত্তর নেই)",
    "ask.waiting": "মূল্যায়ন ({done}/{total}) শেষ হওয়ার অপেক্ষা; এরপরই আপনার প্রশ্ন।",
    "verdict.right": "সঠিক",
    "verdict.wrong": "ভুল উত্তর",
    "verdict.abstained": "ঠিকভাবে বিরত",
    "verdict.wrongly-abstained": "ভুলভাবে বিরত",
    "eval.starting": "মূল্যায়ন শুরু হচ্ছে…",
    "eval.cancel": "মূল্যায়ন বাতিল করুন",
    "eval.cancelled": "মূল্যায়ন বাতিল করা হয়েছে।",
    "eval.hidden": "{n}টি কনফিগারেশনের ফল অন্য একটির সঙ্গে হুবহু এক, তাই দেখানো হয়নি:",
    "eval.split.test": "টেস্ট (test)",
    "eval.split.dev": "ডেভ (dev)",
    "eval.split.all": "সব",
    "review.title": "উত্তর পর্যালোচনা: প্রতিটি প্রশ্নের কী উত্তর দেওয়া হয়েছে",
    "review.intro": "পরিবেশিত উত্তর সঠিক, যখন তাতে নির্ধারিত উত্তরের তথ্যটি আছে (প্রতিটি সংখ্যা আর অন্তত অর্ধেক শব্দ)। ধাপ বলে ভুল উত্তর বা বিরতি কোথায় হারিয়েছে: খুঁজে আনার কোনো ধাপ, উত্তরদাতা (প্রমাণ হাতে ছিল, তবু অন্য কিছু বলেছে) বা সীমা (উত্তর আটকে রেখেছে, বা নিবন্ধে নেই এমন প্রশ্নের উত্তর দিয়েছে)।",
    "review.filter": "দেখান",
    "review.filter.wrong": "ভুল উত্তর",
    "review.filter.wrongly-abstained": "ভুলভাবে বিরত",
    "review.filter.abstained": "ঠিকভাবে বিরত",
    "review.filter.right": "সঠিক",
    "review.filter.all": "সব",
    "review.verdict": "রায়",
    "review.more": "বিস্তারিত",
    "review.served": "পরিবেশিত উত্তর",
    "review.reference": "নির্ধারিত উত্তর",
    "review.facts": "প্রশ্ন",
    "review.none": "(বিরত থেকেছে)",
    "review.empty": "এই কনফিগারেশনে এই রায়ের কোনো প্রশ্ন নেই।",
    "lost.answerer": "উত্তরদাতা",
    "lost.threshold": "সীমা",
    "lost.ranked-low": "অনেক নিচে র‍্যাঙ্ক",
    "lost.reranker": "রির‍্যাঙ্কার",
    "lost.retriever": "রিট্রিভার",
    "lost.chunker": "চাঙ্কার",
    "own.checking": "আপনার ফাইল যাচাই হচ্ছে…",
    "own.more": "আরও {n}টি",
    "own.full": "সব রিট্রিভার, সম্প্রসারণসহ ও ছাড়া (কমান্ড লাইনের পুরো গ্রিড; ধীর)",
    "own.all": "সব",
    "own.col.lang": "ভাষা",
    "own.col.kind": "ধরন",
    "own.col.total": "মোট",
    "lang.en": "ইংরেজি",
    "lang.bn": "বাংলা",
    "eval.risk.x": "কভারেজ (উত্তর দেওয়ার ভাগ)",
    "eval.risk.y": "ঝুঁকি (ভুলের ভাগ)",
    "eval.role.pick": "সুপারিশ",
    "eval.role.served": "পরিবেশিত",
    "eval.role.baseline": "বেসলাইন",
  },
};

let current = "en";

export function language() {
  return current;
}

/** The interface string for `key` in the current language, with {name} placeholders filled. */
/** The sentence to show for a failed call: a fault inside Python gets the interface's own
 * sentence (the worker's English one is the fallback); raglab's input errors are shown
 * as Python wrote them (they name the file, line and field to fix). */
export function errorText(err, stage = null) {
  if (!err || !err.internal) return err ? err.message : "";
  const key = stage && STRINGS[current][`advice.${stage}`] ? `advice.${stage}` : "error.internal";
  return t(key);
}

export function t(key, vars = {}) {
  const text = STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

// Status lines written with say(): re-written in the new language on a switch.
const spoken = new Map(); // node -> [key, vars or a function returning them]

/** Set `node`'s text to t(key, vars) and keep it in the interface language from now on.
 * `vars` may be a function, so numbers are formatted (num) in the language of the moment. */
export function say(node, key, vars = {}) {
  spoken.set(node, [key, vars]);
  node.textContent = t(key, typeof vars === "function" ? vars() : vars);
}

/** Set `node`'s text to something that is not interface text (e.g. an error from Python). */
export function sayRaw(node, text) {
  spoken.delete(node);
  node.textContent = text;
}

/** Switch the interface language and re-label every element that carries data-i18n*. */
export function setLanguage(lang, root = document) {
  current = lang in STRINGS ? lang : "en";
  document.documentElement.lang = current;
  document.title = t("app.title");
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-placeholder]")) node.placeholder = t(node.dataset.i18nPlaceholder);
  for (const node of root.querySelectorAll("[data-i18n-aria-label]")) node.setAttribute("aria-label", t(node.dataset.i18nAriaLabel));
  for (const node of root.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
  // Elements whose text is interface text get the interface language; content keeps its own.
  for (const node of root.querySelectorAll("[data-i18n], [data-ui-lang]")) node.lang = current;
  for (const [node, [key, vars]] of spoken) {
    if (node.isConnected) node.textContent = t(key, typeof vars === "function" ? vars() : vars);
    else spoken.delete(node);
  }
  return current;
}

/** The interface language to start in: the saved choice, else the browser's preference. */
export function initialLanguage() {
  let saved = null;
  try {
    saved = localStorage.getItem("raglab.lang");
  } catch {
    // storage can be disabled; the browser's preference then decides
  }
  if (saved in STRINGS) return saved;
  return (navigator.language || "en").toLowerCase().startsWith("bn") ? "bn" : "en";
}

export function saveLanguage(lang) {
  try {
    localStorage.setItem("raglab.lang", lang);
  } catch {
    // not fatal: the choice just is not remembered
  }
}

/** Python's f"{x:.{digits}f}": the nearest decimal, a tie kept even (toFixed rounds a tie up),
 * so the page prints a number exactly as the command line does. */
export function fixed(x, digits) {
  const text = x.toFixed(digits);
  if (!Number.isFinite(x) || Math.abs(x) >= 1e21) return text;
  const exact = Math.abs(x).toFixed(100); // a double's whole decimal expansion at this size
  const cut = exact.indexOf(".") + 1 + digits;
  if (!/^50*$/.test(exact.slice(cut))) return text;
  const down = exact.slice(0, digits ? cut : cut - 1);
  return Number(down.at(-1)) % 2 === 0 ? (x < 0 ? "-" : "") + down : text;
}

/** Digits in the interface's script: Bangla digits in the Bangla interface. */
export function digits(text) {
  return current === "bn" ? String(text).replace(/[0-9]/g, (d) => String.fromCharCode(0x09e6 + Number(d))) : String(text);
}

/** Format a number for the interface (Bangla digits in the Bangla interface). */
export function num(value, places = null) {
  if (value === null || value === undefined || Number.isNaN(value)) return "n/a";
  return digits(places === null ? String(value) : fixed(Number(value), places));
}

/** The label of a golden question's kind; an unanswerable question of your own data is not
 * "not in the help centre" but not in your articles. */
export function kindLabel(kind, corpus = "bundled") {
  return t(kind === "unanswerable" && corpus === "user" ? "kind.unanswerable.user" : `kind.${kind}`);
}

/** Add interface strings ({en: {key: text}, bn: {...}}) from a feature's own module. */
export function addStrings(more) {
  for (const [lang, table] of Object.entries(more)) Object.assign(STRINGS[lang], table);
}
