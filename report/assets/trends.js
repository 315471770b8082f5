// trends.js draws webload's trend page: each headline figure over the nights of a history with
// its change points marked, the URLs that changed most, and the nights with links to their own
// reports. Every figure arrives computed in the JSON of <script id="data"> (written by
// report/trends.go); this script only lays out and draws with uPlot. It fetches nothing.
(function () {
  "use strict";

  const data = JSON.parse(document.getElementById("data").textContent);
  const colours = { line: "#1f77b4", worse: "#b3261e", better: "#1e7b34" };

  // Every chart, with the element whose width it follows, so it can follow a resized window.
  const charts = [];
  followWindowWidth(charts);

  // nightName says which night i is: its number from the oldest, its date and its label.
  function nightName(i) {
    const n = data.nights[i];
    const parts = [n.date, n.label].filter(Boolean);
    return "night " + (i + 1) + (parts.length ? " (" + parts.join(", ") + ")" : "");
  }

  // tick labels night i on the x axis: its month and day when the result says when it ran,
  // else its number.
  function tick(i) {
    const n = data.nights[i];
    if (!n || i !== Math.round(i)) {
      return "";
    }
    return n.date ? n.date.slice(5, 10) : String(i + 1);
  }

  // markChanges draws each change point as a dashed vertical line between the last night before
  // it and the night it began, with its before → after text, red for a regression.
  function markChanges(marks) {
    return {
      hooks: {
        draw: [(u) => {
          const ctx = u.ctx;
          const dpr = window.devicePixelRatio || 1;
          const top = u.bbox.top;
          const bottom = u.bbox.top + u.bbox.height;
          ctx.save();
          ctx.font = Math.round(12 * dpr) + "px system-ui, sans-serif";
          marks.forEach((m, k) => {
            const x = Math.round(u.valToPos(m.index - 0.5, "x", true));
            const colour = m.regression ? colours.worse : colours.better;
            ctx.strokeStyle = colour;
            ctx.fillStyle = colour;
            ctx.lineWidth = 2 * dpr;
            ctx.setLineDash([5 * dpr, 4 * dpr]);
            ctx.beginPath();
            ctx.moveTo(x, top);
            ctx.lineTo(x, bottom);
            ctx.stroke();
            // Text right of the line, or left of it in the right half, so it stays inside.
            const right = x > u.bbox.left + u.bbox.width / 2;
            ctx.textAlign = right ? "right" : "left";
            ctx.fillText(m.text, x + (right ? -5 : 5) * dpr, top + (14 + 16 * (k % 3)) * dpr);
          });
          ctx.restore();
        }],
      },
    };
  }

  // valueRange is a figure's y range: its values with a margin, not below zero for a figure
  // that never is, and wide enough to draw a figure that barely moves (concurrency 5.000000001
  // to 5.000000009) or never does (failed: 0 every night) without ticks at every 1e-9.
  // A share in percent stops at 100.
  function valueRange(u, min, max, unit) {
    if (min === null || max === null) {
      return [0, 1];
    }
    const pad = Math.max((max - min) * 0.1, Math.abs(max) * 0.05) || 1;
    const hi = unit === "%" && max <= 100 ? Math.min(100, max + pad) : max + pad;
    return [min >= 0 ? Math.max(0, min - pad) : min - pad, hi];
  }

  // renderFigure draws one figure over the nights, and lists its change points under it.
  function renderFigure(parent, f) {
    const unit = f.unit ? " " + f.unit : "";
    const box = el("div", { className: "figure", id: "figure-" + f.key });
    box.append(el("h3", {}, f.name + unit));
    parent.append(box);
    const xs = data.nights.map((_, i) => i);
    const n = xs.length;
    const opts = {
      height: 220,
      width: Math.max(320, parent.clientWidth),
      plugins: [markChanges(f.changes || [])],
      scales: { x: { time: false, range: () => [-0.5, n - 0.5] }, y: { range: (u, min, max) => valueRange(u, min, max, f.unit) } },
      axes: [
        { values: (u, splits) => splits.map(tick), incrs: [1, 2, 5, 7, 10, 14, 20, 30, 50, 100, 200, 500, 1000], space: 50 },
        { size: 70, values: (u, splits) => splits.map((v) => sig(v)) },
      ],
      series: [
        { label: "Night", value: (u, i) => (i === null || i === undefined ? "-" : nightName(i)) },
        {
          label: f.name, stroke: colours.line, width: 2, spanGaps: false,
          points: { show: n <= 60, size: 5 },
          value: (u, v) => (v === null || v === undefined ? "-" : sig(v) + unit),
        },
      ],
    };
    const chartBox = el("div", { className: "chart" });
    box.append(chartBox);
    const chart = new uPlot(opts, [xs, f.values], chartBox);
    charts.push({ chart: chart, parent: parent });
    // A click on a night opens its own report, when the history has it.
    chart.over.addEventListener("click", () => {
      const i = chart.cursor.idx;
      if (i !== null && i !== undefined && data.nights[i].link) {
        window.location.href = data.nights[i].link;
      }
    });
    if (f.changes && f.changes.length) {
      const list = el("ul", { className: "changes" });
      for (const m of f.changes) {
        list.append(el("li", { className: m.regression ? "worse" : "better" },
          "From " + nightName(m.index) + ": " + m.text + ", " + (m.regression ? "regression" : "improvement")));
      }
      box.append(list);
    } else {
      box.append(el("p", { className: "empty" }, "No change point."));
    }
  }

  function renderNights(parent) {
    const head = el("tr", {}, el("th", { className: "num" }, "Night"), el("th", {}, "Date (UTC)"),
      el("th", {}, "Label"), el("th", {}, "Report"));
    const body = el("tbody");
    data.nights.forEach((n, i) => {
      const link = n.link ? el("a", { href: n.link }, "report") : "-";
      body.append(el("tr", {}, el("td", { className: "num" }, String(i + 1)), el("td", {}, n.date || "-"),
        el("td", {}, n.label || "-"), el("td", {}, link)));
    });
    parent.append(el("div", { className: "table-box" },
      el("table", { className: "data nights" }, el("thead", {}, head), body)));
  }

  drawOrSay("page", () => {
    document.title = data.title;
    document.getElementById("title").textContent = data.title;
    document.getElementById("subtitle").textContent = data.subtitle;
    document.getElementById("rule").textContent = data.rule;
    const figures = document.getElementById("figures");
    for (const note of data.notes || []) {
      figures.append(el("p", { className: "note" }, "Note: " + note));
    }
    for (const f of data.figures) {
      renderFigure(figures, f);
    }
    const urls = document.getElementById("url-changes");
    urls.append(el("p", { className: "note" }, "Change points of URLs, the largest change first."));
    urls.append(tableBox(data.url_changes, "url-changes"));
    if (data.more_url_changes > 0) {
      urls.append(el("p", { className: "note" }, "And " + data.more_url_changes + " smaller changes of URLs (compare --history --format json lists them all)."));
    }
    renderNights(document.getElementById("nights"));
  });
})();
