// report.js draws webload's HTML report. Every figure arrives computed and formatted in the
// JSON of <script id="data"> (written by report/page.go); this script only lays the tables out,
// makes some of them sortable, and draws the charts with uPlot. It fetches nothing.
(function () {
  "use strict";

  const data = JSON.parse(document.getElementById("data").textContent);

  // Colours of the results, the baseline first, in the percentile plot.
  const runColours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"];

  // Every chart, with the element whose width it follows, so it can follow a resized window.
  const charts = [];
  followWindowWidth(charts);

  function section(id) {
    return document.getElementById(id);
  }

  // ---- Tables

  // A cell is its text, or [text, key] for a figure, or [text, key, class] for a styled one
  // (see cell.MarshalJSON in report/table.go; cellText and cellClass are in common.js). In a
  // column of figures, text such as "-" is a figure that was not measured: its key is null.
  function cellKey(c, numeric) {
    if (!numeric) {
      return cellText(c);
    }
    return Array.isArray(c) ? c[1] : null;
  }

  // compareKeys orders two sort keys: figures by value, text by its characters. A figure that
  // was not measured (null) goes after all others, whichever the direction.
  function compareKeys(a, b, descending) {
    if (a === null || b === null) {
      return (a === null) - (b === null);
    }
    const c = a < b ? -1 : a > b ? 1 : 0;
    return descending ? -c : c;
  }

  // renderTable lays out a table of the data (see tableBox in common.js), sortable when the
  // data says so.
  function renderTable(t, className) {
    return tableBox(t, className, t.sortable ? makeSortable : null);
  }

  // makeSortable sorts the table by a column when its header is clicked (or chosen with the
  // keyboard): ascending first, descending on the next click. Rows that tie keep their order.
  function makeSortable(table, t) {
    const body = table.tBodies[0];
    const rows = Array.from(body.rows); // in the data's order
    const keys = t.rows.map((row) => row.map((c, i) => cellKey(c, t.columns[i].num)));
    const headers = Array.from(table.tHead.rows[0].cells);
    let current = -1;
    let descending = false;

    function sortBy(col) {
      descending = current === col ? !descending : false;
      current = col;
      const order = rows.map((_, i) => i);
      order.sort((a, b) => compareKeys(keys[a][col], keys[b][col], descending) || a - b);
      body.append(...order.map((i) => rows[i])); // append moves the rows
      for (const th of headers) {
        th.removeAttribute("aria-sort");
      }
      headers[col].setAttribute("aria-sort", descending ? "descending" : "ascending");
    }

    headers.forEach((th, col) => {
      th.classList.add("sortable");
      th.tabIndex = 0;
      th.addEventListener("click", () => sortBy(col));
      th.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          sortBy(col);
        }
      });
    });
  }

  // ---- Formatting for charts (tables arrive formatted)

  function ms(v) {
    return v === null || v === undefined ? "-" : sig(v) + " ms";
  }

  function rate(v) {
    return v === null || v === undefined ? "-" : sig(v) + " /s";
  }

  // clock shows seconds into the run as m:ss, or h:mm:ss.
  function clock(s) {
    s = Math.round(s);
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const sec = String(s % 60).padStart(2, "0");
    return h > 0 ? h + ":" + String(m).padStart(2, "0") + ":" + sec : m + ":" + sec;
  }

  // The percentile plot's x axis counts nines: x is log10(1/(1-q)).
  function ninesLabel(n) {
    if (n <= 0) {
      return "0%";
    }
    if (n === 1) {
      return "90%";
    }
    return n === 2 ? "99%" : "99." + "9".repeat(n - 2) + "%";
  }

  function percentileAt(x) {
    const p = 100 * (1 - Math.pow(10, -x));
    return p.toFixed(Math.max(0, Math.min(6, Math.floor(x)))) + "%";
  }

  // fromZero is a scale's range from 0 to a little above its largest value.
  function fromZero(u, min, max) {
    return [0, max > 0 ? max * 1.05 : 1];
  }

  // addChart draws a uPlot chart into a new box in parent, as wide as parent.
  function addChart(parent, opts, series) {
    const box = el("div", { className: "chart" });
    parent.append(box);
    opts.width = Math.max(320, parent.clientWidth);
    const chart = new uPlot(opts, series, box);
    charts.push({ chart: chart, parent: parent });
    return chart;
  }

  // runLines are a chart's lines of the results, one per result in its colour, gaps bridged;
  // value shows a point's figure in the legend, extra adds options to every line.
  function runLines(value, extra) {
    return data.runs.map((run, i) => Object.assign({
      label: run.label,
      stroke: runColours[i % runColours.length],
      width: 2,
      spanGaps: true,
      value: (u, v) => value(v),
    }, extra));
  }

  // ---- Sections

  function renderHeader() {
    document.title = data.title;
    section("title").textContent = data.title;
    section("subtitle").textContent = data.subtitle;
  }

  function renderSummary() {
    const sec = section("summary");
    sec.append(renderTable(data.summary, "summary"));
    for (const note of data.summary_notes || []) {
      sec.append(el("p", { className: "note" }, note));
    }
  }

  function renderComparison() {
    const c = data.comparison;
    if (!c) {
      return;
    }
    const sec = section("comparison");
    sec.hidden = false;
    sec.append(renderTable(c.figures, "comparison"), el("p", { className: "note" }, c.legend));
    for (const note of c.notes || []) {
      sec.append(el("p", { className: "note" }, "Note: " + note));
    }
    if (c.content.rows && c.content.rows.length > 0) {
      sec.append(el("h3", {}, "Content: URLs that answer differently"), renderTable(c.content, "content-changes"));
    }
    if (c.content_note) {
      sec.append(el("p", { className: "note" }, c.content_note));
    }
    if (c.urls.rows && c.urls.rows.length > 0) {
      sec.append(el("h3", {}, "URLs whose p95 changed most"), renderTable(c.urls, "url-changes"));
    }
    if (c.statements && c.statements.rows.length > 0) {
      sec.append(el("h3", {}, "Statements: the database's work per transaction"), renderTable(c.statements, "statements"));
      if (c.statements_note) {
        sec.append(el("p", { className: "note" }, c.statements_note));
      }
    }
  }

  function renderPercentiles() {
    const sec = section("percentiles");
    const c = data.curves;
    if (c.x === null || c.x.length === 0) {
      sec.append(el("p", { className: "empty" }, "No transactions to plot."));
      return;
    }
    sec.append(el("p", { className: "note" },
      "Latency at each percentile of the transactions, read from the run's whole histogram. " +
      "The percentile axis stretches the tail: each step is ten times closer to the maximum, " +
      "where each line ends."));
    const series = [{ label: "percentile", value: (u, x) => (x === null ? "-" : percentileAt(x)) }]
      .concat(runLines(ms, {}));
    addChart(sec, {
      height: 360,
      padding: [null, 40, null, null], // room for the last percentile's label
      scales: {
        x: { time: false, range: (u, min, max) => [0, Math.max(1, Math.ceil(max))] },
        y: { range: fromZero },
      },
      axes: [
        {
          label: "percentile",
          splits: (u, i, min, max) => Array.from({ length: Math.floor(max) + 1 }, (_, n) => n),
          values: (u, splits) => splits.map(ninesLabel),
        },
        { label: "latency (ms)", size: 70 },
      ],
      series: series,
    }, [c.x].concat(c.y));
  }

  // renderSteps draws steps of load (d: a ladder's users, or a capacity search's offered
  // rates) against what they gave, the completed rate and the p95, a line per result: the knee
  // is where the rate stops rising and the p95 starts to climb.
  function renderSteps(d, id, xLabel, note) {
    if (!d) {
      return;
    }
    const sec = section(id);
    sec.hidden = false;
    sec.append(el("p", { className: "note" }, note));
    const draw = (c, label, value) => {
      const series = [{ label: xLabel, value: (u, x) => (x === null ? "-" : String(x)) }]
        .concat(runLines(value, { points: { show: true } }));
      addChart(sec, {
        height: 300,
        scales: { x: { time: false, distr: 3, log: 2 }, y: { range: fromZero } },
        axes: [{ label: xLabel }, { label: label, size: 70 }],
        series: series,
      }, [c.x].concat(c.y));
    };
    draw(d.rate, "transactions/s", rate);
    draw(d.p95, "p95 (ms)", ms);
    for (const t of d.tables) {
      if (data.runs.length > 1) {
        sec.append(el("h3", {}, t.label));
      }
      sec.append(renderTable(t.table, id + "-steps"));
    }
  }

  function renderLadder() {
    renderSteps(data.ladder, "ladder", "users",
      "Each point is a step of a ladder (-c 10,20,40): a run of its own at that many users. " +
      "Past the server's capacity the rate stays flat while the p95 grows with the users.");
  }

  function renderCapacity() {
    renderSteps(data.capacity, "capacity", "offered (/s)",
      "Each point is a step of a capacity search (webload capacity): a run of its own at that " +
      "arrival rate. Past the capacity the completed rate falls behind the offer and the p95 climbs.");
  }

  function renderTimelines() {
    const sec = section("timelines");
    data.runs.forEach((run) => {
      const tl = run.timeline;
      const box = el("div", { className: "run" });
      sec.append(box);
      if (data.runs.length > 1) {
        box.append(el("h3", {}, run.label));
      }
      box.append(el("p", { className: "note" }, run.about));
      if (tl.t === null || tl.t.length === 0) {
        box.append(el("p", { className: "empty" }, "No timeline in this result."));
        return;
      }
      let note = "Each point covers " + sig(tl.step) + " s by the time requests ended.";
      if (tl.merged > 1) {
        note += " It merges " + tl.merged + " of the result's intervals: rates are their average, " +
          "p90, p99 and max the worst of them, p50 their medians weighted by transactions.";
      }
      if (tl.runs > 1) {
        note += " The " + tl.runs + " runs of the series are drawn where they ran; the pauses between them " +
          "are gaps, where nothing was measured.";
      }
      const lines = [tl.t, tl.p50, tl.p90, tl.p99, tl.max, tl.requests, tl.failures];
      const rates = [
        { label: "requests/s", scale: "rate", stroke: "#1f77b4", dash: [6, 4], value: (u, v) => rate(v) },
        { label: "failures/s", scale: "rate", stroke: "#9467bd", fill: "rgba(148, 103, 189, 0.15)", value: (u, v) => rate(v) },
      ];
      if (tl.queries) {
        // The database's statements per second (--db), on the requests' axis: a page that
        // costs more statements shows as this line rising above the request rate.
        note += " db queries/s is the database's statement rate, from its own counters" +
          " (all the databases together when several were read).";
        lines.push(tl.queries);
        rates.push({ label: "db queries/s", scale: "rate", stroke: "#8c564b", width: 1.5, value: (u, v) => rate(v) });
      }
      if (tl.planned) {
        // A replayed log's own rate, by when its requests were due: a stack that keeps up
        // draws requests/s along it, one that falls behind flattens below it.
        note += " log planned/s is the replayed log's rate, by the time its requests were due.";
        lines.push(tl.planned);
        rates.push({ label: "log planned/s", scale: "rate", stroke: "#17becf", width: 1.5, value: (u, v) => rate(v) });
      }
      box.append(el("p", { className: "note" }, note));
      addChart(box, {
        height: 320,
        cursor: { sync: { key: "timeline" } },
        scales: { x: { time: false }, ms: { range: fromZero }, rate: { range: fromZero } },
        axes: [
          {
            label: "time into the run",
            incrs: [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 21600, 43200, 86400],
            values: (u, splits) => splits.map(clock),
          },
          { scale: "ms", label: "latency (ms)", size: 70 },
          { scale: "rate", label: "per second", side: 1, size: 70, grid: { show: false } },
        ],
        series: [
          { label: "time", value: (u, v) => (v === null ? "-" : clock(v)) },
          { label: "p50", scale: "ms", stroke: "#2ca02c", width: 1.5, value: (u, v) => ms(v) },
          { label: "p90", scale: "ms", stroke: "#ff7f0e", width: 1.5, value: (u, v) => ms(v) },
          { label: "p99", scale: "ms", stroke: "#d62728", width: 1.5, value: (u, v) => ms(v) },
          { label: "max", scale: "ms", stroke: "#7f7f7f", show: false, value: (u, v) => ms(v) },
        ].concat(rates),
      }, lines);
    });
  }

  function renderResponses() {
    section("responses").append(
      el("h3", {}, "Status codes"), renderTable(data.status_codes, "status"),
      el("h3", {}, "Requests without a response"), renderTable(data.errors, "errors"));
  }

  function renderURLs() {
    const sec = section("urls");
    sec.append(el("p", { className: "note" }, "Click a column's header to sort by it; click again to reverse."));
    for (const run of data.runs) {
      if (data.runs.length > 1) {
        sec.append(el("h3", {}, run.label));
      }
      if (run.url_note) {
        sec.append(el("p", { className: "note" }, run.url_note));
      }
      sec.append(renderTable(run.urls, "urls"));
    }
  }

  // renderStatements lists each run's database statements (--db with --db-statements); the
  // section stays hidden when no run read any.
  function renderStatements() {
    const runs = data.runs.filter((run) => run.statements || run.statements_note);
    if (runs.length === 0) {
      return;
    }
    const sec = section("statements");
    sec.hidden = false;
    sec.append(el("p", { className: "note" },
      "Each statement's work during the run, read from the database's own statement summaries; " +
      "click a column's header to sort by it."));
    for (const run of runs) {
      if (data.runs.length > 1) {
        sec.append(el("h3", {}, run.label));
      }
      if (run.statements_note) {
        sec.append(el("p", { className: "note" }, run.statements_note));
      }
      if (run.statements) {
        sec.append(renderTable(run.statements, "statements"));
      }
    }
  }

  // renderContents links the sections that have something to show.
  function renderContents() {
    const nav = section("toc");
    for (const sec of document.querySelectorAll("main > section")) {
      if (!sec.hidden) {
        const link = el("a", { href: "#" + sec.id }, sec.querySelector("h2").textContent);
        nav.append(link);
      }
    }
  }

  drawOrSay("report", () => {
    renderHeader();
    renderSummary();
    renderComparison();
    renderLadder();
    renderCapacity();
    renderPercentiles();
    renderTimelines();
    renderResponses();
    renderURLs();
    renderStatements();
    renderContents();
  });
})();
