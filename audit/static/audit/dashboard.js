/* The audit dashboard's charts (Chart.js, vendored). The figures come from the page itself
   (json_script "audit-charts"); amounts arrive as exact decimal strings and are only drawn. */
(function () {
  "use strict";
  var UNDER = "#a3262a", OVER = "#d08a1e", FELT = "#187a50";
  var SEVERITY = { critical: "#a3262a", major: "#d9822b", minor: "#e8d27a" };

  function num(values) { return (values || []).map(function (v) { return Number(v); }); }

  function moneyChart(id, series, words, horizontal) {
    var canvas = document.getElementById(id);
    if (!canvas || !series.labels.length) { return; }
    new Chart(canvas, {
      type: "bar",
      data: {
        labels: series.labels,
        datasets: [
          { label: words.under, data: num(series.under), backgroundColor: UNDER, borderRadius: 3, stack: "m",
            maxBarThickness: 44 },
          { label: words.over, data: num(series.over), backgroundColor: OVER, borderRadius: 3, stack: "m",
            maxBarThickness: 44 }
        ]
      },
      options: {
        indexAxis: horizontal ? "y" : "x",
        maintainAspectRatio: false,
        interaction: { mode: "index", intersect: false },
        plugins: {
          legend: { position: "bottom", labels: { boxWidth: 12 } },
          tooltip: { callbacks: { footer: function (items) {
            var k = items[0].dataIndex; return words.findings + ": " + series.n[k];
          } } }
        },
        scales: {
          x: { stacked: true, grid: { display: horizontal }, ticks: { maxRotation: 0, autoSkipPadding: 12 } },
          y: { stacked: true, grid: { display: !horizontal }, ticks: { autoSkip: !horizontal } }
        }
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var source = document.getElementById("audit-charts");
    if (!source || typeof Chart === "undefined") { return; }
    var data = JSON.parse(source.textContent);
    Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
    Chart.defaults.color = "#5f6b64";

    // Days read as "11-30": the year is in the period above the chart.
    data.byDay.labels = data.byDay.labels.map(function (day) { return day.slice(5); });
    moneyChart("chart-day", data.byDay, data.words, false);
    moneyChart("chart-table", data.byTable, data.words, true);
    moneyChart("chart-dealer", data.byDealer, data.words, false);

    var code = document.getElementById("chart-code");
    if (code) {
      new Chart(code, {
        type: "bar",
        data: { labels: data.byCode.labels, datasets: [{ label: data.words.findings, data: data.byCode.values,
          backgroundColor: FELT, borderRadius: 3, maxBarThickness: 22 }] },
        options: { indexAxis: "y", maintainAspectRatio: false, plugins: { legend: { display: false } },
          scales: { x: { ticks: { precision: 0 } },
                    y: { grid: { display: false }, ticks: { autoSkip: false, font: { size: 11 } } } } }
      });
    }
    var severity = document.getElementById("chart-severity");
    if (severity) {
      new Chart(severity, {
        type: "doughnut",
        data: { labels: data.bySeverity.labels, datasets: [{ data: data.bySeverity.values,
          backgroundColor: data.bySeverity.keys.map(function (k) { return SEVERITY[k]; }), borderWidth: 2 }] },
        options: { maintainAspectRatio: false, cutout: "58%", plugins: { legend: { position: "bottom", labels: { boxWidth: 12 } } } }
      });
    }
  });
})();
