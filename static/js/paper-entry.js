// A paper sheet typed in (templates/games/paper_entry.html): Enter goes to the next row's
// first field; on the last row, or on a row left empty, it sends the sheet. Tab does the rest.
document.addEventListener("keydown", (event) => {
  const input = event.target;
  if (event.key !== "Enter" || !(input instanceof HTMLInputElement)) return;
  const form = input.closest("form[data-paper-entry]");
  const row = input.closest("tr[data-row]");
  if (!form || !row) return;
  const rows = [...form.querySelectorAll("tr[data-row]")];
  const empty = [...row.querySelectorAll("input")].every((field) => field.value.trim() === "");
  const next = rows[rows.indexOf(row) + 1];
  if (empty || !next) return; // the browser sends the form
  event.preventDefault();
  next.querySelector("input").focus();
});
