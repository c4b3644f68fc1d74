// Runs the browser's offline FAQ search (static/js/faq-offline.js) in node for the tests:
// reads {index, asked: [{game, lang, q}], limit} as JSON on stdin, writes the ids each question finds.
const { createSearch } = require("../../static/js/faq-offline.js");

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  input += chunk;
});
process.stdin.on("end", () => {
  const { index, asked, limit } = JSON.parse(input);
  const searches = new Map();
  const found = asked.map(({ game, lang, q }) => {
    const key = `${game}/${lang}`;
    if (!searches.has(key)) searches.set(key, createSearch(index, game, lang));
    return searches.get(key).search(q, limit).map((hit) => hit.entry.id);
  });
  process.stdout.write(JSON.stringify(found));
});
