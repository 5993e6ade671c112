/* "Mes résultats": the member's season chart, his tournament points summed night after night
   against the club's average (static/js/line-chart.js draws it). */
window.lineChart("season-chart-data", "season-chart", function (data, canvas) {
  "use strict";
  return {
    line: { label: canvas.dataset.mineLabel, data: data.mine },
    reference: { label: canvas.dataset.averageLabel, data: data.average, pointRadius: 2 },
    // Whole numbers on the axis: a night of 5 points is not drawn on a 0.5 scale.
    y: {
      beginAtZero: true,
      ticks: { precision: 0 },
      title: { display: true, text: canvas.dataset.yLabel },
    },
  };
});
