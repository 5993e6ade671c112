/* A player's « cote » over his nights, drawn from the numbers the page carries (json_script).
   Without JavaScript the chart stays hidden and the table under it gives the same numbers. */
(function () {
  "use strict";

  function draw() {
    var source = document.getElementById("rating-chart-data");
    var canvas = document.getElementById("rating-chart");
    if (!source || !canvas || typeof window.Chart === "undefined") {
      return;
    }
    var data = JSON.parse(source.textContent);
    if (!data || !data.labels || data.labels.length === 0) {
      return;
    }
    var figure = canvas.closest("figure");
    if (figure) {
      figure.hidden = false;
    }
    var styles = getComputedStyle(document.documentElement);
    var accent = styles.getPropertyValue("--accent").trim() || "#7a1f2b";
    var muted = styles.getPropertyValue("--muted").trim() || "#5d6677";
    new window.Chart(canvas, {
      type: "line",
      data: {
        labels: data.labels,
        datasets: [
          { label: canvas.dataset.coteLabel, data: data.cote, borderColor: accent,
            backgroundColor: accent, borderWidth: 3, pointRadius: 1, tension: 0 },
          { label: canvas.dataset.muLabel, data: data.mu, borderColor: muted,
            backgroundColor: muted, borderDash: [6, 4], borderWidth: 2, pointRadius: 0, tension: 0 },
        ],
      },
      options: {
        locale: document.documentElement.lang || "fr",
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: "index", intersect: false },
        plugins: { legend: { position: "bottom" } },
        scales: { x: { ticks: { autoSkip: true, maxRotation: 0 } } },
      },
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", draw);
  } else {
    draw();
  }
})();
