// Searches the rules FAQ on the phone when the server cannot be reached, from the index the server built
// (faq/index.py, shipped as /faq/offline-index.json). Everything that knows a language was done there: this
// file cuts a question into bare words, looks them up and adds whole numbers, step for step as Searcher
// in faq/index.py, so the phone's answers are the server's.
// Without a document (in node, for the tests) it exports createSearch instead of wiring up the page.
(function (root) {
  "use strict";

  const words = (text) => text.toLowerCase().replace(/ß/g, "ss").normalize("NFKD").replace(/\p{M}/gu, "").match(/[a-z0-9]+/g) || [];
  const isDigits = (text) => /^[0-9]+$/.test(text);

  // The letter trigrams of words, each padded with a space, in order, once each.
  function trigrams(tokens) {
    const found = new Set();
    tokens.forEach((token) => {
      const padded = ` ${token} `;
      for (let at = 0; at + 3 <= padded.length; at += 1) found.add(padded.slice(at, at + 3));
    });
    return [...found];
  }

  const oneLetterLess = (word) => [...word].map((_, at) => word.slice(0, at) + word.slice(at + 1));

  // Whether two words are one typo apart: one letter wrong, missing or extra, or two neighbours swapped.
  function typo(word, other) {
    if (word === other || Math.abs(word.length - other.length) > 1) return false;
    if (word.length !== other.length) {
      const [longer, shorter] = word.length > other.length ? [word, other] : [other, word];
      return oneLetterLess(longer).includes(shorter);
    }
    const wrong = [...word].map((_, at) => at).filter((at) => word[at] !== other[at]);
    return wrong.length === 1 || (wrong.length === 2 && wrong[1] === wrong[0] + 1
      && word[wrong[0]] === other[wrong[1]] && word[wrong[1]] === other[wrong[0]]);
  }

  // The terms of the two or three known words a compound joins, or none.
  function split(token, lexicon, links, part) {
    for (let cut = token.length - part; cut >= part; cut -= 1) {
      const head = lexicon.get(token.slice(0, cut));
      if (!head || !head.length) continue;
      for (const link of links) {
        const rest = token.slice(cut + link.length);
        if (!token.startsWith(link, cut) || rest.length < part) continue;
        if (lexicon.has(rest) && lexicon.get(rest).length) return [head[0], lexicon.get(rest)[0]];
        const tail = rest.length >= 2 * part ? split(rest, lexicon, links, part) : [];
        if (tail.length === 2) return [head[0], ...tail];
      }
    }
    return [];
  }

  function createSearch(index, game, lang) {
    const section = index.sections.find((found) => found.game === game && found.lang === lang);
    const settings = section.settings;
    const lexicon = new Map(Object.entries(section.words));
    const has = (word) => lexicon.has(word);
    const terms = (word) => lexicon.get(word);
    const keys = [...lexicon.keys()].filter((key) => terms(key).length).sort();
    const byDeletion = new Map();
    keys.filter((key) => key.length >= settings.minGuess && !isDigits(terms(key)[0])).forEach((key) => {
      [key, ...oneLetterLess(key)].forEach((variant) => {
        if (!byDeletion.has(variant)) byDeletion.set(variant, []);
        byDeletion.get(variant).push(key);
      });
    });
    const telling = new Set(section.telling);
    const lines = section.lines.map((line) => trigrams(line.split(" ")));
    const byGram = new Map();
    lines.forEach((grams, number) => grams.forEach((gram) => {
      if (!byGram.has(gram)) byGram.set(gram, []);
      byGram.get(gram).push(number);
    }));

    // The terms an unknown word may stand for, and how surely, as Searcher.guesses.
    function guesses(token, last) {
      if (token.length < settings.minGuess || isDigits(token)) return [[], 0];
      const typos = [...new Set([token, ...oneLetterLess(token)].flatMap((variant) => byDeletion.get(variant) || []))]
        .filter((key) => typo(token, key) && key.length + token.length > 2 * settings.minGuess).sort();
      if (typos.length) return [typos.map((key) => terms(key)[0]), settings.term];
      const parts = split(token, lexicon, section.links, section.part);
      if (parts.length) return [parts, settings.term];
      if (!last) return [[], 0];
      return [keys.filter((key) => key.startsWith(token)).slice(0, settings.completions).map((key) => terms(key)[0]), settings.guess];
    }

    // How many words the word at `at` takes, the terms they stand for, and how much they tell, as Searcher.word.
    function word(tokens, canon, at) {
      const phraseOf = (size) => canon.slice(at, at + size).join(" ");
      const size = [3, 2].find((length) => at + length <= tokens.length && Object.hasOwn(section.phrases, phraseOf(length))) || 0;
      const token = tokens[at];
      let found;
      let sure = settings.term;
      if (size) found = [[section.phrases[phraseOf(size)], settings.term]];
      else if (has(token)) found = terms(token).map((term, place) => [term, place === 0 ? settings.term : settings.part]);
      else if (isDigits(token) || token.length === 1) found = isDigits(token) ? [[token, settings.term]] : [];
      else {
        const [guessed, surely] = guesses(token, at === tokens.length - 1);
        found = guessed.map((term) => [term, settings.guess]);
        sure = surely;
      }
      const taken = Math.max(size, 1);
      if (sure < settings.term || !found.length) return [taken, found, found.length ? sure : 0];
      return [taken, found, found.some(([term]) => telling.has(term) || isDigits(term)) ? settings.term : 0];
    }

    // A question's features, the terms its words stand for, how much of it tells what it is about and how much could, as Searcher.read.
    function read(text) {
      const tokens = words(text);
      const canon = tokens.map((token) => (has(token) && terms(token).length && isDigits(terms(token)[0]) ? terms(token)[0] : token));
      const features = new Map();
      const named = [];
      let tells = 0;
      let meaningful = 0;
      for (let at = 0; at < tokens.length;) {
        const [size, found, much] = word(tokens, canon, at);
        const stopword = has(tokens[at]) && !terms(tokens[at]).length && size === 1;
        at += size;
        if (stopword || (!found.length && tokens[at - 1].length === 1)) continue;
        tells += much;
        meaningful += settings.term;
        if (found.length) named.push(found[0][0]);
        found.forEach(([term, value]) => features.set(term, Math.max(features.get(term) || 0, value)));
      }
      named.slice(1).forEach((term, at) => features.set(`^${named[at]} ${term}`, settings.pair));
      trigrams(tokens).forEach((gram) => features.set(`|${gram}`, settings.gram));
      tokens.forEach((token) => features.set(`~${token}`, settings.word));
      tokens.slice(1).forEach((token, at) => features.set(`~${tokens[at]} ${token}`, settings.word));
      return { features, tells, meaningful };
    }

    // The entries answering a question, best first, as Searcher.rank; none if the FAQ cannot answer it.
    function search(query, limit = 10) {
      const { features, tells, meaningful } = read(query);
      const [share, of] = settings.knownShare;
      if (tells < settings.term || tells * of < share * meaningful) return [];
      const model = section.model;
      let held = 0;
      features.forEach((value, name) => { if (Object.hasOwn(model, name)) held += value; });
      const scores = section.unseen.map((weight) => held * weight);
      features.forEach((value, name) => {
        const postings = Object.hasOwn(model, name) ? model[name] : [];
        for (let place = 0; place < postings.length; place += 2) scores[postings[place]] += value * postings[place + 1];
      });
      const asked = trigrams(words(query));
      if (asked.length) {
        const shared = new Map();
        asked.forEach((gram) => (byGram.get(gram) || []).forEach((line) => shared.set(line, (shared.get(line) || 0) + 1)));
        const best = scores.map(() => 0);
        shared.forEach((count, line) => {
          const at = section.lineEntries[line];
          best[at] = Math.max(best[at], Math.floor((settings.alike * 2 * count) / (asked.length + lines[line].length)));
        });
        best.forEach((raise, at) => { scores[at] += raise; });
      }
      const nothing = scores.length - 1;
      scores[nothing] += settings.nothing;
      const ranked = scores.map((score, position) => ({ score, position })).sort((a, b) => b.score - a.score || a.position - b.position);
      if (ranked[0].position === nothing) return [];
      return ranked.filter(({ position }) => position !== nothing).slice(0, limit).map(({ score, position }) => ({ entry: section.entries[position], score }));
    }

    return { search, topics: section.topics };
  }

  if (typeof module === "object" && module.exports) {
    module.exports = { createSearch };
    return;
  }

  const form = root.document.querySelector("form.faq-search");
  if (!form) return;
  const input = form.querySelector("input[name=q]");
  let searcher = null;

  async function load() {
    if (!searcher) {
      const response = await fetch("/faq/offline-index.json");
      searcher = createSearch(await response.json(), form.dataset.game, form.dataset.lang);
    }
    return searcher;
  }

  const element = (name, className, text) => {
    const made = root.document.createElement(name);
    if (className) made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  };

  // The hits as the server's results show them, or no answer and the topics to browse, as templates/faq/game.html.
  function show(hits, topics) {
    const results = root.document.getElementById("results");
    if (!hits.length) {
      const browse = element("ul", "faq-browse");
      topics.forEach(({ id, title }) => {
        const link = element("a", "", title);
        link.href = `/faq/${form.dataset.game}#topic-${id}`;
        browse.append(element("li").appendChild(link).parentNode);
      });
      results.replaceChildren(element("p", "hint", form.dataset.nothing), browse);
    } else {
      const list = element("ol", "hits");
      hits.forEach(({ entry }) => {
        const link = element("a");
        link.href = `/faq/${form.dataset.game}/${entry.id}`;
        link.append(element("span", "hit-question", entry.question), element("span", "hit-answer", entry.answer));
        list.append(element("li", "hit").appendChild(link).parentNode);
      });
      results.replaceChildren(list);
    }
    results.dataset.offline = "true";
  }

  async function searchHere() {
    if (!input.value.trim()) return;
    const found = await load();
    show(found.search(input.value), found.topics);
  }

  root.document.body.addEventListener("htmx:error", (event) => {
    const source = event.detail && event.detail.ctx && event.detail.ctx.sourceElement;
    if (source === input) searchHere();
  });
  form.addEventListener("submit", (event) => {
    if (!navigator.onLine) {
      event.preventDefault();
      searchHere();
    }
  });
  // A search sent as a page while the phone only thought it was online: the service worker showed this game's
  // kept page at the search's address (static/sw.js), with the question in the address but not in the box.
  const unanswered = new URLSearchParams(root.location.search).get("q");
  if (unanswered && !input.value) {
    input.value = unanswered;
    searchHere();
  }
})(typeof window === "undefined" ? globalThis : window);
