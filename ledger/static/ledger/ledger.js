/* The ledger page's chart: each player's balance after every round (Chart.js, vendored). */
(function () {
  "use strict";
  var node = document.getElementById("chart-data");
  var canvas = document.getElementById("balance-chart");
  if (!node || !canvas || typeof Chart === "undefined") { return; }
  var data = JSON.parse(node.textContent);
  var palette = ["#0f5a3a", "#c0222b", "#2f62b5", "#c9a74a", "#7b3fa0", "#e07b24", "#1d8a8a", "#5b3a1c", "#d14d8f", "#5f6b64"];
  var datasets = data.series.map(function (s, k) {
    var colour = palette[k % palette.length];
    return {
      label: s.label, data: s.data.map(Number), borderColor: colour, backgroundColor: colour,
      borderWidth: 2.5, pointRadius: data.labels.length > 40 ? 0 : 3, tension: 0.15, stepped: false
    };
  });
  var banks = data.banks;
  new Chart(canvas, {
    type: "line",
    data: { labels: data.labels, datasets: datasets },
    options: {
      responsive: true, maintainAspectRatio: false, animation: false,
      interaction: { mode: "index", intersect: false },
      scales: {
        x: { title: { display: true, text: canvas.dataset.roundLabel || "" }, grid: { display: false } },
        y: { grid: { color: function (ctx) { return ctx.tick.value === 0 ? "#5f6b64" : "#e7e2d6"; } } }
      },
      plugins: {
        legend: { position: "bottom", labels: { usePointStyle: true, boxWidth: 8 } },
        tooltip: {
          callbacks: {
            title: function (items) {
              var n = items[0].label;
              if (n === "0" || n === 0) { return canvas.dataset.startLabel || ""; }
              var bank = banks[Number(n) - 1];
              return (canvas.dataset.roundWord || "#") + " " + n + (bank ? " · " + (canvas.dataset.bankWord || "") + " " + bank : "");
            }
          }
        }
      }
    }
  });
})();
