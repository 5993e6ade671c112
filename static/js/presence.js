// The present-players list: filter by name as the scorer types, and count the ticked boxes.
// Without this script the whole list shows and the form still works.
document.addEventListener("DOMContentLoaded", () => {
  const search = document.querySelector("[data-filter]");
  const counter = document.querySelector("[data-present-count]");
  if (!search) return;
  const list = document.querySelector(search.dataset.filter);
  const fold = (text) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  const filter = () => {
    const wanted = fold(search.value.trim());
    for (const item of list.children) {
      item.hidden = wanted !== "" && !fold(item.dataset.name).includes(wanted);
    }
  };
  search.addEventListener("input", filter);
  // A name typed before the script ran (a slow phone), or kept by the browser on "back".
  filter();
  // Enter in the new player's name adds him (the form's first button would only save the
  // ticks and drop the name typed).
  const name = document.querySelector("[data-submit-with]");
  if (name) {
    name.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      document.querySelector(name.dataset.submitWith).click();
    });
  }
  list.addEventListener("change", () => {
    counter.textContent = list.querySelectorAll("input:checked").length;
  });
  // At an inter-club night the other clubs' players come from the server's search (htmx, a
  // few at a time): one ticked joins the list, so that the next search does not take him
  // away; one listed already is not offered twice.
  const found = document.getElementById("found");
  if (!found) return;
  const listed = (box) => list.querySelector(`input[value="${box.value}"]`);
  found.addEventListener("change", (event) => {
    const box = event.target;
    if (!box.checked || listed(box)) return;
    list.prepend(box.closest("li"));
    counter.textContent = list.querySelectorAll("input:checked").length;
  });
  document.body.addEventListener("htmx:afterSwap", (event) => {
    if (event.detail.target !== found) return;
    for (const box of found.querySelectorAll("input")) {
      if (listed(box)) box.closest("li").remove();
    }
  });
});
