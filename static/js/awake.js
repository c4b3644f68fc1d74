// Keeps the phone's screen on while a score sheet is open (Screen Wake Lock), unless the player
// switched it off on this phone. Where the browser has no wake lock, the switch stays hidden.
(() => {
  const toggle = document.getElementById("keep-awake");
  if (!toggle || !("wakeLock" in navigator)) return;
  const REMEMBERED = "tischblock.keepAwake";
  let lock = null;

  async function acquire() {
    if (!toggle.checked || lock || document.visibilityState !== "visible") return;
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => {
        lock = null;
      });
    } catch {
      // Refused (battery saver, or the page lost focus meanwhile): the screen may go dark as usual.
      lock = null;
    }
  }

  async function release() {
    const held = lock;
    lock = null;
    if (held) await held.release();
  }

  toggle.checked = localStorage.getItem(REMEMBERED) !== "off";
  toggle.closest("[hidden]")?.removeAttribute("hidden");
  toggle.addEventListener("change", () => {
    localStorage.setItem(REMEMBERED, toggle.checked ? "on" : "off");
    if (toggle.checked) acquire();
    else release();
  });
  // The browser lets go of the lock whenever the page is hidden; take it again when it is back.
  document.addEventListener("visibilitychange", acquire);
  acquire();
})();
