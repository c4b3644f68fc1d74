// "Share result": the phone's own share sheet where the browser has one, else the text is copied.
// Without this script the button stays hidden and the text itself can be selected and copied.

document.documentElement.classList.add("can-share");

document.addEventListener("click", async (event) => {
  const button = event.target.closest && event.target.closest("[data-share-text]");
  if (!button) {
    return;
  }
  const text = button.dataset.shareText;
  if (navigator.share) {
    try {
      await navigator.share({ text, url: new URL(button.dataset.shareUrl, document.baseURI).href });
    } catch (cancelled) {
      // The player closed the share sheet: nothing to do.
    }
    return;
  }
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = `✓ ${button.dataset.copied}`;
  } catch (refused) {
    window.getSelection().selectAllChildren(button.previousElementSibling);
  }
});
