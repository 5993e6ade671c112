/* A player's « cote » over his nights, against his estimated strength (μ), on his page and
   his statistics (static/js/line-chart.js draws it). */
window.lineChart("rating-chart-data", "rating-chart", function (data, canvas) {
  "use strict";
  return {
    line: { label: canvas.dataset.coteLabel, data: data.cote, pointRadius: 1 },
    reference: { label: canvas.dataset.muLabel, data: data.mu, pointRadius: 0 },
  };
});
