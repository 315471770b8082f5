// common.js is what webload's two pages share: report.js (a result's report) and trends.js (a
// history's trend page) run after it and use its functions to make elements, show numbers,
// lay out the data's tables, keep charts as wide as the window and say when drawing failed.
"use strict";

// el makes an element: el("td", {className: "num"}, "12.3", otherNode).
function el(tag, props, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props || {});
  for (const child of children) {
    if (child !== null && child !== undefined) {
      node.append(child);
    }
  }
  return node;
}

// sig shows v with one decimal, or more to keep three significant digits, like the tables.
function sig(v) {
  let decimals = 1;
  if (v !== 0 && Math.abs(v) < 100) {
    while (Math.abs(v) * Math.pow(10, decimals) < 100 && decimals < 6) {
      decimals++;
    }
  }
  return v.toFixed(decimals);
}

// A cell of the data's tables is its text, or [text, sort key] or [text, sort key, class].
function cellText(c) {
  return Array.isArray(c) ? c[0] : c;
}

function cellClass(c) {
  return Array.isArray(c) && c.length > 2 ? c[2] : "";
}

// tableBox builds a <table> from a table of the data, inside a box that scrolls when the table
// is wider or taller than the window; a sticky column stays at its left edge. extend, when
// given, is called with the table and t before it is boxed.
function tableBox(t, className, extend) {
  if (!t.rows || t.rows.length === 0) {
    return el("p", { className: "empty" }, "None.");
  }
  const head = el("tr");
  for (const col of t.columns) {
    const classes = [col.num ? "num" : "", col.sticky ? "sticky" : ""].filter(Boolean);
    head.append(el("th", { className: classes.join(" "), title: col.hint || "" }, col.title));
  }
  const body = el("tbody");
  for (const row of t.rows) {
    const tr = el("tr");
    row.forEach((c, i) => {
      const col = t.columns[i];
      const classes = [col.num ? "num" : "", col.sticky ? "sticky" : "", cellClass(c)].filter(Boolean);
      tr.append(el("td", { className: classes.join(" ") }, cellText(c)));
    });
    body.append(tr);
  }
  const table = el("table", { className: "data " + (className || "") }, el("thead", {}, head), body);
  if (extend) {
    extend(table, t);
  }
  return el("div", { className: "table-box" }, table);
}

// followWindowWidth keeps each chart of charts ({chart, parent}, filled as the page draws them)
// as wide as the element it sits in, redrawn once the window's resizing pauses.
function followWindowWidth(charts) {
  let resizing = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => {
      for (const c of charts) {
        c.chart.setSize({ width: Math.max(320, c.parent.clientWidth), height: c.chart.height });
      }
    }, 100);
  });
}

// drawOrSay runs draw and marks the page ready; when it fails, it says so on the page (a page
// that silently shows half its sections misleads) and rethrows for the console.
function drawOrSay(what, draw) {
  try {
    draw();
    document.documentElement.dataset.ready = "yes";
  } catch (e) {
    const failure = document.getElementById("failure");
    failure.textContent = "This " + what + " could not be drawn completely: " + e;
    failure.hidden = false;
    document.documentElement.dataset.ready = "failed";
    throw e;
  }
}
