// Shows every player's name (and who deals and starts) whole on the pad: upright where each word
// fits its column, turned sideways (class pad--turned) where one does not. Measured again when the pad's width or text
// size changes and when a live update or a tap swaps the sheet in.
(() => {
  const measured = new WeakMap();

  function fit(pad) {
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

  new MutationObserver(watch).observe(document.body, { childList: true, subtree: true });
  watch();
})();
