// Searches the rules FAQ in the browser when the server cannot be reached.
// The server ships its own index (/faq/offline-index.json, built by faq/search.py): every entry's
// tokens, each section's lexicon and the folding rules. This file only resolves a query onto that
// lexicon and ranks like the server (SQLite FTS5's bm25), step for step, so both find the same answers.
// Without a document (in node, for the tests) it exports createSearch instead of wiring up the page.
(function (root) {
  "use strict";

  const PREFIX = "*";

  // Tell whether an index token is what a term looks for: exactly, or by its beginning (a word still typed).
  function matches(token, term) {
    return term.endsWith(PREFIX) ? token.startsWith(term.slice(0, -1)) : token === term;
  }

  // The word itself and every way of dropping one of its letters.
  function variants(word) {
    const out = [word];
    for (let at = 0; at < word.length; at += 1) out.push(word.slice(0, at) + word.slice(at + 1));
    return out;
  }

  function createSearch(index, game, lang) {
    const section = index.sections.find((found) => found.game === game && found.lang === lang);
    const limits = index.limits;
    const phrases = index.phrases.map(([pattern, replacement]) => [new RegExp(pattern, "g"), replacement]);
    const lexicon = new Map(Object.entries(section.lexicon));
    const stopwords = new Set(section.stopwords);
    const rows = index.entries.map((entry) => ({
      entry,
      columns: entry.tokens.map((column) => (column ? column.split(" ") : [])),
    }));
    const own = rows.filter((row) => row.entry.game === game && row.entry.lang === lang);
    const tokens = [...new Set(own.flatMap((row) => row.columns.flat()))];
    const averageLengths = index.weights.map(
      (_, column) => rows.reduce((sum, row) => sum + row.columns[column].length, 0) / rows.length,
    );

    // Two words are one typo apart when dropping one letter from each (or none) makes them equal:
    // the server's Indel distance of at most 2 between words whose lengths differ by at most one.
    const byVariant = new Map();
    lexicon.forEach((_, key) => {
      new Set(variants(key)).forEach((variant) => {
        if (!byVariant.has(variant)) byVariant.set(variant, new Set());
        byVariant.get(variant).add(key);
      });
    });

    function fold(text) {
      let folded = text.toLowerCase().replace(/ß/g, "ss").normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
      section.spellings.forEach(([spelling, letter]) => {
        folded = folded.split(spelling).join(letter);
      });
      phrases.forEach(([pattern, replacement]) => {
        folded = folded.replace(pattern, replacement);
      });
      return folded;
    }

    function words(text) {
      return fold(text).match(/[a-z0-9]+/g) || [];
    }

    function meaningful(word) {
      return !stopwords.has(word) && (word.length > 1 || /^[0-9]+$/.test(word));
    }

    function hasPrefix(word) {
      return tokens.some((token) => token.startsWith(word));
    }

    function known(word) {
      return lexicon.has(word) || hasPrefix(word);
    }

    function typoOf(word) {
      if (word.length < limits.minTypoLength) return [];
      const found = new Set();
      variants(word).forEach((variant) => (byVariant.get(variant) || []).forEach((key) => found.add(key)));
      return [...found];
    }

    // The terms of a compound's parts: a known word, or the start of one, and a known word, as Section.compound.
    function compound(word) {
      for (let cut = limits.minPart; cut < word.length - limits.minPart + 1; cut += 1) {
        const head = word.slice(0, cut);
        const tail = word.slice(cut);
        if (lexicon.has(tail) && lexicon.has(head)) return [lexicon.get(head), lexicon.get(tail)];
        if (lexicon.has(tail) && head.length >= limits.minStemLength && hasPrefix(head)) return [head + PREFIX, lexicon.get(tail)];
      }
      return [];
    }

    // The terms that stand for one query word, as Section.resolve decides them.
    function resolve(word) {
      if (lexicon.has(word)) return [lexicon.get(word)];
      if (hasPrefix(word)) {
        const completions = typoOf(word).filter((other) => other.startsWith(word)).map((other) => lexicon.get(other));
        return [...new Set([word + PREFIX, ...completions])].sort();
      }
      const terms = new Set([word]);
      for (let cut = word.length - 1; cut >= Math.max(limits.minStemLength, word.length - limits.maxEnding); cut -= 1) {
        if (lexicon.has(word.slice(0, cut))) {
          terms.add(lexicon.get(word.slice(0, cut)));
          break;
        }
      }
      compound(word).forEach((part) => terms.add(part));
      typoOf(word).forEach((other) => terms.add(lexicon.get(other)));
      return [...terms].sort();
    }

    // The query's words with two neighbours joined where together they make a known word, as Section.joined.
    function joined(asked) {
      const out = [];
      let at = 0;
      while (at < asked.length) {
        if (at + 1 < asked.length) {
          const pair = asked[at] + asked[at + 1];
          const unknown = !known(asked[at]) || !known(asked[at + 1]);
          const worth = meaningful(asked[at]) || meaningful(asked[at + 1]);
          if (worth && (lexicon.has(pair) || (unknown && typoOf(pair).length))) {
            out.push(pair);
            at += 2;
            continue;
          }
        }
        out.push(asked[at]);
        at += 1;
      }
      return out;
    }

    function groups(query) {
      const found = [];
      const seen = new Set();
      joined(words(query)).forEach((word) => {
        if (!meaningful(word)) return;
        const group = resolve(word);
        const key = group.join(" ");
        if (!seen.has(key)) {
          seen.add(key);
          found.push(group);
        }
      });
      return found;
    }

    // SQLite FTS5's bm25 of one column (k1 1.2, b 0.75, IDF at least 1e-6) for each row of this section
    // that has a term in it, computed over the rows of all sections, as the server's table per column does.
    function bm25(terms, column) {
      const idf = terms.map((term) => {
        const hits = rows.filter((row) => row.columns[column].some((token) => matches(token, term))).length;
        const value = Math.log((rows.length - hits + 0.5) / (hits + 0.5));
        return value <= 0.0 ? 1e-6 : value;
      });
      const scores = new Map();
      own.forEach((row, position) => {
        const tokensHere = row.columns[column];
        const freq = terms.map((term) => tokensHere.filter((token) => matches(token, term)).length);
        if (!freq.some((count) => count > 0)) return;
        let score = 0.0;
        terms.forEach((_, i) => {
          score += idf[i] * ((freq[i] * (1.2 + 1.0)) / (freq[i] + 1.2 * (1 - 0.75 + (0.75 * tokensHere.length) / averageLengths[column])));
        });
        scores.set(position, score);
      });
      return scores;
    }

    // The entries that answer a query, best first, as Index.search ranks them: each column's bm25,
    // weighted, raised by the share of query words the question and keywords hold.
    function search(query, limit = 10) {
      const asked = groups(query);
      const terms = [...new Set(asked.flat())].sort();
      if (!terms.length) return [];
      const totals = new Map();
      index.weights.forEach((weight, column) => {
        bm25(terms, column).forEach((score, position) => {
          totals.set(position, (totals.get(position) || 0.0) + weight * score);
        });
      });
      const ranked = [...totals].map(([position, score]) => {
        const ownTokens = own[position].columns[0].concat(own[position].columns[1]);
        const covered = asked.filter((group) => group.some((term) => ownTokens.some((token) => matches(token, term)))).length;
        return { entry: own[position].entry, score: score * (1 + covered / asked.length), position };
      });
      ranked.sort((a, b) => b.score - a.score || a.position - b.position);
      return ranked.slice(0, limit);
    }

    return { groups, search };
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

  function show(hits) {
    const results = root.document.getElementById("results");
    const list = root.document.createElement("ol");
    list.className = "hits";
    hits.forEach(({ entry }) => {
      const item = root.document.createElement("li");
      item.className = "hit";
      const link = root.document.createElement("a");
      link.href = `/faq/${entry.game}/${entry.id}`;
      const question = root.document.createElement("span");
      question.className = "hit-question";
      question.textContent = entry.question;
      const answer = root.document.createElement("span");
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
    show((await load()).search(input.value));
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
})(typeof window === "undefined" ? globalThis : window);
