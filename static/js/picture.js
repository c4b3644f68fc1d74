// "Share as picture": the result card (a PNG) goes to the phone's share sheet where the browser
// can share files, straight into a group chat. Elsewhere the link simply downloads the picture.

function canShareFiles() {
  if (!navigator.canShare) return false;
  try {
    return navigator.canShare({ files: [new File([""], "card.png", { type: "image/png" })] });
  } catch (refused) {
    return false;
  }
}

function download(blob, name) {
  const address = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = address;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(address), 60_000);
}

document.addEventListener("click", async (event) => {
  const link = event.target.closest && event.target.closest("[data-share-picture]");
  if (!link || !canShareFiles()) {
    return;
  }
  event.preventDefault();
  let blob;
  try {
    const answer = await fetch(link.href, { credentials: "same-origin" });
    if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
    blob = await answer.blob();
  } catch (failed) {
    window.location.href = link.href;
    return;
  }
  const file = new File([blob], link.getAttribute("download") || "tischblock.png", { type: "image/png" });
  try {
    await navigator.share({ files: [file], title: link.dataset.title });
  } catch (problem) {
    if (problem && problem.name !== "AbortError") {
      download(blob, file.name);
    }
  }
});
