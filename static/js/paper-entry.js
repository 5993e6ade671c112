// A paper sheet typed in (templates/games/paper_entry.html): Enter goes to the next row's
// first field; on the last row, or on a row left empty, it sends the sheet. Tab does the rest.
//
// A row typed as a pass ("P", "Passe": the codes the view reads as one) takes no number and
// its dealer deals again, as the site records it: the rows after it take the numbers, dealers
// and morts the view sent for the numbered deals to come (its rotation, the engine's), and a
// row is added so that the table's remaining deals all have one.
(() => {
  const json = (id) => JSON.parse(document.getElementById(id)?.textContent || "[]");

  function firstWord(row) {
    const input = row.querySelector("input");
    return (input.value.trim().split(/\s+/)[0] || "").toLocaleLowerCase();
  }

  function isEmpty(row) {
    return [...row.querySelectorAll("input")].every((field) => field.value.trim() === "");
  }

  // A new empty row after the last one, its fields named for its place ("contract-12").
  function addRow(rows) {
    const last = rows[rows.length - 1];
    const row = last.cloneNode(true);
    const index = rows.length;
    row.classList.remove("refused");
    row.dataset.added = "";
    for (const input of row.querySelectorAll("input")) {
      input.value = "";
      input.name = input.name.replace(/-\d+$/, "-" + index);
      input.removeAttribute("autofocus");
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
    }
    last.parentElement.appendChild(row);
    return row;
  }

  function renumber(form) {
    const passes = json("paper-pass-codes");
    const rotation = json("paper-rotation");
    const first = Number(form.dataset.firstNumber);
    const left = Number(form.dataset.dealsLeft);
    let rows = [...form.querySelectorAll("tr[data-row]")];
    const numbered = () => rows.filter((row) => !passes.includes(firstWord(row))).length;
    // Never more rows than a pass before each deal (the view reads no more).
    while (numbered() < left && rows.length < 2 * left) rows.push(addRow(rows));
    // Rows added for a pass typed and then changed go again, while empty.
    for (let last = rows[rows.length - 1]; last && "added" in last.dataset && isEmpty(last) &&
      numbered() > left; last = rows[rows.length - 1]) {
      last.remove();
      rows = rows.slice(0, -1);
    }
    let done = 0;
    for (const row of rows) {
      const passed = passes.includes(firstWord(row));
      const [dealer, mort] = rotation[Math.min(done, rotation.length - 1)] || ["", null];
      row.querySelector("[data-number]").textContent = passed ? "–" : String(first + done);
      row.querySelector("[data-dealer]").textContent = dealer;
      const mortCell = row.querySelector("[data-mort]");
      if (mortCell) mortCell.textContent = mort === null ? "" : mort;
      for (const input of row.querySelectorAll("input")) {
        const label = input.getAttribute("aria-label") || "";
        input.setAttribute("aria-label", label.replace(/\d+/, String(first + done)));
      }
      if (!passed) done += 1;
    }
  }

  document.addEventListener("input", (event) => {
    const input = event.target;
    const form = input instanceof HTMLInputElement && input.closest("form[data-paper-entry]");
    if (form && input.name.startsWith("contract-")) renumber(form);
  });

  document.addEventListener("keydown", (event) => {
    const input = event.target;
    if (event.key !== "Enter" || !(input instanceof HTMLInputElement)) return;
    const form = input.closest("form[data-paper-entry]");
    const row = input.closest("tr[data-row]");
    if (!form || !row) return;
    const rows = [...form.querySelectorAll("tr[data-row]")];
    const next = rows[rows.indexOf(row) + 1];
    if (isEmpty(row) || !next) return; // the browser sends the form
    event.preventDefault();
    next.querySelector("input").focus();
  });
})();
