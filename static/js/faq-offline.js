// Searches the rules FAQ in the browser when the server cannot be reached.
// It folds, expands and ranks like the server's search (faq/search.py), over the cached index.
(() => {
  const form = document.querySelector("form.faq-search");
  if (!form) return;
  const input = form.querySelector("input[name=q]");
  const game = form.dataset.game;
  const lang = form.dataset.lang;
  let data = null;

  async function load() {
    if (data) return data;
    const response = await fetch("/faq/offline-index.json");
    const raw = await response.json();
    data = {
      entries: raw.entries.filter((entry) => entry.game === game && entry.lang === lang),
      phrases: raw.phrases.map(([pattern, replacement]) => [new RegExp(pattern, "g"), replacement]),
      synonyms: raw.synonyms,
      stopwords: new Set(raw.stopwords),
      endings: raw.endings,
      weights: raw.weights,
    };
    data.entries.forEach((entry) => {
      entry.words = {
        question: words(entry.question),
        keywords: words(entry.keywords.join(" ")),
        answer: words(entry.answer),
        details: words(entry.details),
      };
    });
    return data;
  }

  function fold(text) {
    let folded = text.toLowerCase().replace(/ß/g, "ss").normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
    folded = folded.replace(/([aou])e/g, "$1");
    (data ? data.phrases : []).forEach(([pattern, replacement]) => {
      folded = folded.replace(pattern, replacement);
    });
    return folded;
  }

  function words(text) {
    return fold(text).match(/[a-z0-9]+/g) || [];
  }

  function stem(word) {
    if (word.length <= 4 || /\d$/.test(word)) return word;
    for (const ending of data.endings) {
      if (word.endsWith(ending) && word.length - ending.length >= 4) return word.slice(0, -ending.length);
    }
    return word;
  }

  // One group of prefixes per meaningful query word (its stem and its synonyms), like Index.groups.
  function groups(query) {
    const found = [];
    words(query).forEach((word) => {
      if (data.stopwords.has(word) || (word.length < 2 && !/\d/.test(word))) return;
      const candidates = new Set([word]);
      data.synonyms.forEach((group) => {
        if (group.includes(word) || group.some((w) => stem(w) === stem(word))) group.forEach((w) => candidates.add(w));
      });
      found.push([...new Set([...candidates].map(stem))]);
    });
    return found;
  }

  function rank(query) {
    const asked = groups(query);
    const wanted = [...new Set(asked.flat())];
    if (!wanted.length) return [];
    return data.entries
      .map((entry) => {
        let score = 0;
        wanted.forEach((term) => {
          Object.entries(data.weights).forEach(([column, weight]) => {
            const count = entry.words[column].filter((w) => w.startsWith(term)).length;
            score += weight * Math.min(count, 2);
          });
        });
        // Synonyms of one word count once, so an entry listing many of them is not favoured.
        const own = entry.words.question.concat(entry.words.keywords);
        const covered = asked.filter((group) => group.some((term) => own.some((w) => w.startsWith(term)))).length;
        return { entry, score: score * (1 + covered / asked.length) };
      })
      .filter((hit) => hit.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, 10);
  }

  function show(hits) {
    const results = document.getElementById("results");
    const list = document.createElement("ol");
    list.className = "hits";
    hits.forEach(({ entry }) => {
      const item = document.createElement("li");
      item.className = "hit";
      const link = document.createElement("a");
      link.href = `/faq/${entry.game}/${entry.id}`;
      const question = document.createElement("span");
      question.className = "hit-question";
      question.textContent = entry.question;
      const answer = document.createElement("span");
      answer.className = "hit-answer";
      answer.textContent = entry.answer;
      link.append(question, answer);
      item.append(link);
      list.append(item);
    });
    results.replaceChildren(list);
    results.dataset.offline = "true";
  }

  async function searchHere() {
    await load();
    show(rank(input.value));
  }

  document.body.addEventListener("htmx:error", (event) => {
    const source = event.detail && event.detail.ctx && event.detail.ctx.sourceElement;
    if (source === input) searchHere();
  });
  form.addEventListener("submit", (event) => {
    if (!navigator.onLine) {
      event.preventDefault();
      searchHere();
    }
  });
})();
