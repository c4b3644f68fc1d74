// Runs the browser's offline FAQ search (static/js/faq-offline.js) in node for the tests and the benchmark:
// reads {index, asked: [{game, lang, q}], limit, repeat} as JSON on stdin and writes, per question, the ids it
// finds; with `repeat`, [ids, milliseconds of its first search, ...milliseconds of each repeat] instead.
const { createSearch } = require("../../static/js/faq-offline.js");

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  input += chunk;
});
process.stdin.on("end", () => {
  const { index, asked, limit, repeat } = JSON.parse(input);
  const searches = new Map();
  const timed = (search, q) => {
    const start = process.hrtime.bigint();
    const ids = search.search(q, limit).map((hit) => hit.entry.id);
    return [ids, Number(process.hrtime.bigint() - start) / 1e6];
  };
  const found = asked.map(({ game, lang, q }) => {
    const key = `${game}/${lang}`;
    if (!searches.has(key)) searches.set(key, createSearch(index, game, lang));
    const search = searches.get(key);
    if (!repeat) return search.search(q, limit).map((hit) => hit.entry.id);
    const [ids, first] = timed(search, q);
    return [ids, first, ...Array.from({ length: repeat }, () => timed(search, q)[1])];
  });
  process.stdout.write(JSON.stringify(found));
});
