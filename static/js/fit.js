// Shows every player's name (and who deals and starts) whole on the pad: upright where each word
// fits its column, turned sideways (class pad--turned) where one does not. Tells the pad how large the
// reader's text is (--text-scale: the root's text against the browser's 16 px), so that its columns, and
// the numbers in them, grow with it (static/css/app.css). Measured again when the pad's width or text
// size changes and when a live update or a tap swaps the sheet in.
(() => {
  const measured = new WeakMap();
  const BROWSER_TEXT = 16;

  function fit(pad) {
    const scale = parseFloat(getComputedStyle(document.documentElement).fontSize) / BROWSER_TEXT;
    if (pad.style.getPropertyValue("--text-scale") !== String(scale)) pad.style.setProperty("--text-scale", String(scale));
    const key = `${pad.clientWidth}/${getComputedStyle(pad).fontSize}`;
    if (measured.get(pad) === key) return;
    measured.set(pad, key);
    pad.classList.remove("pad--turned");
    const words = pad.querySelectorAll("thead .name, thead .marker");
    const crowded = [...words].some((word) => word.scrollWidth > word.clientWidth + 1 || word.scrollHeight > word.clientHeight + 1);
    pad.classList.toggle("pad--turned", crowded);
  }

  const resized = new ResizeObserver((entries) => entries.forEach((entry) => fit(entry.target)));

  function watch() {
    document.querySelectorAll(".pad").forEach((pad) => {
      resized.observe(pad);
      fit(pad);
    });
  }

  // A pad scrolled sideways (large text, many players) stays where the thumb left it when a tap's answer or
  // another phone's push swaps the sheet in: fitted first, so that it is as wide as it will be.
  let scrolled = [];
  document.addEventListener("htmx:before:swap", () => {
    scrolled = [...document.querySelectorAll("#sheet .pad-scroll")].map((box) => box.scrollLeft);
  });
  document.addEventListener("htmx:after:swap", () => {
    watch();
    document.querySelectorAll("#sheet .pad-scroll").forEach((box, place) => {
      if (scrolled[place]) box.scrollLeft = scrolled[place];
    });
  });

  new MutationObserver(watch).observe(document.body, { childList: true, subtree: true });
  watch();
})();
