"""The hand view's script: draws the table at the current event from the embedded frames.

It reads #page-data (JSON written by html.page_data):
  names, chinese   tile notation and Chinese names by tile index
  players          "seat 0 (name)" per seat
  findings         [{code, term, gloss, explanation, message, seat, event, severity, frame}]
  words            how each decision status is described
  frames           [{e: event index or null (the deal), d: the event in words, a: the acting seat,
                     ph: what the table waits for, wr: tiles left in the wall, lv: live tiles,
                     ind: indicator tile or null, wd: wild tiles, fi: indexes into findings,
                     s: per seat {w: wind, dl: dealer, h: concealed tiles, m: [[label, tiles, from]],
                                  r: river, rd: ready, fl: flags, nw: tiles new this event,
                                  ld: its last river tile was discarded this event},
                     dc: [[seat, window, legal, taken, effect, status, indexes of legal to highlight]]}]

Everything from the record is written with textContent or as SVG attributes, never as HTML.
Keys: left/right step, Home/End, N/P the next/previous finding. The address's #event-N (or
#deal, #end) picks the event to show first, and follows the steps (once they pause), so a link can
point at a moment.
"""

VIEW_JS = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("page-data").textContent);
  var frames = data.frames;
  var SVG = "http://www.w3.org/2000/svg";
  var WIND_CN = { E: "东", S: "南", W: "西", N: "北" };
  var current = -1;

  function byId(id) { return document.getElementById(id); }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function tile(t, cls) {
    var label = data.names[t] + " " + data.chinese[t];
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "tile" + (cls ? " " + cls : ""));
    svg.setAttribute("viewBox", "0 0 30 42");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
    var title = document.createElementNS(SVG, "title");
    title.textContent = label;
    var use = document.createElementNS(SVG, "use");
    use.setAttribute("href", "#tile-" + t);
    svg.appendChild(title);
    svg.appendChild(use);
    return svg;
  }

  function tiles(parent, list, wilds, marks) {
    marks = marks || {};
    list.forEach(function (t, i) {
      var cls = [];
      if (wilds.indexOf(t) >= 0) cls.push("wild");
      if (marks[i]) cls.push(marks[i]);
      parent.appendChild(tile(t, cls.join(" ")));
    });
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function eventName(f) { return f.e === null ? "the deal 配牌" : "event " + f.e; }

  function drawSeat(f, s, flaggedSeats) {
    var seat = f.s[s];
    var box = byId("seat-" + s);
    box.classList.toggle("actor", f.a === s);
    box.classList.toggle("flagged", flaggedSeats.indexOf(s) >= 0);
    var head = box.querySelector(".seat-head");
    clear(head);
    head.appendChild(el("span", "name", data.players[s]));
    head.appendChild(el("span", "tag wind", WIND_CN[seat.w] + " " + seat.w));
    if (seat.dl) head.appendChild(el("span", "tag dealer", "庄 dealer"));
    if (seat.rd) head.appendChild(el("span", "tag ready", "听 ready"));
    seat.fl.forEach(function (flag) { head.appendChild(el("span", "tag flag", flag)); });
    head.appendChild(el("span", "muted small", seat.h.length + " concealed"));

    var hand = box.querySelector(".hand");
    clear(hand);
    // The tiles new at this event (a draw) are drawn last and raised.
    var rest = seat.h.slice(), fresh = [];
    seat.nw.forEach(function (t) {
      var i = rest.lastIndexOf(t);
      if (i >= 0) { rest.splice(i, 1); fresh.push(t); }
    });
    tiles(hand, rest, seat.sw);
    var marks = {};
    fresh.forEach(function (t, i) { marks[i] = "new"; });
    tiles(hand, fresh, seat.sw, marks);
    if (seat.wo.length) {  // the tile it won on, which its concealed hand does not hold
      var won = el("span", "won");
      won.appendChild(el("span", "meld-label", "胡 won on"));
      tiles(won, seat.wo, seat.sw, {0: "new"});
      hand.appendChild(won);
    }

    var melds = box.querySelector(".melds");
    clear(melds);
    seat.m.forEach(function (m) {
      var group = el("span", "meld");
      group.appendChild(el("span", "meld-label", m[0] + (m[2] === null ? "" : " ←" + m[2])));
      if (m[2] !== null) group.title = "claimed from seat " + m[2];
      tiles(group, m[1], f.wd);
      melds.appendChild(group);
    });

    var river = box.querySelector(".river");
    clear(river);
    var riverMarks = {};
    if (seat.ld) riverMarks[seat.r.length - 1] = "last";
    tiles(river, seat.r, f.wd, riverMarks);
  }

  function drawCentre(f, k) {
    var c = byId("centre");
    clear(c);
    var first = frames[0].lv || 1;
    c.appendChild(el("div", "lbl", "可摸 live tiles"));
    c.appendChild(el("div", "big live", f.lv));
    var bar = el("div", "bar"), fill = el("span");
    fill.style.width = Math.max(0, Math.min(100, 100 * f.lv / first)) + "%";
    bar.appendChild(fill);
    c.appendChild(bar);
    c.appendChild(el("div", "lbl", "牌墙 wall: " + f.wr + " undrawn"));
    // A labelled row of tiles in the centre.
    function group(cls, label, list, tileCls) {
      var box = el("div", cls);
      box.appendChild(el("div", "lbl", label));
      list.forEach(function (t) { box.appendChild(tile(t, tileCls)); });
      c.appendChild(box);
      return box;
    }
    if (f.ind !== null) group("indicator", "indicator 翻牌", [f.ind]);
    if (f.wd.length) group("wilds", "wild 王/宝", f.wd, "wild");
    // A 宝 is wild only for a 听 seat's own draw once it has seen it (摸宝): listed with those seats.
    f.s.forEach(function (seat, s) {
      var own = seat.sw.filter(function (t) { return f.wd.indexOf(t) < 0; });
      if (own.length) group("wilds", "宝 wild for seat " + s + "'s draw (摸宝)", own, "wild");
    });
    if (f.rv.length) group("revealed", "revealed 打筛", f.rv, "new");
    f.pd.forEach(function (line) { c.appendChild(el("div", "lbl pending", line)); });
    c.appendChild(el("div", "lbl", (k + 1) + " / " + frames.length));
  }

  function drawFindings(f) {
    var box = byId("frame-findings");
    clear(box);
    var onlyNotes = true;
    f.fi.forEach(function (i) {
      var x = data.findings[i];
      if (x.severity === "error") onlyNotes = false;
      var p = el("p");
      p.appendChild(el("strong", null, (x.severity === "error" ? "⚠ " : "ℹ ") + x.code + " "));
      p.appendChild(el("span", "zh", x.term + " "));
      p.appendChild(el("span", null, "(" + x.gloss + ")" + (x.event === null ? " — the record as a whole" : "")));
      box.appendChild(p);
      if (x.explanation) box.appendChild(el("p", "explanation", x.explanation));
      box.appendChild(el("p", "message", x.message));
    });
    box.classList.toggle("info", f.fi.length > 0 && onlyNotes);
    document.querySelectorAll(".finding.current").forEach(function (n) { n.classList.remove("current"); });
    f.fi.forEach(function (i) {
      var li = byId("finding-" + i);
      if (li) li.classList.add("current");
    });
  }

  function drawDecisions(f) {
    var box = byId("decisions");
    clear(box);
    if (!f.dc.length) {
      box.appendChild(el("p", "muted", "No decision point at this event."));
      return;
    }
    var table = el("table"), head = el("tr");
    ["seat 座位", "window", "took 选择", "legal actions 合法动作", "result"].forEach(function (h) {
      head.appendChild(el("th", null, h));
    });
    var thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
    var body = el("tbody");
    f.dc.forEach(function (d) {
      var tr = el("tr", d[5]);
      tr.setAttribute("data-seat", d[0]);
      tr.appendChild(el("td", null, data.players[d[0]]));
      tr.appendChild(el("td", null, d[1]));
      var took = el("td");
      took.appendChild(el("span", "chip taken", d[3]));
      tr.appendChild(took);
      var legal = el("td", "legal");
      if (!d[2].length) legal.appendChild(el("span", "muted", "see the finding"));
      d[2].forEach(function (a, i) {
        var cls = "chip";
        if (a === d[3]) cls += " taken";
        if (d[6].indexOf(i) >= 0) cls += " should";
        legal.appendChild(el("span", cls, a));
      });
      tr.appendChild(legal);
      var words = data.words[d[5]] || d[5];
      if (d[5] === "ok" && d[4]) words = d[4];
      tr.appendChild(el("td", "status", words));
      body.appendChild(tr);
    });
    table.appendChild(body);
    box.appendChild(table);
  }

  function go(k, scroll) {
    k = Math.max(0, Math.min(frames.length - 1, k));
    var f = frames[k];
    current = k;
    var flaggedSeats = f.fi.map(function (i) { return data.findings[i]; })
      .filter(function (x) { return x.severity === "error" && x.seat !== null && x.event !== null; })
      .map(function (x) { return x.seat; });
    for (var s = 0; s < 4; s++) drawSeat(f, s, flaggedSeats);
    drawCentre(f, k);
    drawFindings(f);
    drawDecisions(f);
    byId("position").textContent = eventName(f) + ":";
    byId("event-text").textContent = f.d;
    byId("phase").textContent = "— " + f.ph;
    byId("slider").value = String(k);
    byId("first").disabled = byId("prev").disabled = k === 0;
    byId("last").disabled = byId("next").disabled = k === frames.length - 1;
    var old = document.querySelector(".log [aria-current]");
    if (old) old.removeAttribute("aria-current");
    var item = byId("log-" + k);
    if (item) item.setAttribute("aria-current", "step");
    followHash(f.e === null ? "#deal" : "#event-" + f.e);
    if (scroll) byId("table").scrollIntoView({ block: "start" });
  }

  // The address follows the steps once they pause: Chrome throttles (and pays for) a replaceState
  // on every step of a held arrow key.
  var hashTimer = null;
  function followHash(hash) {
    clearTimeout(hashTimer);
    hashTimer = setTimeout(function () {
      if (window.location.hash !== hash && history.replaceState) history.replaceState(null, "", hash);
    }, 150);
  }

  var findingFrames = [];
  data.findings.forEach(function (x) {
    if (x.frame !== null && findingFrames.indexOf(x.frame) < 0) findingFrames.push(x.frame);
  });
  findingFrames.sort(function (a, b) { return a - b; });

  function nextFinding(step) {
    var list = step > 0 ? findingFrames : findingFrames.slice().reverse();
    for (var i = 0; i < list.length; i++) {
      if ((step > 0 && list[i] > current) || (step < 0 && list[i] < current)) return go(list[i]);
    }
    if (list.length) go(list[0]);  // wrap around
  }

  function fromHash() {
    var h = window.location.hash;
    if (h === "#deal") return 0;
    if (h === "#end") return frames.length - 1;
    var m = /^#event-(\d+)$/.exec(h);
    if (!m) return null;
    var e = Number(m[1]);
    for (var k = frames.length - 1; k >= 0; k--) {
      if (frames[k].e !== null && frames[k].e <= e) return k;
    }
    return 0;
  }

  function on(id, handler) {
    var node = byId(id);
    if (node) node.addEventListener("click", handler);
  }
  on("first", function () { go(0); });
  on("prev", function () { go(current - 1); });
  on("next", function () { go(current + 1); });
  on("last", function () { go(frames.length - 1); });
  on("next-finding", function () { nextFinding(1); });
  on("prev-finding", function () { nextFinding(-1); });
  byId("slider").addEventListener("input", function (ev) { go(Number(ev.target.value)); });
  document.querySelectorAll("[data-goto]").forEach(function (node) {
    node.addEventListener("click", function () {
      go(Number(node.getAttribute("data-goto")), !node.closest("#events"));
    });
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var tag = ev.target && ev.target.tagName, key = ev.key;
    var finding = key === "n" || key === "N" || key === "p" || key === "P";
    // The slider steps with its own arrow, Home and End keys; N and P work there too.
    if (ev.target && ev.target.id === "slider" ? !finding : tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") {
      return;
    }
    if (key === "ArrowRight") go(current + 1);
    else if (key === "ArrowLeft") go(current - 1);
    else if (key === "Home") go(0);
    else if (key === "End") go(frames.length - 1);
    else if (key === "n" || key === "N") nextFinding(1);
    else if (key === "p" || key === "P") nextFinding(-1);
    else return;
    ev.preventDefault();
  });
  window.addEventListener("hashchange", function () {
    var k = fromHash();
    if (k !== null && k !== current) go(k);
  });
  var start = fromHash();
  go(start === null ? 0 : start);
})();
"""
