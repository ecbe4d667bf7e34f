/* The house edge per rule combination as bars (Chart.js, vendored). The figures come from the
   page (json_script "gamemath-edge-chart") as the engine's exact decimal strings; they are only
   turned into percentages to be drawn. */
(function () {
  "use strict";
  function percents(values) { return (values || []).map(function (v) { return Number(v) * 100; }); }

  function draw() {
    var canvas = document.getElementById("edge-chart");
    var source = document.getElementById("gamemath-edge-chart");
    if (!canvas || !source || typeof Chart === "undefined") { return; }
    var data = JSON.parse(source.textContent);
    var words = data.words;
    // A page may give its own series ([{label, values, color}]: blackjack's rule effects); else Ochko's three.
    var datasets = data.series ? data.series.map(function (s) {
      return { label: s.label, data: percents(s.values), backgroundColor: s.color, borderRadius: 3 };
    }) : [
      { label: words.house_edge, data: percents(data.house_edge), backgroundColor: "#a3262a", borderRadius: 3 },
      { label: words.without_dark, data: percents(data.without_dark), backgroundColor: "#c9a74a", borderRadius: 3 },
      { label: words.edge_per_wagered, data: percents(data.edge_per_wagered), backgroundColor: "#187a50", borderRadius: 3 }
    ];
    new Chart(canvas, {
      type: "bar",
      data: { labels: data.labels, datasets: datasets },
      options: {
        maintainAspectRatio: false,
        plugins: {
          legend: { position: "bottom", labels: { boxWidth: 12 } },
          tooltip: { callbacks: { label: function (item) {
            var v = data.series ? item.parsed.x : item.parsed.y;
            return item.dataset.label + ": " + v.toFixed(4) + " %";
          } } }
        },
        indexAxis: data.series ? "y" : "x",
        scales: data.series ? { x: { title: { display: true, text: words.axis } } }
          : { y: { beginAtZero: true, title: { display: true, text: words.axis } } }
      }
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", draw); } else { draw(); }
})();
