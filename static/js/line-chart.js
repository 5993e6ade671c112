/* One line chart of the site, drawn with Chart.js from the numbers its page carries
   (json_script): a line in the club's accent colour and a dashed reference line in the muted
   one, night after night ("Mes résultats": my season against the club's average; a player's
   « cote » against his estimated strength). Every label comes from the page, in the reader's
   language. Without JavaScript, or without a night yet, the chart's figure stays hidden and
   the table under it gives the same numbers.

   A page's own script calls window.lineChart(sourceId, canvasId, lines), where lines(data,
   canvas) returns { line, reference, y }: each line's label and numbers (and its point radius
   when not Chart.js's own), and the y axis when the page wants one of its own. */
(function () {
  "use strict";

  function draw(sourceId, canvasId, lines) {
    var source = document.getElementById(sourceId);
    var canvas = document.getElementById(canvasId);
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
    var chart = lines(data, canvas);
    var scales = { x: { ticks: { autoSkip: true, maxRotation: 0 } } };
    if (chart.y) {
      scales.y = chart.y;
    }

    new window.Chart(canvas, {
      type: "line",
      data: {
        labels: data.labels,
        datasets: [
          Object.assign(
            { borderColor: accent, backgroundColor: accent, borderWidth: 3, tension: 0 },
            chart.line
          ),
          Object.assign(
            {
              borderColor: muted,
              backgroundColor: muted,
              borderDash: [6, 4],
              borderWidth: 2,
              tension: 0,
            },
            chart.reference
          ),
        ],
      },
      options: {
        locale: document.documentElement.lang || "fr",
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: "index", intersect: false },
        plugins: { legend: { position: "bottom" } },
        scales: scales,
      },
    });
  }

  window.lineChart = function (sourceId, canvasId, lines) {
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", function () {
        draw(sourceId, canvasId, lines);
      });
    } else {
      draw(sourceId, canvasId, lines);
    }
  };
})();
