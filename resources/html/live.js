// SPDX-License-Identifier: GPL-3.0-or-later
// The live part of an interactive page (nhsim export --html --live): the page carries the web
// engine (app/web, the core's run loop compiled to WebAssembly) and runs the motion in the
// browser. Every parameter and initial value is a slider and a field within its bounds; a
// change while it plays acts at once, as in the app (the run goes on from its state there
// with the new value, as a timed edit); Undo and Redo (Ctrl+Z, Ctrl+Shift+Z); the integrator
// and its step; Reset and a single step; the setup in the link (#Omega0=2&r=0.1&t=4). A
// refused value or a stopped run says why in one line and keeps what is shown. A lesson's
// comparison run (vakonomic, a ghost, another integrator) is run beside it and takes its
// edits, as the app's does. The engine steps in slices of at most 8 ms per frame, so the page
// never freezes.
(function () {
  "use strict";

  var page = window.nhPage, data = page && page.data, live = data && data.live;
  if (!live) return;

  var panel = document.createElement("aside");
  panel.id = "live";
  panel.setAttribute("aria-label", "live controls");
  document.querySelector("main").insertBefore(panel, document.getElementById("view"));
  var status = document.createElement("p");
  status.id = "liveStatus";
  status.setAttribute("role", "status");

  // One line on the page (and for the tests, the last one kept in window.nhLive.message).
  function say(text) {
    status.textContent = text;
    status.hidden = !text;
    if (window.nhLive) window.nhLive.message = text;
  }

  if (typeof window.nhEngine !== "function" || typeof WebAssembly !== "object") {
    panel.appendChild(status);
    say("This browser cannot run the page's engine (WebAssembly); the recorded run is shown.");
    return;
  }

  // ---- The engine --------------------------------------------------------------------------

  // The samples shown are sampleStep apart (a fixed-step method's rows may be its longer steps).
  var base = live.scenario, sampleStep = live.sampleStep || base.dt_out;
  var fixedStep = { "rk4": true, "nh-rattle": true, "discrete-gradient": true };
  var rowStep = sampleStep;  // the time between the engine's rows (the run's dt-out)
  var E = null, M = null;  // the entry points (app/web/engine.h) and the module
  var handle = 0, stopped = false;
  var columns = [];  // the run's output columns, by index
  var plotted = {};  // the plotted columns: name → index in the row (-1: derived from the row)

  // The columns the app's history derives from a row (ui/sim/run_history.cpp): the largest
  // constraint residual, and the energy error (E − E₀)/|E₀| (E − E₀ where E₀ = 0), E₀ the
  // energy at the run's first row and again at the first row after each edit (a row that the
  // engine delivers again at the same time, with the new values).
  var DERIVED = { energy_error: true, residual: true };
  function deriver(cols) {
    var energy = cols.indexOf("energy"), residuals = [], e0 = NaN, lastT = NaN;
    cols.forEach(function (c, i) { if (/^(phi|g)_[0-9]+$/.test(c)) residuals.push(i); });
    return function (values, o) {
      var t = values[o], e = energy >= 0 ? values[o + energy] : NaN, r = 0;
      if (!(t > lastT)) e0 = e;  // the first row, or a row delivered again after an edit
      lastT = t;
      residuals.forEach(function (i) { r = Math.max(r, Math.abs(values[o + i])); });
      return { energy_error: e0 !== 0 ? (e - e0) / Math.abs(e0) : e - e0, residual: r };
    };
  }
  // The plotted columns of a run with output columns `cols`: name → index, or -1 where derived.
  function plottedOf(cols) {
    var out = {};
    cols.forEach(function (name, i) { if (names[name] && name !== "t") out[name] = i; });
    Object.keys(DERIVED).forEach(function (name) { if (names[name] && !(name in out)) out[name] = -1; });
    return out;
  }
  var derive = null;  // the run's deriver
  var names = {};
  data.plots.series.forEach(function (s) { names[s.name] = true; });
  if (data.plots.path) names[data.plots.path.x.name] = names[data.plots.path.y.name] = true;

  // The rows themselves are kept for the page's tests only (#livetest).
  var keepRows = new URLSearchParams(location.hash.slice(1)).has("livetest");

  // The run shown: growing buffers (capacity doubled), `count` samples in them, and the times
  // of the edits (marked in the time plots).
  var run = null;
  function emptyRun(width) {
    var cap = 1024, r = { count: 0, width: width, times: new Float32Array(cap), samples: new Float32Array(cap * width),
                          arrowScales: data.arrows.map(function () { return new Float32Array(cap); }), columns: {},
                          rows: [] };
    Object.keys(plotted).forEach(function (n) { r.columns[n] = new Float32Array(cap); });
    r.columns.t = r.times;
    if (cmp) {
      r.comparison = { samples: new Float32Array(cap * cmp.width), columns: {} };
      Object.keys(cmp.columns).forEach(function (n) { r.comparison.columns[n] = new Float32Array(cap); });
    }
    return r;
  }
  function grow(r, need) {
    var cap = r.times.length;
    if (need <= cap) return;
    while (cap < need) cap *= 2;
    function bigger(a, n) { var b = new Float32Array(n); b.set(a); return b; }
    r.times = bigger(r.times, cap);
    r.samples = bigger(r.samples, cap * r.width);
    r.arrowScales = r.arrowScales.map(function (a) { return bigger(a, cap); });
    Object.keys(r.columns).forEach(function (n) { if (n !== "t") r.columns[n] = bigger(r.columns[n], cap); });
    r.columns.t = r.times;
    if (r.comparison) {
      var rc = r.comparison;
      rc.samples = bigger(rc.samples, cap * cmp.width);
      Object.keys(rc.columns).forEach(function (n) { rc.columns[n] = bigger(rc.columns[n], cap); });
    }
  }

  // ---- The comparison run ---------------------------------------------------------------------

  // A lesson's comparison (its "compare" part), drawn with the recorded comparison's bodies and
  // trails: its own rows (times, scene samples, plotted columns) as the engine delivers them,
  // and the same read at each sample of the run shown (NaN where it has none: after it stopped).
  var compare = live.compare && data.comparison ? live.compare : null;
  var cmpHandle = 0, cmpStopped = true, cmp = null;

  function openComparison() {
    cmp = null;
    cmpHandle = E.openComparison(handle, JSON.stringify(compare));
    cmpStopped = !cmpHandle;
    if (!cmpHandle) return say("the comparison was not run: " + E.error());
    var cols = [];
    for (var c = 0; c < E.columnCount(cmpHandle); ++c) cols.push(E.column(cmpHandle, c));
    E.recordScene(cmpHandle, JSON.stringify({ bodies: data.comparison.bodies, arrows: [],
                                              points: data.comparison.points }));
    cmp = { width: E.sceneWidth(cmpHandle), n: cols.length, index: plottedOf(cols), derive: deriver(cols),
            count: 0, times: [], samples: [], columns: {}, at: 0, rows: [] };
    Object.keys(cmp.index).forEach(function (name) { cmp.columns[name] = []; });
    advanceComparison(0);
  }

  function advanceComparison(to) {
    if (cmpStopped) return;
    if (E.advance(cmpHandle, to) < 0) {
      cmpStopped = true;
      say("the comparison stopped: " + E.error());
    }
    var rows = E.rowCount(cmpHandle);
    if (rows <= 0) return;
    var values = new Float64Array(M.HEAPF64.buffer, E.rows(cmpHandle), rows * cmp.n);
    var scene = new Float32Array(M.HEAPF32.buffer, E.sceneSamples(cmpHandle), rows * cmp.width);
    for (var k = 0; k < rows; ++k) {
      cmp.times.push(Math.fround(values[k * cmp.n]));  // as the run's times are kept
      cmp.samples.push(scene.subarray(k * cmp.width, (k + 1) * cmp.width).slice());
      var d = cmp.derive(values, k * cmp.n);
      Object.keys(cmp.columns).forEach(function (name) {
        cmp.columns[name].push(cmp.index[name] >= 0 ? values[k * cmp.n + cmp.index[name]] : d[name]);
      });
      if (keepRows) cmp.rows.push(Array.prototype.slice.call(values, k * cmp.n, (k + 1) * cmp.n));
    }
    cmp.count += rows;
    E.clearRows(cmpHandle);
  }

  // The comparison at the run's samples [from, run.count): its last row at or before each (a
  // fixed-step comparison's rows are its steps), none past the end of one that stopped.
  function alignComparison(from) {
    var rc = run.comparison;
    for (var k = from; k < run.count; ++k) {
      var t = run.times[k], tol = 1e-9 * Math.max(1, Math.abs(t));
      while (cmp.at + 1 < cmp.count && cmp.times[cmp.at + 1] <= t + tol) ++cmp.at;
      var last = cmp.at + 1 >= cmp.count;
      var have = cmp.count > 0 && cmp.times[cmp.at] <= t + tol &&
                 !(last && cmpStopped && t - cmp.times[cmp.at] >= 0.5 * sampleStep + tol);
      for (var i = 0; i < cmp.width; ++i) rc.samples[k * cmp.width + i] = have ? cmp.samples[cmp.at][i] : NaN;
      Object.keys(cmp.columns).forEach(function (name) { rc.columns[name][k] = have ? cmp.columns[name][cmp.at] : NaN; });
    }
  }

  // One step of the engine to `to`, the comparison along: false when the run shown stopped.
  function advanceTo(to) {
    if (E.advance(handle, to) < 0) return false;
    if (cmp) advanceComparison(to);
    return true;
  }

  // Moves the engine's rows (and their scene samples) into the run shown.
  function pull() {
    var rows = E.rowCount(handle);
    if (rows <= 0) return;
    var width = run.width, n = columns.length;
    grow(run, run.count + rows);
    var values = new Float64Array(M.HEAPF64.buffer, E.rows(handle), rows * n);
    var scene = new Float32Array(M.HEAPF32.buffer, E.sceneSamples(handle), rows * width);
    run.samples.set(scene, run.count * width);
    for (var a = 0; a < run.arrowScales.length; ++a)
      run.arrowScales[a].set(new Float32Array(M.HEAPF32.buffer, E.arrowScales(handle, a), rows), run.count);
    for (var k = 0; k < rows; ++k) {
      run.times[run.count + k] = values[k * n];
      var d = derive(values, k * n);
      Object.keys(plotted).forEach(function (name) {
        run.columns[name][run.count + k] = plotted[name] >= 0 ? values[k * n + plotted[name]] : d[name];
      });
      if (keepRows) run.rows.push(Array.prototype.slice.call(values, k * n, (k + 1) * n));
    }
    var from = run.count;
    run.count += rows;
    E.clearRows(handle);
    if (cmp) alignComparison(from);
  }

  function show(t) {
    if (run.count === 0) return;
    run.marks = (base.edits || []).map(function (e) { return e.t; })
      .concat(setup.edits.map(function (e) { return e.t; }));
    page.replaceRun(run, t);
  }

  // ---- The setup: what the engine runs --------------------------------------------------------

  var parameters = live.parameters, initial = live.initial;
  var setup = freshSetup();
  function freshSetup() {
    return { parameters: {}, initial: {}, method: base.integrator.method, step: null, edits: [] };
  }
  function copySetup(s) { return JSON.parse(JSON.stringify(s)); }

  // The scenario of `s`: the page's, its overrides, its integrator, and its edits after the
  // lesson's own (timed edits, as a scenario file holds them).
  function scenarioOf(s) {
    var scenario = JSON.parse(JSON.stringify(base));
    scenario.parameters = Object.assign({}, base.parameters || {}, s.parameters);
    scenario.initial = Object.assign({}, base.initial || {}, s.initial);
    scenario.integrator = Object.assign({}, base.integrator || {}, { method: s.method });
    if (s.step) scenario.integrator.step = s.step;
    // A fixed-step method's rows are its steps where they are longer than the samples shown.
    scenario.dt_out = fixedStep[s.method] ? Math.max(sampleStep, scenario.integrator.step) : sampleStep;
    var edits = (base.edits || []).concat(s.edits.map(function (e) {
      var set = {}; set[e.name] = e.value; return { t: e.t, set: set };
    }));
    edits.sort(function (a, b) { return a.t - b.t; });
    if (edits.length) scenario.edits = edits; else delete scenario.edits;
    return scenario;
  }

  // A new run of `s` from t = 0 up to `t` (at least its first sample); false, and the line
  // said, when the engine refuses it.
  function open(s, t) {
    if (handle) E.close(handle);
    var scenario = scenarioOf(s);
    rowStep = scenario.dt_out;
    handle = E.open(JSON.stringify(scenario));
    stopped = false;
    if (!handle) return say(E.error()), false;
    columns = [];
    for (var c = 0; c < E.columnCount(handle); ++c) columns.push(E.column(handle, c));
    plotted = plottedOf(columns);
    derive = deriver(columns);
    var presets = data.arrows.map(function (a) { return (live.arrowScales || {})[a.name] || 0; });
    E.recordScene(handle, JSON.stringify({ bodies: data.bodies, arrows: data.arrows, points: data.points,
                                           arrowPresets: presets, arrowScaleFixed: live.arrowScaleFixed }));
    cmp = null;
    if (compare) openComparison();
    run = emptyRun(E.sceneWidth(handle));
    if (!advanceTo(0)) return stop(), false;
    pull();
    if (t > 0) runTo(t, Infinity);
    return true;
  }

  function stop() {
    stopped = true;
    pull();
    say(E.error());
    page.setPlaying(false);
  }

  // Runs the engine on to `t` (not past it), for at most `budget` ms; the time reached.
  function runTo(t, budget) {
    var start = performance.now(), now = E.time(handle);
    while (!stopped && now < t && performance.now() - start < budget) {
      // Slices of a few samples, the last one ending on t itself (not a sum of slices); a
      // fixed-step method's engine goes on by whole rows, so a slice shorter than one moves
      // nothing until t is a row further.
      var to = now + Math.max(sampleStep, 0.05, rowStep);
      if (to >= t - 1e-9 * Math.max(1, Math.abs(t))) to = t;
      if (!advanceTo(to)) { stop(); break; }
      var moved = E.time(handle) > now;
      now = E.time(handle);
      if (!moved) break;
    }
    pull();
    return run.count ? run.times[run.count - 1] : 0;
  }

  var engine = {
    reach: function (t) {
      var reached = runTo(t, 8);
      show(Math.min(t, reached));
      return Math.min(t, reached);
    },
    running: function () { return !stopped; }
  };

  // ---- Edits, undo and redo -------------------------------------------------------------------

  var undoStack = [], redoStack = [];

  // Makes `next` the setup, the run replayed to the time shown (or from 0 when `restart`).
  function apply(next, label, restart) {
    var t = restart ? 0 : page.time();
    var before = copySetup(setup);
    if (!open(next, t)) {
      open(before, t);
      show(t);
      return false;
    }
    setup = next;
    undoStack.push({ setup: before, label: label });
    redoStack = [];
    show(t);
    refresh();
    return true;
  }

  // A parameter's new value from the time shown on, as the app's sliders edit a running system:
  // at the engine's live end it goes on from there; earlier, the run is replayed to the time
  // shown first. Refused (one line, the run kept) where the engine refuses it.
  function editParameter(p, value) {
    var t = page.time(), before = copySetup(setup);
    if (t < E.time(handle) - 1e-9 || stopped) open(setupBefore(t), t);
    var at = E.time(handle);
    if (!E.edit(handle, p.name, value) || !advanceTo(at + Math.max(sampleStep, rowStep))) {
      var why = E.error();
      open(before, t);
      show(t);
      say(why + "; kept " + p.label + " = " + number(currentValue(p)));
      refresh();
      return;
    }
    pull();
    var next = setupBefore(at);
    next.edits.push({ t: at, name: p.name, value: value });
    setup = next;
    undoStack.push({ setup: before, label: p.label + " = " + number(value) });
    redoStack = [];
    say("");
    show(at);
    refresh();
  }

  // The setup with only the edits before time t.
  function setupBefore(t) {
    var s = copySetup(setup);
    s.edits = s.edits.filter(function (e) { return e.t < t - 1e-12; });
    return s;
  }

  function undo() {
    if (!undoStack.length) return;
    var entry = undoStack.pop();
    redoStack.push({ setup: copySetup(setup), label: entry.label });
    setup = entry.setup;
    replay();
    say("undone: " + entry.label);
  }
  function redo() {
    if (!redoStack.length) return;
    var entry = redoStack.pop();
    undoStack.push({ setup: copySetup(setup), label: entry.label });
    setup = entry.setup;
    replay();
    say("redone: " + entry.label);
  }
  function replay() {
    var t = page.time();
    open(setup, t);
    show(t);
    refresh();
  }

  // ---- The controls ---------------------------------------------------------------------------

  function number(v) { return Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(3) : String(Number(v.toPrecision(6))); }

  // The value of parameter p in effect at the time shown.
  function currentValue(p) {
    var v = p.name in setup.parameters ? setup.parameters[p.name] : p.value, t = page.time();
    (base.edits || []).concat(setup.edits.map(function (e) { var set = {}; set[e.name] = e.value; return { t: e.t, set: set }; }))
      .sort(function (a, b) { return a.t - b.t; })
      .forEach(function (e) { if (e.t <= t + 1e-9 && p.name in e.set) v = e.set[p.name]; });
    return v;
  }

  function bounds(p) {
    return (p.minExclusive ? "(" : "[") + (p.min === null ? "−∞" : number(p.min)) + ", " +
           (p.max === null ? "∞" : number(p.max)) + (p.maxExclusive ? ")" : "]");
  }
  function allowed(p, v) {
    if (!isFinite(v)) return false;
    if (p.min !== null && (p.minExclusive ? v <= p.min : v < p.min)) return false;
    if (p.max !== null && (p.maxExclusive ? v >= p.max : v > p.max)) return false;
    return true;
  }
  // The slider's span: the bounds, or around the starting value where a bound is open.
  function span(p) {
    var v = p.value, wide = Math.max(Math.abs(v), 1);
    var lo = p.min !== null ? p.min : v - wide, hi = p.max !== null ? p.max : v + 2 * wide;
    if (p.min === null && p.max !== null) lo = Math.min(v, p.max) - 2 * wide;
    if (p.max === null && p.min !== null) hi = Math.max(v, p.min) + 2 * wide;
    return [lo, hi];
  }

  var rows = [];
  function control(p, group, onChange) {
    var row = document.createElement("div"), label = document.createElement("label");
    row.className = "liveRow";
    label.textContent = p.label + (p.unit ? " [" + p.unit + "]" : "");
    label.title = (p.description || p.name) + (p.min !== undefined ? " — allowed " + bounds(p) : "");
    var slider = document.createElement("input"), field = document.createElement("input");
    var range = span(p);
    slider.type = "range";
    slider.min = String(range[0]);
    slider.max = String(range[1]);
    slider.step = String((range[1] - range[0]) / 200);
    slider.setAttribute("aria-label", p.label);
    field.type = "text";
    field.inputMode = "decimal";
    field.setAttribute("aria-label", p.label + " value");
    field.dataset.name = p.name;
    row.appendChild(label);
    row.appendChild(slider);
    row.appendChild(field);
    group.appendChild(row);
    var entry = { p: p, slider: slider, field: field };
    function take(text) {
      var v = Number(String(text).trim().replace("−", "-"));
      if (String(text).trim() === "" || !allowed(p, v)) {
        say(p.label + ": " + (String(text).trim() === "" ? "a number is needed" : "'" + String(text).slice(0, 24) + "' is not allowed") +
            "; allowed " + bounds(p) + (p.unit ? " " + p.unit : ""));
        refresh();
        return;
      }
      onChange(p, v);
    }
    slider.addEventListener("change", function () { take(slider.value); });
    field.addEventListener("change", function () { take(field.value); });
    entry.update = function (v) {
      if (document.activeElement !== field) field.value = number(v);
      slider.value = String(v);
    };
    rows.push(entry);
    return entry;
  }

  function heading(text) {
    var h = document.createElement("h2");
    h.textContent = text;
    panel.appendChild(h);
  }

  var buttons = document.createElement("div");
  buttons.className = "liveButtons";
  panel.appendChild(buttons);
  function button(text, title, action) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.title = title;
    b.addEventListener("click", action);
    buttons.appendChild(b);
    return b;
  }
  button("Reset", "Start again from the page's setup", function () {
    apply(freshSetup(), "reset", true);
  });
  button("Step", "Pause and move on by one sample", function () {
    page.setPlaying(false);
    engine.reach(page.time() + Math.max(sampleStep, rowStep));
  });
  var undoButton = button("Undo", "Undo the last change (Ctrl+Z)", undo);
  var redoButton = button("Redo", "Redo (Ctrl+Shift+Z)", redo);
  panel.appendChild(status);

  heading("Parameters");
  var parameterGroup = document.createElement("div");
  panel.appendChild(parameterGroup);
  parameters.forEach(function (p) { control(p, parameterGroup, editParameter).kind = "parameter"; });

  var initialBox = document.createElement("details");
  var initialTitle = document.createElement("summary");
  initialTitle.textContent = "Initial state (starts again)";
  initialBox.appendChild(initialTitle);
  panel.appendChild(initialBox);
  initial.forEach(function (x) {
    var p = { name: x.name, label: x.name, unit: "", min: null, max: null, value: x.value };
    control(p, initialBox, function (q, v) {
      var next = copySetup(setup);
      next.initial[q.name] = v;
      next.edits = [];
      parameters.forEach(function (r) { next.parameters[r.name] = currentValue(r); });
      if (apply(next, q.name + "(0) = " + number(v), true)) say("");
    }).kind = "initial";
  });

  heading("Integrator");
  var integratorRow = document.createElement("div");
  integratorRow.className = "liveRow";
  var methodBox = document.createElement("select"), stepField = document.createElement("input");
  methodBox.setAttribute("aria-label", "integrator");
  ["dop853", "dopri5", "rk78", "rk4", "nh-rattle", "discrete-gradient"].forEach(function (m) {
    var o = document.createElement("option");
    o.value = o.textContent = m;
    methodBox.appendChild(o);
  });
  stepField.type = "text";
  stepField.setAttribute("aria-label", "fixed step [s]");
  stepField.title = "the fixed step of rk4, nh-rattle and discrete-gradient [s]";
  integratorRow.appendChild(methodBox);
  integratorRow.appendChild(stepField);
  panel.appendChild(integratorRow);
  function changeIntegrator() {
    var next = copySetup(setup), step = Number(stepField.value);
    next.method = methodBox.value;
    if (!(step > 0) || !isFinite(step)) {
      say("step: '" + stepField.value.slice(0, 24) + "' is not allowed; give a number > 0 (seconds)");
      return refresh();
    }
    next.step = step === base.integrator.step ? null : step;
    if (apply(next, "integrator " + next.method, true)) say("");
  }
  methodBox.addEventListener("change", changeIntegrator);
  stepField.addEventListener("change", changeIntegrator);

  // The controls show the setup in effect at the time shown, and the link holds it.
  function refresh() {
    rows.forEach(function (r) {
      if (r.kind === "parameter") r.update(currentValue(r.p));
      else r.update(r.p.name in setup.initial ? setup.initial[r.p.name] : r.p.value);
    });
    methodBox.value = setup.method;
    stepField.value = String(setup.step || base.integrator.step);
    undoButton.disabled = !undoStack.length;
    redoButton.disabled = !redoStack.length;
    undoButton.title = undoStack.length ? "Undo " + undoStack[undoStack.length - 1].label + " (Ctrl+Z)" : "Nothing to undo";
    writeLink();
  }

  // ---- The link --------------------------------------------------------------------------------

  var pageKeys = { selftest: true, theme: true, t: true, livetest: true, livebench: true };
  function fragmentOf(key) { return new URLSearchParams(location.hash.slice(1)).get(key); }
  function writeLink() {
    var parts = [];
    parameters.forEach(function (p) {
      if (p.name in setup.parameters) parts.push(encodeURIComponent(p.name) + "=" + setup.parameters[p.name]);
    });
    Object.keys(setup.initial).forEach(function (n) { parts.push(encodeURIComponent(n) + "=" + setup.initial[n]); });
    if (setup.method !== freshSetup().method) parts.push("integrator=" + setup.method);
    if (setup.step) parts.push("step=" + setup.step);
    parts.push("t=" + Number(page.time().toFixed(3)));
    new URLSearchParams(location.hash.slice(1)).forEach(function (v, k) {
      if (k === "selftest" || k === "theme" || k === "livetest" || k === "livebench") parts.push(k + (v ? "=" + v : ""));
    });
    try { history.replaceState(null, "", "#" + parts.join("&")); } catch (e) { /* a page without history */ }
  }

  // The setup a link gives (#Omega0=2&r=0.1&t=4): parameters, initial values, the integrator
  // and its step; what it names that the page does not know, or bad values, said in one line.
  function readLink() {
    var s = freshSetup(), ignored = [];
    new URLSearchParams(location.hash.slice(1)).forEach(function (text, key) {
      if (pageKeys[key]) return;
      var v = Number(text), p = parameters.filter(function (q) { return q.name === key; })[0];
      var x = initial.filter(function (q) { return q.name === key; })[0];
      if (key === "integrator" && methodBox.querySelector("option[value='" + CSS.escape(text) + "']")) s.method = text;
      else if (key === "step" && v > 0 && isFinite(v)) s.step = v;
      else if (p && allowed(p, v)) s.parameters[key] = v;
      else if (x && isFinite(v) && text.trim() !== "") s.initial[key] = v;
      else ignored.push(key + (text ? "=" + text : ""));
    });
    return { setup: s, ignored: ignored };
  }

  document.addEventListener("keydown", function (e) {
    if (!(e.ctrlKey || e.metaKey) || e.key.toLowerCase() !== "z") return;
    if (e.target.tagName === "INPUT" && e.target.type === "text") return;  // the field's own undo
    e.preventDefault();
    if (e.shiftKey) redo(); else undo();
  });

  // ---- Start ------------------------------------------------------------------------------------

  function bytesOf(text) {
    var raw = atob(text.trim()), out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; ++i) out[i] = raw.charCodeAt(i);
    return out;
  }

  window.nhLive = { ready: false, message: "" };
  function giveUp(text) {
    window.nhLive.failed = true;
    say(text);
  }
  say("starting the page's engine…");
  // A test's or benchmark's headless browser runs the page on virtual time, which can race
  // ahead while the engine compiles off the main thread (and stands still inside a task, so no
  // clock measures it): until the engine has started, for at most 500 frames, each frame
  // works the main thread some 20 ms, so that real time passes for the compiler.
  if (keepRows || fragmentOf("livebench")) {
    var held = 0, sink = 0;
    (function hold() {
      if (window.nhLive.ready || window.nhLive.failed || ++held > 500) return;
      for (var i = 0; i < 2e7; ++i) sink += i & 1;
      window.nhLive.held = held + sink * 0;
      requestAnimationFrame(hold);
    })();
  }
  // The module's bytes travel deflated (zlib) and are inflated with pako.
  var wasm;
  try {
    wasm = window.pako.inflate(bytesOf(document.getElementById("nh-wasm").textContent));
  } catch (error) {
    return giveUp("The page's engine is damaged (" + String(error.message || error) + "); the recorded run is shown.");
  }
  window.nhEngine({ wasmBinary: wasm }).then(function (module) {
    M = module;
    var w = M.cwrap;
    E = { open: w("nhweb_open", "number", ["string"]), close: w("nhweb_close", null, ["number"]),
          error: w("nhweb_error", "string", []), columnCount: w("nhweb_column_count", "number", ["number"]),
          column: w("nhweb_column", "string", ["number", "number"]),
          advance: w("nhweb_advance", "number", ["number", "number"]),
          rowCount: w("nhweb_row_count", "number", ["number"]), rows: w("nhweb_rows", "number", ["number"]),
          clearRows: w("nhweb_clear_rows", null, ["number"]), time: w("nhweb_time", "number", ["number"]),
          edit: w("nhweb_edit", "number", ["number", "string", "number"]),
          recordScene: w("nhweb_record_scene", "number", ["number", "string"]),
          sceneWidth: w("nhweb_scene_width", "number", ["number"]),
          sceneSamples: w("nhweb_scene_samples", "number", ["number"]),
          arrowScales: w("nhweb_arrow_scales", "number", ["number", "number"]),
          addModel: w("nhweb_add_model", "number", ["number", "number"]),
          openComparison: w("nhweb_open_comparison", "number", ["number", "string"]) };
    if (live.model) {  // a typed-in model: its archive, registered under its name
      var archive = bytesOf(live.model), at = M._malloc(archive.length);
      M.HEAPU8.set(archive, at);
      var added = E.addModel(at, archive.length);
      M._free(at);
      if (!added) return giveUp(E.error() + "; the recorded run is shown");
    }
    var link = readLink(), t = Number(new URLSearchParams(location.hash.slice(1)).get("t")) || 0;
    if (!open(link.setup, t)) {
      say(E.error() + "; the link's setup was not run");
      link = { setup: freshSetup(), ignored: [] };
      if (!open(link.setup, t)) return giveUp(E.error() + "; the recorded run is shown");
    }
    setup = link.setup;
    show(t);
    page.attach(engine);  // the camera framed on the run computed
    refresh();
    say(link.ignored.length ? "ignored in the link: " + link.ignored.join(", ") : "");
    window.nhLive.ready = true;
    if (fragmentOf("livebench")) {  // bench/web_engine.sh: seconds to compute T s from t = 0
      var seconds = Number(fragmentOf("livebench")), started = performance.now();
      runTo(seconds, Infinity);
      var out = document.createElement("pre");
      out.id = "livebench";
      out.textContent = String((performance.now() - started) / 1000);
      document.body.appendChild(out);
    }
    if (keepRows) {
      if (link.ignored.length || Object.keys(link.setup.parameters).length) {
        // A link's setup: what it gave and what it ignored, without driving the page.
        var out = document.createElement("pre");
        out.id = "livetest";
        out.textContent = JSON.stringify({ setup: setup, message: window.nhLive.message, columns: columns,
                                           rows: run.rows, checks: [] });
        document.body.appendChild(out);
      } else {
        runLiveTest();
      }
    }
  }, function (error) {
    window.nhLive.failed = true;
    say("The page's engine did not start (" + error.message + "); the recorded run is shown.");
  });

  // ---- The live test (#livetest) -----------------------------------------------------------------

  // Opened with #livetest the page drives itself as a student would and writes what it saw
  // into the element #livetest (tests/ui/export/live_page_test.cpp compares the rows with the
  // desktop's runs): the first parameter edited at t = 2 (its field, as typed), run to 4 (or
  // to T with #livetest=T);
  // undone; a refused value; redone; no request of any kind. A lesson's comparison run's rows
  // are reported beside the run's.
  function runLiveTest() {
    var checks = [], report = {};
    function check(name, passed, detail) { checks.push((passed ? "ok   " : "FAIL ") + name + (detail ? " (" + detail + ")" : "")); }
    var p = parameters[0], value = p.value * 1.25 || p.value + 0.5;
    if (!allowed(p, value)) value = p.value * 0.8 || p.value - 0.5;
    page.setPlaying(false);
    window.nhLive.runTo(2);
    var before = run.count;
    window.nhLive.edit(p.name, value);
    check("the edit is taken", setup.edits.length === 1 && window.nhLive.message === "", window.nhLive.message);
    window.nhLive.runTo(Number(fragmentOf("livetest")) || 4);  // #livetest=T: run to T s
    report.edit = { t: setup.edits.length ? setup.edits[0].t : null, name: p.name, value: value };
    report.edited = run.rows.slice();
    if (cmp) report.comparisonEdited = cmp.rows.slice();
    check("the run goes on past the edit", run.count > before, run.count + " samples");
    undo();
    report.undone = run.rows.slice();
    if (cmp) report.comparisonUndone = cmp.rows.slice();
    check("undo leaves no edit", setup.edits.length === 0);
    var kept = JSON.stringify(run.rows);
    window.nhLive.edit(p.name, "abc");
    check("a refused value says the bounds", /allowed/.test(window.nhLive.message), window.nhLive.message);
    check("a refused value keeps the run", JSON.stringify(run.rows) === kept);
    if (p.min !== null) {
      window.nhLive.edit(p.name, p.min - 1);
      check("a value below the bound is refused", /allowed/.test(window.nhLive.message) && JSON.stringify(run.rows) === kept,
            window.nhLive.message);
    }
    redo();
    // The redone run up to the time shown (the undone run's last sample) against the edited
    // run's sample there.
    var last = run.rows[run.rows.length - 1];
    var editedLast = report.edited.filter(function (r) { return r[0] === last[0]; }).pop() || [];
    var apart = last.length === editedLast.length ? Math.max.apply(null, last.map(function (v, i) {
      return Math.abs(v - editedLast[i]) / (1 + Math.abs(editedLast[i]));
    })) : Infinity;
    check("redo brings the edit back", setup.edits.length === 1 && apart <= 1e-12, "at t = " + last[0] + ", " + apart + " apart");
    check("the link holds the time shown", location.hash.indexOf("t=" + Number(page.time().toFixed(3))) >= 0,
          location.hash);
    var requests = performance.getEntriesByType("resource").length;
    check("no network request", window.nhBlocked.length === 0 && requests === 0,
          window.nhBlocked.length + " blocked, " + requests + " loaded");
    report.checks = checks;
    report.columns = columns;
    report.setup = setup;
    report.message = window.nhLive.message;
    var out = document.createElement("pre");
    out.id = "livetest";
    out.textContent = JSON.stringify(report);
    document.body.appendChild(out);
  }

  // For the page's tests: the rows shown (as the engine computed them) and the controls.
  window.nhLive.rows = function () { return run ? run.rows : []; };
  window.nhLive.columns = function () { return columns; };
  window.nhLive.setup = function () { return setup; };
  window.nhLive.edit = function (name, value) {
    var r = rows.filter(function (x) { return x.p.name === name; })[0];
    r.field.value = String(value);
    r.field.dispatchEvent(new Event("change"));
  };
  window.nhLive.undo = undo;
  window.nhLive.redo = redo;
  window.nhLive.runTo = function (t) { runTo(t, Infinity); show(t); };
})();
