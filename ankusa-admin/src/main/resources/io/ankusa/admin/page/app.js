// The Ankusa dashboard's one script (no inline scripts: the pages' CSP runs only the module's own files).
(function () {
  "use strict";
  var meta = function (name) {
    var m = document.querySelector('meta[name="' + name + '"]');
    return m ? m.getAttribute("content") : "";
  };
  var base = meta("ankusa-base");

  // Every htmx request carries the CSRF token of the signed-in principal.
  document.addEventListener("htmx:configRequest", function (e) {
    e.detail.headers["X-Ankusa-CSRF"] = meta("ankusa-csrf");
  });

  // A button with data-confirm-text asks first.
  document.addEventListener("htmx:confirm", function (e) {
    var text = e.detail.elt && e.detail.elt.getAttribute("data-confirm-text");
    if (text) {
      e.preventDefault();
      if (window.confirm(text)) { e.detail.issueRequest(true); }
    }
  });

  function toast(text, bad) {
    var box = document.getElementById("toast");
    if (!box) { return; }
    var note = document.createElement("div");
    note.className = "note" + (bad ? " bad" : "");
    note.textContent = text;
    box.appendChild(note);
    setTimeout(function () { note.remove(); }, 6000);
  }

  function errorText(xhr) {
    try {
      var body = JSON.parse(xhr.responseText);
      return (body.error || "error") + ": " + (body.message || "");
    } catch (ignored) {
      return "HTTP " + xhr.status;
    }
  }

  // After a mutation: mark its row (data-done) or reload the page's content (data-refresh).
  document.addEventListener("htmx:afterRequest", function (e) {
    var elt = e.detail.elt;
    var verb = elt && elt.getAttribute("hx-post");
    if (!verb) { return; }
    if (!e.detail.successful) {
      toast(errorText(e.detail.xhr), true);
      return;
    }
    var done = elt.getAttribute("data-done");
    if (done) {
      var row = elt.closest("tr");
      var badge = row && row.querySelector(".state");
      if (badge) {
        badge.textContent = done;
        badge.className = "badge state state-" + done;
      }
      elt.disabled = true;
      elt.textContent = "Replayed";
      toast("Replayed: the delivery is due again.", false);
    } else if (elt.hasAttribute("data-refresh")) {
      htmx.ajax("GET", window.location.href, { target: "#main", select: "#main", swap: "outerHTML" });
    }
  });

  // The dead-letter page's bulk replay: start a job through the API, follow its progress, cancel it.
  function postJson(url, body) {
    return fetch(url, { method: "POST", credentials: "same-origin", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", "Accept": "application/json",
        "X-Ankusa-CSRF": meta("ankusa-csrf") } })
      .then(function (r) {
        return r.text().then(function (text) {
          var json = {};
          try { json = JSON.parse(text); } catch (ignored) { /* not JSON: the status says it */ }
          if (!r.ok) { throw new Error((json.error || "HTTP " + r.status) + ": " + (json.message || "")); }
          return json;
        });
      });
  }
  function bulkReplay(form) {
    var progress = document.getElementById("replay-progress");
    var cancel = document.getElementById("replay-cancel");
    var submit = form.querySelector("button[type=submit]");
    var show = function (job) {
      var counts = "examined " + job.examined + ", replayed " + job.replayed + ", skipped " + job.skipped
        + (job.failed ? ", failed " + job.failed : "");
      progress.textContent = (job.finishedAt ? "Finished (" + job.state + "): " : "Running: ") + counts
        + (job.error ? " — " + job.error : "");
      progress.setAttribute("data-state", job.state);
    };
    var follow = function (url) {
      cancel.hidden = false;
      cancel.onclick = function () {
        postJson(url + "/cancel", {}).catch(function (err) { toast(err.message, true); });
      };
      var poll = function () {
        fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
          .then(function (r) { return r.json(); })
          .then(function (job) {
            show(job);
            if (job.finishedAt) {
              cancel.hidden = true;
              submit.disabled = false;
              toast("Bulk replay " + job.state + ": " + job.replayed + " replayed.", job.state !== "done");
            } else {
              setTimeout(poll, 1000);
            }
          })
          .catch(function () { setTimeout(poll, 2000); });
      };
      poll();
    };
    var body = { tenant: form.getAttribute("data-tenant") };
    ["source", "reason"].forEach(function (name) {
      var value = form.elements[name].value.trim();
      if (value) { body[name] = value; }
    });
    submit.disabled = true;
    postJson(form.getAttribute("data-api"), body)
      .then(function (job) { show(job); follow(form.getAttribute("data-api") + "/" + encodeURIComponent(job.id)); })
      .catch(function (err) { submit.disabled = false; toast(err.message, true); });
  }
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form || form.id !== "replay-matching-form") { return; }
    e.preventDefault();
    var text = form.querySelector("button[type=submit]").getAttribute("data-confirm-text");
    if (!text || window.confirm(text)) { bulkReplay(form); }
  });

  // Relative times, the exact time kept in the title.
  function ago(iso) {
    var t = Date.parse(iso);
    if (isNaN(t)) { return iso; }
    var s = Math.round((Date.now() - t) / 1000);
    var future = s < 0;
    s = Math.abs(s);
    var text = s < 60 ? s + " s" : s < 3600 ? Math.round(s / 60) + " min" : s < 86400 ? Math.round(s / 3600) + " h"
      : Math.round(s / 86400) + " d";
    return future ? "in " + text : text + " ago";
  }
  function relative(root) {
    root.querySelectorAll("time[datetime]").forEach(function (el) {
      el.textContent = ago(el.getAttribute("datetime"));
    });
    root.querySelectorAll("[data-bytes]").forEach(function (el) {
      var n = Number(el.getAttribute("data-bytes"));
      if (isNaN(n)) { return; }
      var units = ["B", "KiB", "MiB", "GiB", "TiB"];
      var i = 0;
      while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
      el.textContent = (i === 0 ? n : n.toFixed(1)) + " " + units[i];
      el.title = el.getAttribute("data-bytes") + " bytes";
    });
  }
  document.addEventListener("htmx:afterSettle", function (e) { relative(e.detail.elt || document); });

  // The overview's charts: the sampler's ring, fetched again every 10 s.
  var plots = [];
  function charts() {
    var box = document.getElementById("charts");
    if (!box || typeof uPlot === "undefined") { return; }
    var url = box.getAttribute("data-history");
    fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (h) {
        if (!h) { return; }
        // The figures follow the sampler's newest sample: no store read per viewer.
        var last = h.t.length - 1;
        var live = document.getElementById("live");
        var at = live ? Number(live.getAttribute("data-at")) : 0;
        if (last >= 0 && h.t[last] > at) {
          ["pending", "scheduled", "inflight", "dead", "quarantined"].forEach(function (name) {
            var fig = document.getElementById("fig-" + name);
            if (fig && h[name][last] !== null) { fig.textContent = String(h[name][last]); }
          });
        }
        var css = getComputedStyle(document.documentElement);
        var color = function (v) { return css.getPropertyValue(v).trim(); };
        var defs = [
          ["chart-backlog", [["pending", "--info"], ["scheduled", "--warn"], ["inflight", "--accent"]]],
          ["chart-rates", [["deliveredPerSecond", "--good"], ["retriedPerSecond", "--warn"], ["failedPerSecond", "--bad"]]],
          ["chart-oldest", [["oldestDueSeconds", "--accent"]]],
          ["chart-problems", [["dead", "--bad"], ["quarantined", "--warn"]]]
        ];
        defs.forEach(function (def, i) {
          var el = document.getElementById(def[0]);
          if (!el) { return; }
          var data = [h.t].concat(def[1].map(function (s) { return h[s[0]]; }));
          if (plots[i]) {
            plots[i].setData(data);
            return;
          }
          var series = [{}].concat(def[1].map(function (s) {
            return { label: s[0], stroke: color(s[1]), width: 2, spanGaps: true };
          }));
          var axis = { stroke: color("--muted"), grid: { stroke: color("--line"), width: 1 }, ticks: { stroke: color("--line") } };
          plots[i] = new uPlot({ width: Math.max(300, el.clientWidth), height: 170, series: series,
            axes: [axis, Object.assign({}, axis)], cursor: { drag: { x: false, y: false } } }, data, el);
        });
        box.setAttribute("data-drawn", String(h.t.length));
      })
      .catch(function () { /* the next round tries again */ });
  }

  document.addEventListener("DOMContentLoaded", function () {
    relative(document);
    charts();
    if (document.getElementById("charts")) { setInterval(charts, 10000); }
  });
})();
