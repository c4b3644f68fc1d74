// Searches the rules FAQ in the browser when the server cannot be reached.
// The server works out everything that does not depend on the question (faq/search.py, shipped as
// /faq/offline-index.json): each section's folding, its lexicon, every term's weight per entry and
// which entries' titles hold it, and the model it learnt from players' questions (faq/learned.py). This
// file only folds a question, looks its words up and adds the weights, in the same steps as Section.rank,
// so both find the same answers.
// Without a document (in node, for the tests) it exports createSearch instead of wiring up the page.
(function (root) {
  "use strict";

  // A word and every way of dropping one of its letters: two words are one typo apart when these meet.
  function variants(word) {
    const out = new Set([word]);
    for (let at = 0; at < word.length; at += 1) out.add(word.slice(0, at) + word.slice(at + 1));
    return out;
  }

  // Whether two different words are one typo apart (a letter wrong, two neighbours swapped, one missing or extra), as one_typo_apart.
  function oneTypoApart(word, other) {
    if (word.length < other.length) [word, other] = [other, word];
    if (word.length - other.length === 1) {
      for (let at = 0; at < word.length; at += 1) if (word.slice(0, at) + word.slice(at + 1) === other) return true;
      return false;
    }
    if (word.length !== other.length) return false;
    const wrong = [];
    for (let at = 0; at < word.length; at += 1) if (word[at] !== other[at]) wrong.push(at);
    return wrong.length === 1 || (wrong.length === 2 && wrong[1] === wrong[0] + 1
      && word[wrong[0]] === other[wrong[1]] && word[wrong[1]] === other[wrong[0]]);
  }

  // The letter trigrams of a folded text's words, padded, for finding what looks alike.
  function grams(text) {
    const out = new Set();
    text.split(/\s+/).filter(Boolean).forEach((word) => {
      const padded = ` ${word} `;
      for (let at = 0; at < word.length; at += 1) out.add(padded.slice(at, at + 3));
    });
    return out;
  }

  function byScore(a, b) {
    return b.score - a.score || a.position - b.position;
  }

  function createSearch(index, game, lang) {
    const section = index.sections.find((found) => found.game === game && found.lang === lang);
    const settings = index.settings;
    const lexicon = new Map(Object.entries(section.lexicon));
    const keys = [...lexicon.keys()].sort();
    const stopwords = new Set(section.stopwords);
    const appTerms = new Set(section.appTerms);
    const phrase = section.phrases.length
      ? new RegExp(section.phrases.map(([pattern], at) => `(?<p${at}>${pattern})`).join("|"), "g")
      : null;
    const eachPhrase = section.phrases.map(([pattern, word]) => [new RegExp(pattern, "y"), word]);
    const learned = { ...section.learned, seen: new Map(Object.entries(section.learned.seen)) };
    const lineLooks = section.entries.map((entry) => entry.looks.map(grams));
    const looks = lineLooks.map((lines) => new Set(lines.flatMap((line) => [...line])));
    const byVariant = new Map();
    keys.forEach((key) => {
      variants(key).forEach((variant) => {
        if (!byVariant.has(variant)) byVariant.set(variant, []);
        byVariant.get(variant).push(key);
      });
    });

    function fold(text) {
      let folded = text.toLowerCase().replace(/ß/g, "ss").normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
      section.spellings.forEach(([spelling, letter]) => {
        folded = folded.split(spelling).join(letter);
      });
      folded = folded.replace(/[a-z0-9]+/g, (word) => (Object.hasOwn(section.numbers, word) ? section.numbers[word] : word));
      // Tens and a unit said apart ("forty five", "40 5") are one number, as Folding.fold.
      if (section.tensApart) folded = folded.replace(/\b([2-9])0[\s-]+([1-9])\b/g, "$1$2");
      return phrase ? joinPhrases(folded) : folded;
    }

    // The length of a phrase's match where it begins, or -1.
    function matchedAt(sticky, text, start) {
      sticky.lastIndex = start;
      const found = sticky.exec(text);
      return found ? found[0].length : -1;
    }

    // Each phrase the whole pattern finds replaced by its word, as Folding._joined: after a phrase that only looks ahead
    // and matches nothing, the first phrase whose match at the same place holds letters is taken too.
    function joinPhrases(text) {
      let joined = "";
      let copied = 0;
      let at = 0;
      while (at <= text.length) {
        phrase.lastIndex = at;
        const found = phrase.exec(text);
        if (!found) break;
        const start = found.index;
        const named = Object.keys(found.groups).find((name) => found.groups[name] !== undefined);
        joined += text.slice(copied, start) + section.phrases[Number(named.slice(1))][1];
        copied = at = start + found[0].length;
        if (found[0].length === 0) {
          const held = eachPhrase.map(([sticky, word]) => [matchedAt(sticky, text, start), word]).find(([length]) => length > 0);
          if (held) {
            joined += held[1];
            copied = at = start + held[0];
          } else {
            at = start + 1;
          }
        }
      }
      return joined + text.slice(copied);
    }

    const meaningful = (word) => !stopwords.has(word) && (word.length > 1 || /^[0-9]+$/.test(word));

    // The term of the known word a German diminutive makes small ("Kärtchen", "Männle") or a feminine form names a woman by
    // ("Spielerin"), or null, as Section._diminutive.
    function diminutive(word) {
      for (const ending of [...(settings.diminutives[lang] || []), ...(settings.feminine[lang] || [])]) {
        const base = word.slice(0, word.length - ending.length);
        if (word.endsWith(ending) && base.length >= settings.minStemLength) {
          for (const known of [base, `${base}e`]) if (lexicon.has(known)) return lexicon.get(known);
        }
      }
      return null;
    }

    // The term of the last part of a compound the lexicon lacks: known, known with an ending, or a diminutive of a known word,
    // a number or a word cut back to of minStemLength letters at least, as Section._part.
    const isDigits = (term) => /^[0-9]+$/.test(term);
    function part(word) {
      if (lexicon.has(word)) return word.length < settings.minStemLength && isDigits(lexicon.get(word)) ? null : lexicon.get(word);
      for (const ending of settings.partEndings[lang] || []) {
        const cut = word.slice(0, word.length - ending.length);
        if (word.endsWith(ending) && cut.length >= settings.minStemLength && lexicon.has(cut)) return lexicon.get(cut);
      }
      return diminutive(word);
    }

    // The terms of the known parts of a word the lexicon lacks, fewest parts first, the longest first part among as many, and
    // those of its known head where its modifier is no known word, as Section._compound.
    const compounds = new Map();
    function compound(word) {
      if (compounds.has(word)) return compounds.get(word);
      const size = word.length;
      const ends = new Map();
      const read = (start, whole) => {
        if (whole) {
          const own = part(word.slice(start));
          if (own !== null) return [own];
        }
        let best = [];
        const shortest = start ? settings.minStemLength : settings.minPart;
        for (let cut = size - settings.minPart; cut >= start + shortest; cut -= 1) {
          const head = word.slice(start, cut);
          if (!lexicon.has(head) || (head.length < settings.minStemLength && isDigits(lexicon.get(head)))) continue;
          for (const link of settings.links) {
            const rest = word.startsWith(link, cut) ? ends.get(cut + link.length) || [] : [];
            if (rest.length && (!best.length || rest.length + 1 < best.length)) best = [lexicon.get(head), ...rest];
          }
          if (best.length === 2) break;
        }
        return best;
      };
      for (let start = size - settings.minPart; start >= settings.minPart; start -= 1) {
        const found = read(start, true);
        if (found.length) ends.set(start, found);
      }
      const parts = size >= 2 * settings.minPart ? read(0, false) : [];
      let heads = [];
      if (settings.heads[lang] && !parts.length) {
        for (let start = settings.minPart; start <= Math.min(size - settings.minHead, Math.floor((size - 1) / 2)); start += 1) {
          if (ends.has(start) && !(settings.prefixes[lang] || []).includes(word.slice(0, start))) {
            heads = ends.get(start);
            break;
          }
        }
      }
      const found = { parts, heads };
      if (compounds.size < settings.remembered) compounds.set(word, found);
      return found;
    }

    // The known words one typo away from a word, number words aside, as Section._typos.
    function typos(word) {
      if (word.length < settings.minTypoLength) return [];
      const found = new Set();
      variants(word).forEach((variant) => (byVariant.get(variant) || []).forEach((key) => key.length >= settings.minTypoLength && !/^[0-9]+$/.test(lexicon.get(key))
        && oneTypoApart(word, key) && found.add(key)));
      return [...found].sort();
    }

    // The groups of terms one query word stands for, each term with how sure it is, as Section.resolve.
    function resolve(word) {
      const sure = settings.sure;
      if (lexicon.has(word)) return [[[lexicon.get(word), /^[0-9]+$/.test(word) ? sure.number : sure.known]]];
      const found = new Map();
      const add = (term, value) => found.set(term, Math.max(found.get(term) || 0, value));
      const completions = word.length >= settings.minPrefix ? keys.filter((key) => key.startsWith(word)) : [];
      completions.forEach((key) => add(lexicon.get(key), sure.prefix));
      const small = completions.length ? null : diminutive(word);
      if (small !== null) add(small, sure.ending);
      const bare = lang === "de" && word.startsWith(settings.participle) ? word.slice(settings.participle.length) : "";
      // A separable verb's form without the "ge" or "zu" after its particle ("eingetragen", "abzulegen"), as Vocabulary.unparticipled.
      const unparticipled = [];
      (settings.particles[lang] || []).forEach((particle) => settings.infixes.forEach((infix) => {
        if (word.startsWith(particle + infix) && word.length - particle.length - infix.length >= settings.minRoot) {
          unparticipled.push(particle + word.slice(particle.length + infix.length));
        }
      }));
      const bares = [bare, ...unparticipled].filter(Boolean);
      const known = bares.find((form) => lexicon.has(form));
      if (known !== undefined) {
        add(lexicon.get(known), sure.ending);
      } else if (!completions.length) {
        [word, ...bares.filter((form) => form.length > settings.minStemLength)].forEach((stem) => {
          for (let cut = stem.length - 1; cut >= Math.max(settings.minStemLength, stem.length - settings.maxEnding); cut -= 1) {
            if (lexicon.has(stem.slice(0, cut))) {
              add(lexicon.get(stem.slice(0, cut)), sure.ending);
              break;
            }
          }
        });
      }
      (small === null ? typos(word) : []).filter((key) => !completions.length || key.startsWith(word)).forEach((key) => add(lexicon.get(key), sure.typo));
      const groups = found.size ? [[...found].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]))] : [];
      const { parts, heads } = compound(word);
      if (parts.length && !found.size) parts.forEach((term) => groups.push([[term, sure.compound]]));
      else if (heads.length && !found.size) heads.forEach((term) => groups.push([[term, sure.head]]));
      return groups;
    }

    // Whether a word means something by itself, as Section._stands_alone.
    const standsAlone = (word) => !meaningful(word) || lexicon.has(word) || resolve(word).length > 0;

    function joined(asked) {
      const out = [];
      let at = 0;
      while (at < asked.length) {
        const pair = at + 1 < asked.length ? asked[at] + asked[at + 1] : "";
        const worth = pair !== "" && (meaningful(asked[at]) || meaningful(asked[at + 1])) && !/^[0-9]+$/.test(asked[at]) && !/^[0-9]+$/.test(asked[at + 1]);
        const misspelt = /^[a-z]+$/.test(pair) && Math.min(asked[at].length, asked[at + 1].length) >= settings.minHalf
          && !(standsAlone(asked[at]) && standsAlone(asked[at + 1]));
        if (worth && (lexicon.has(pair) || (misspelt && typos(pair).length))) {
          out.push(pair);
          at += 2;
        } else {
          out.push(asked[at]);
          at += 1;
        }
      }
      return out;
    }

    // The words of one clause, its verb joined with the particle that ends it, as Section._particle_joined.
    const particles = new Set(settings.particles[lang] || []);
    const conjunctions = new Set(settings.conjunctions[lang] || []);
    function particleJoined(found) {
      const particle = found[found.length - 1];
      if (found.length < 2 || !particles.has(particle)) return found;
      const upTo = Math.min(settings.verbAt, found.length - 1);
      for (let at = 0; at < upTo; at += 1) {
        const word = found[at];
        const joinedVerb = particle + word;
        const ending = /^[a-z]+$/.test(word) && !particles.has(word) ? settings.separatedEndings.find((cut) => joinedVerb.endsWith(cut)
          && joinedVerb.length - cut.length >= particle.length + settings.minPart && lexicon.has(joinedVerb.slice(0, joinedVerb.length - cut.length))) : undefined;
        if (ending !== undefined) return [...found.slice(0, at), joinedVerb.slice(0, joinedVerb.length - ending.length), ...found.slice(at + 1, -1)];
      }
      return found;
    }

    // The words of a folded text, each clause's verb joined with its particle, as Section.unseparated.
    function unseparated(folded) {
      const out = [];
      (folded.match(/[^.,;:!?|()\n]+/g) || []).forEach((stretch) => {
        let clause = [];
        [...(stretch.match(/[a-z0-9]+/g) || []), ""].forEach((word) => {
          if (word && !conjunctions.has(word)) {
            clause.push(word);
            return;
          }
          out.push(...particleJoined(clause), ...(word ? [word] : []));
          clause = [];
        });
      });
      return out;
    }

    function groups(query) {
      const found = [];
      const seen = new Set();
      joined(unseparated(fold(query))).forEach((word) => {
        if (!meaningful(word)) return;
        resolve(word).forEach((group) => {
          const key = JSON.stringify(group);
          if (!seen.has(key)) {
            seen.add(key);
            found.push(group);
          }
        });
      });
      // Several numbers share their weight, as Section.groups.
      const isNumber = (group) => group.every(([term]) => /^[0-9]+$/.test(term));
      const numbers = found.filter(isNumber).length;
      if (numbers < 2) return found;
      const share = Math.sqrt(numbers);
      return found.map((group) => (isNumber(group) ? group.map(([term, sure]) => [term, sure / share]) : group));
    }

    // A question as the learnt model sees it, as Section.features: each term as sure as the surest of its words, each letter trigram,
    // each word as written and each two words in a row.
    function features(asked, folded) {
      const found = new Map();
      asked.forEach((group) => group.forEach(([term, sure]) => found.set(term, Math.max(found.get(term) || 0, sure))));
      grams(folded).forEach((gram) => found.set(`|${gram}`, settings.gramWeight));
      const words = folded.match(/[a-z0-9]+/g) || [];
      words.forEach((word) => found.set(`~${word}`, settings.wordWeight));
      words.slice(1).forEach((word, at) => found.set(`~${words[at]} ${word}`, settings.wordWeight));
      return found;
    }

    // The chance the learnt model gives each entry of answering a question with these features, as Learned.shares:
    // the sums in the order of the features' names.
    function shares(found) {
      const known = [...found.keys()].filter((name) => learned.seen.has(name)).sort();
      const held = known.reduce((total, name) => total + found.get(name), 0);
      const scores = learned.unseen.map((unseen) => held * unseen);
      known.forEach((name) => {
        const value = found.get(name);
        learned.seen.get(name).forEach(([at, likelier]) => {
          scores[at] += value * likelier;
        });
      });
      const top = scores.reduce((most, score) => Math.max(most, score), -Infinity);
      const raised = scores.map((score) => Math.exp(score - top));
      const total = raised.reduce((sum, value) => sum + value, 0);
      return raised.map((value) => value / total);
    }

    // The entries that answer a query, best first, as Section.rank: each word's best term weight,
    // added up, raised by the share of the query's letters the entry's questions hold and by the share of the words its
    // title fields hold, together and in one line; the closest in looks if none.
    function search(query, limit = 10) {
      if (!query.trim()) return [];
      const asked = groups(query);
      const scores = new Map();
      const covered = new Map();
      asked.forEach((group) => {
        const best = new Map();
        const titled = new Map();
        group.forEach(([term, sure]) => {
          (section.postings[term] || []).forEach(([at, weight]) => best.set(at, Math.max(best.get(at) || 0, sure * weight)));
          (section.titles[term] || []).forEach((at) => titled.set(at, Math.max(titled.get(at) || 0, sure)));
        });
        best.forEach((value, at) => scores.set(at, (scores.get(at) || 0) + value));
        titled.forEach((sure, at) => covered.set(at, (covered.get(at) || 0) + sure));
      });
      // The sum, over the question's words, of the surest term a set of terms holds, as Section._held.
      const heldBy = (line) => {
        const held = new Set(line);
        return asked.reduce((total, group) => total + group.reduce((most, [term, sure]) => (held.has(term) ? Math.max(most, sure) : most), 0), 0);
      };
      const bestLine = (position) => section.lines[position].reduce((best, line) => Math.max(best, heldBy(line)), 0);
      // The raise for the words of a question that name a term the entry is the home of, full for a short question naming nothing else,
      // each term by how much it names the entry; an app entry's names that rules entries share only with an app word, as Section._named.
      const aboutApp = asked.some((group) => group.some(([term]) => appTerms.has(term)));
      const named = (position) => {
        const appNames = new Set(aboutApp ? [] : section.appNames[position]);
        const names = new Map(section.names[position].filter(([term]) => !appNames.has(term)));
        const all = asked.every((group) => group.some(([term]) => names.has(term)));
        const held = asked.reduce((total, group) => total + group.reduce((most, [term, sure]) => (names.has(term) ? Math.max(most, sure * names.get(term)) : most), 0), 0);
        return (asked.length <= settings.short && all ? settings.named : settings.namedAmongOthers) * held;
      };
      // The share of the query's letter trigrams an entry's question and paraphrases hold, and the Dice share of its line most alike, as Section._alike.
      const folded = fold(query);
      const looked = grams(folded);
      const shared = (held) => [...looked].filter((gram) => held.has(gram)).length;
      const alike = (position) => {
        if (!looked.size) return 0;
        const line = lineLooks[position].reduce((most, held) => Math.max(most, (2 * shared(held)) / (looked.size + held.size)), 0);
        return (settings.looks * shared(looks[position])) / looked.size + settings.lineLooks * line;
      };
      let ranked;
      if (scores.size) {
        const found = new Map([...scores].map(([position, score]) => [
          position,
          score * (1 + alike(position))
            * (1 + (settings.coverage * (covered.get(position) || 0) + settings.lineCoverage * bestLine(position) + named(position)) / asked.length),
        ]));
        const top = Math.max(...found.values());
        // What the model learnt from players' questions raises each entry against the best one's score, as Section.rank.
        const learnt = shares(features(asked, folded));
        ranked = [...found].map(([position, score]) => ({ position, score: score / top + settings.learned * learnt[position] }));
      } else {
        ranked = section.entries.map((entry, position) => ({ position, score: alike(position) }));
        ranked = ranked.filter(({ score }) => score > 0).sort(byScore).slice(0, settings.nearest);
      }
      return ranked
        .sort(byScore)
        .slice(0, limit)
        .map(({ position, score }) => ({ entry: section.entries[position], score, nearest: !scores.size }));
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
    const parts = [list];
    if (hits.length && hits[0].nearest && form.dataset.nearest) {
      const hint = root.document.createElement("p");
      hint.className = "hint";
      hint.textContent = form.dataset.nearest;
      parts.unshift(hint);
    }
    results.replaceChildren(...parts);
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
  // A search sent as a page while the phone only thought it was online: the service worker showed this game's
  // kept page at the search's address (static/sw.js), with the question in the address but not in the box.
  const unanswered = new URLSearchParams(root.location.search).get("q");
  if (unanswered && !input.value) {
    input.value = unanswered;
    searchHere();
  }
})(typeof window === "undefined" ? globalThis : window);
