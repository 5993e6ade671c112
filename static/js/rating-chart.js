/* A player's « cote » over his nights, against the club's mean where everybody starts, on his
   page and his statistics (static/js/line-chart.js draws it). The y axis is fitted to the
   numbers, a point of margin either side: the cote moves by tenths, and an axis from the
   start's far side would draw it flat. */
window.lineChart("rating-chart-data", "rating-chart", function (data, canvas) {
  "use strict";
  var values = data.cote.concat([data.start]);
  var low = Math.floor(Math.min.apply(null, values) - 1);
  var high = Math.ceil(Math.max.apply(null, values) + 1);
  return {
    line: { label: canvas.dataset.coteLabel, data: data.cote, pointRadius: 1 },
    reference: {
      label: canvas.dataset.startLabel,
      data: data.cote.map(function () {
        return data.start;
      }),
      pointRadius: 0,
    },
    y: { min: low, max: high },
  };
});
