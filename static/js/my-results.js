/* "Mes résultats": draws the season chart from the numbers the page carries (json_script).
   Every label comes from the page, in the member's language. Without JavaScript the chart
   stays hidden and the table under it gives the same numbers. */
(function () {
  "use strict";

  function draw() {
    var source = document.getElementById("season-chart-data");
    var canvas = document.getElementById("season-chart");
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
          {
            label: canvas.dataset.mineLabel,
            data: data.mine,
            borderColor: accent,
            backgroundColor: accent,
            borderWidth: 3,
            tension: 0,
          },
          {
            label: canvas.dataset.averageLabel,
            data: data.average,
            borderColor: muted,
            backgroundColor: muted,
            borderDash: [6, 4],
            borderWidth: 2,
            pointRadius: 2,
            tension: 0,
          },
        ],
      },
      options: {
        locale: document.documentElement.lang || "fr",
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: "index", intersect: false },
        plugins: { legend: { position: "bottom" } },
        scales: {
          // Whole numbers on the axis: a night of 5 points is not drawn on a 0.5 scale.
          y: {
            beginAtZero: true,
            ticks: { precision: 0 },
            title: { display: true, text: canvas.dataset.yLabel },
          },
          x: { ticks: { autoSkip: true, maxRotation: 0 } },
        },
      },
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", draw);
  } else {
    draw();
  }
})();
