// A key pressed on a keypad before the answer to the previous key has arrived still counts.
//
// A keypad (the cards of a hand, or how many of each value it holds) sends the whole hand with
// every key, and the server answers with the keypad as it now is. htmx reads a form's fields
// when its key is pressed: a second key pressed while the first is on its way would carry the hand
// without the first, so one of the two would be lost (htmx sends such a key after the first, or
// drops it). On patchy Wi-Fi that is every quick second tap.
//
// So a keypad form (marked `data-keypad`) sends one key at a time. Keys pressed meanwhile wait
// here, in order, and each is pressed again on the keypad the answer brings, found by its name and
// value: it then carries every key before it. A waiting key the new keypad has disabled (the hand
// is full, no card of that value is left) is not pressed. If the key on its way never got an
// answer (no network), the waiting ones are dropped with it: the form says it was not sent
// (static/js/app.js), and the keypad on screen is still what the server holds.
(() => {
  const KEYPAD = "form[data-keypad]";
  const waiting = [];
  let sending = null; // the keypad form whose key is on its way
  let request = null; // htmx's context of that key's request (htmx points its source at the new keypad once swapped in)

  function pressNext() {
    const form = document.querySelector(KEYPAD);
    while (waiting.length && form) {
      const { name, value } = waiting.shift();
      const key = [...form.querySelectorAll("button[type=submit]")].find((button) => button.name === name && button.value === value);
      if (key && !key.disabled) {
        form.requestSubmit(key);
        return;
      }
    }
    waiting.length = 0;
  }

  // Before htmx sees the key: hold it if another is on its way.
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !form.matches(KEYPAD) || !window.htmx) return;
      if (sending) {
        event.preventDefault();
        event.stopImmediatePropagation();
        if (event.submitter) waiting.push({ name: event.submitter.name, value: event.submitter.value });
        return;
      }
      sending = form;
      request = null;
    },
    true,
  );

  document.addEventListener("htmx:before:request", (event) => {
    const ctx = event.detail && event.detail.ctx;
    if (sending && ctx && ctx.sourceElement === sending) request = ctx;
  });

  // htmx starts a form's request while its submit event is handled, before the event reaches the document;
  // a key it did not send then (the browser sent the form as a page, say) has no answer to wait for.
  document.addEventListener("submit", (event) => {
    if (event.target === sending && !request) sending = null;
  });

  document.addEventListener("htmx:finally:request", (event) => {
    const ctx = event.detail && event.detail.ctx;
    if (!request || ctx !== request) return;
    sending = request = null;
    if (String(ctx.status).startsWith("error")) waiting.length = 0;
    else pressNext();
  });
})();
