// "Print the card": the browser's print dialog, one tap away. Without this script the button
// stays hidden and the browser's own menu prints the page.

document.documentElement.classList.add("can-print");

document.addEventListener("click", (event) => {
  if (event.target.closest && event.target.closest("[data-print]")) {
    window.print();
  }
});
