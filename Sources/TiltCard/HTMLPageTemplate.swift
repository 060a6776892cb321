extension HTMLRenderer {
  /// The page, shared by the replay file and the live page; `%%NAME%%` marks
  /// what ``HTMLRenderer`` fills in. One drawing function, `draw(row)`, is fed
  /// either from the embedded rows (replay) or from `/frames` (live).
  static let template = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <title>%%TITLE%%</title>
    <style>
    :root { --w: %%W%%; --h: %%H%%; --bg: #eceef3; --bg2: #dfe2ea; --ink: #1c1e26;
      --muted: #5b6070; --bar: rgba(255,255,255,0.72); --line: rgba(20,22,30,0.12);
      --accent: #4f46e5; }
    @media (prefers-color-scheme: dark) {
      :root { --bg: #17181d; --bg2: #0e0f13; --ink: #e9eaf0; --muted: #9aa0b2;
        --bar: rgba(30,32,40,0.72); --line: rgba(255,255,255,0.12); --accent: #8b85ff; }
    }
    * { box-sizing: border-box; }
    html, body { margin: 0; height: 100%; }
    body { background: radial-gradient(120% 90% at 50% 35%, var(--bg), var(--bg2));
      color: var(--ink); font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif;
      display: flex; flex-direction: column; overflow: hidden; }
    .transparent body { background: transparent; }
    .transparent #controls { display: none; }
    #stage { position: relative; flex: 1; min-height: 0; overflow: hidden; }
    #scene { position: absolute; left: 50%; top: 50%; width: 0; height: 0; }
    #card { position: absolute; left: 0; top: 0; }
    .face { position: absolute; left: calc(var(--w) / -2); top: calc(var(--h) / -2);
      width: var(--w); height: var(--h); clip-path: path("%%SHAPE%%"); color: #fff;
      overflow: hidden; -webkit-font-smoothing: antialiased; }
    .face[hidden] { display: none; }
    #front { background: linear-gradient(135deg, #4f46e5, #7c3aed); }
    #back { background: linear-gradient(135deg, #0d9488, #10b981); }
    .edge { position: absolute; left: 0; top: 0; pointer-events: none; }
    .sheen { position: absolute; left: 50%; top: 50%; width: %%SHEEN%%; height: %%SHEEN%%;
      margin-left: %%SHEENHALF%%; margin-top: %%SHEENHALF%%; pointer-events: none;
      background: radial-gradient(circle, rgba(255,255,255,0.30), rgba(255,255,255,0.08) 28%,
        rgba(255,255,255,0) 50%); mix-blend-mode: screen; }
    .shade { position: absolute; inset: 0; background: #000; opacity: 0; pointer-events: none; }
    .marker { position: absolute; left: calc(var(--h) * 0.1); top: calc(var(--h) * 0.1);
      width: calc(var(--h) * 0.2); height: calc(var(--h) * 0.15);
      border-radius: calc(var(--h) * 0.03);
      background: linear-gradient(135deg, #fde68a, #facc15 45%, #eab308); }
    #front .marker::before, #front .marker::after { content: ""; position: absolute;
      background: rgba(120,80,0,0.45); }
    #front .marker::before { left: 33%; right: 33%; top: 0; bottom: 0; width: auto;
      border-left: 1px solid rgba(120,80,0,0.5); border-right: 1px solid rgba(120,80,0,0.5);
      background: none; }
    #front .marker::after { left: 0; right: 0; top: 48%; height: 1px; }
    .brand { position: absolute; right: calc(var(--h) * 0.1); top: calc(var(--h) * 0.1);
      font-weight: 700; letter-spacing: 0.18em; font-size: calc(var(--h) * 0.065);
      opacity: 0.85; }
    .content { position: absolute; left: calc(var(--h) * 0.1); right: calc(var(--h) * 0.1);
      bottom: calc(var(--h) * 0.11); display: flex; flex-direction: column;
      gap: calc(var(--h) * 0.02); }
    .title { font-weight: 700; font-size: calc(var(--h) * 0.14); line-height: 1.1; }
    .number { font-weight: 700; font-size: calc(var(--h) * 0.11);
      font-family: ui-monospace, "DejaVu Sans Mono", monospace;
      font-variant-numeric: tabular-nums; letter-spacing: 0.04em; }
    .subtitle { font-size: calc(var(--h) * 0.065); opacity: 0.82; }
    .code { position: absolute; right: calc(var(--h) * 0.1); top: calc(var(--h) * 0.1);
      width: calc(var(--h) * 0.36); height: calc(var(--h) * 0.36); padding: calc(var(--h) * 0.025);
      background: #fff; border-radius: calc(var(--h) * 0.035); }
    .code svg { display: block; width: 100%; height: 100%; }
    #controls { display: grid; grid-template-columns: auto auto 0 1fr 38ch; gap: 10px;
      align-items: center; padding: 10px 16px; background: var(--bar);
      border-top: 1px solid var(--line); backdrop-filter: blur(12px); min-height: 56px; }
    #controls button, #controls select { font: inherit; color: var(--ink); min-width: 6.5em;
      padding: 6px 12px; border-radius: 9px; border: 1px solid var(--line);
      background: rgba(127,127,127,0.10); cursor: pointer; }
    #controls button:hover { background: rgba(127,127,127,0.18); }
    #controls :focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
    kbd { font: 11px ui-monospace, monospace; padding: 0 4px; border: 1px solid var(--line);
      border-radius: 4px; margin-left: 6px; color: var(--muted); }
    #track { position: relative; min-width: 120px; }
    #scrub { width: 100%; margin: 0; accent-color: var(--accent); display: block; }
    #marks { position: absolute; left: 8px; right: 8px; top: -7px; height: 6px;
      pointer-events: none; }
    #marks i { position: absolute; top: 0; width: 2px; height: 6px; margin-left: -1px;
      border-radius: 1px; background: var(--accent); }
    #readout { font: 12px/1.3 ui-monospace, "DejaVu Sans Mono", monospace; white-space: pre;
      color: var(--muted); text-align: right; overflow: hidden; }
    .live .replay-only, .replay .live-only { display: none; }
    .live #controls { grid-template-columns: auto auto auto 1fr 30ch; }
    @media (max-width: 560px) { #controls { grid-template-columns: auto auto 0 1fr; }
      #readout { display: none; } }
    @media (prefers-reduced-motion: reduce) { .sheen { display: none; } }
    </style>
    </head>
    <body>
    <main id="stage" aria-label="the card">
      <div id="scene"><div id="card">
        <div id="front" class="face" role="img" aria-label="%%FRONT%%, front">
          <div class="marker"></div><div class="brand">TILT</div>
          <div class="content"><div class="title">%%FRONT%%</div>
            <div class="subtitle">%%FRONTSUB%%</div></div>
          <div class="sheen"></div><div class="shade"></div>%%EDGE%%
        </div>
        <div id="back" class="face" role="img" aria-label="%%BACK%%, back" hidden>
          <div class="marker"></div><div class="code">%%CODE%%</div>
          <div class="content"><div class="number">%%BACK%%</div>
            <div class="subtitle">%%BACKSUB%%</div></div>
          <div class="sheen"></div><div class="shade"></div>%%EDGE%%
        </div>
      </div></div>
    </main>
    <div id="controls">
      <button id="play" class="replay-only" type="button">Play<kbd>space</kbd></button>
      <select id="speed" class="replay-only" aria-label="speed">
        <option value="0.25">0.25×</option><option value="0.5">0.5×</option>
        <option value="1" selected>1×</option><option value="2">2×</option>
        <option value="4">4×</option></select>
      <span class="replay-only"></span>
      <div id="track" class="replay-only"><div id="marks"></div>
        <input id="scrub" type="range" min="0" max="0" step="0.001" value="0" aria-label="time"></div>
      <button id="flip" class="live-only" type="button">Flip<kbd>space</kbd></button>
      <button id="recenter" class="live-only" type="button">Recenter<kbd>r</kbd></button>
      <button id="pause" class="live-only" type="button">Stop<kbd>p</kbd></button>
      <span class="live-only" id="status" role="status"></span>
      <span id="readout" aria-live="off"></span>
    </div>
    <script>
    "use strict";
    // One row a frame: t, back, flipAngle, rotationX, rotationY, shade, lift,
    // sheenX, sheenY, shadowX, shadowY, shadowBlur, stopped, pitch, roll,
    // flipped, then the 16 numbers of card.transform (column-major, as
    // matrix3d takes them).
    const LIVE = %%LIVE%%;
    const F = %%FRAMES%%;
    const W = %%WNUM%%, H = %%HNUM%%;
    const root = document.documentElement;
    const $ = function (id) { return document.getElementById(id); };
    const faces = [$("front"), $("back")];
    const scene = $("scene"), card = $("card"), stage = $("stage"), readout = $("readout");
    const reduce = window.matchMedia("(prefers-reduced-motion: reduce)");
    const params = new URLSearchParams(location.search);
    if (params.get("transparent") === "1") root.classList.add("transparent");
    root.classList.add(LIVE ? "live" : "replay");
    let last = null;

    // Scale the card to the window: it fills about 70 % of the stage.
    function fit() {
      const s = Math.min(stage.clientWidth / (W * 1.45), stage.clientHeight / (H * 1.6));
      scene.style.transform = "scale(" + Math.max(s, 0.1).toFixed(4) + ")";
      document.body.dataset.scale = s.toFixed(4);
    }
    window.addEventListener("resize", fit);
    fit();

    function draw(f) {
      last = f;
      const still = reduce.matches;
      // Under reduce motion the card neither tilts nor turns: the face the
      // card is flipped to shows at once, flat.
      const back = still ? f[15] : f[1];
      const face = faces[back], other = faces[1 - back];
      other.hidden = true;
      face.hidden = false;
      face.style.transform = still ? "none" :
        "scale(" + f[6] + ") matrix3d(" + f.slice(16, 32).join(",") + ")";
      const sx = still ? 0 : f[9], sy = still ? 8 : f[10], blur = still ? 16 : f[11];
      // A tight contact shadow under a wide ambient one, both sliding with the tilt.
      card.style.filter =
        "drop-shadow(" + (0.2 * sx).toFixed(1) + "px " + (0.15 * sy + 1).toFixed(1) + "px " +
        (0.15 * blur).toFixed(1) + "px rgba(0,0,0,0.30)) drop-shadow(" + (1.2 * sx).toFixed(1) +
        "px " + (1.3 * sy).toFixed(1) + "px " + (1.6 * blur).toFixed(1) + "px rgba(0,0,0,0.20))";
      face.querySelector(".shade").style.opacity = still ? "0" : (0.6 * f[5]).toFixed(3);
      face.querySelector(".sheen").style.transform =
        "translate(" + f[7] + "px," + f[8] + "px)";
      readout.textContent = (LIVE ? "" : f[0].toFixed(2).padStart(7) + " s  ") +
        "pitch " + degrees(f[13]) + "  roll " + degrees(f[14]) + (f[12] ? "  stopped" : "         ");
    }
    reduce.addEventListener("change", function () { if (last) draw(last); });

    // One decimal, no "-0.0".
    function degrees(v) { return ((Math.round(v * 10) / 10) || 0).toFixed(1).padStart(6) + "°"; }

    function rowFromJSON(o) {
      const c = o.card;
      return [o.t, c.face === "back" ? 1 : 0, c.flipAngle, c.rotationX, c.rotationY, c.shade,
        c.lift, c.sheen.x, c.sheen.y, c.shadow.x, c.shadow.y, c.shadow.blur,
        o.state === "stopped" ? 1 : 0, o.attitude.pitch, o.attitude.roll, c.flipped ? 1 : 0
      ].concat(c.transform);
    }

    function typing(e) {
      return e.ctrlKey || e.metaKey || e.altKey ||
        (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT"));
    }

    if (LIVE) {
      const status = $("status"), pause = $("pause");
      let viewer = null;
      function control(what) {
        fetch("/control", { method: "POST", body: what }).catch(function () {});
      }
      function report() {
        if (!viewer) return;
        const state = document.visibilityState === "visible" ? "visible" : "hidden";
        fetch("/visibility?viewer=" + encodeURIComponent(viewer),
          { method: "POST", body: state, keepalive: true }).catch(function () {});
      }
      const events = new EventSource("/frames");
      events.addEventListener("viewer", function (e) {
        viewer = JSON.parse(e.data).id;
        status.textContent = "";
        report();
      });
      events.onmessage = function (e) {
        const f = rowFromJSON(JSON.parse(e.data));
        draw(f);
        pause.firstChild.nodeValue = f[12] ? "Start" : "Stop";
      };
      events.onerror = function () { viewer = null; status.textContent = "reconnecting…"; };
      document.addEventListener("visibilitychange", report);
      window.addEventListener("pagehide", function () {
        if (viewer) fetch("/visibility?viewer=" + encodeURIComponent(viewer),
          { method: "POST", body: "hidden", keepalive: true }).catch(function () {});
      });
      $("flip").addEventListener("click", function () { control("flip"); });
      $("recenter").addEventListener("click", function () { control("recenter"); });
      pause.addEventListener("click", function () {
        control(last && last[12] ? "start" : "stop");
      });
      document.addEventListener("keydown", function (e) {
        if (typing(e)) return;
        if (e.key === " " && e.target.tagName !== "BUTTON") { e.preventDefault(); control("flip"); }
        else if (e.key === "r" || e.key === "R") control("recenter");
        else if (e.key === "p" || e.key === "P") control(last && last[12] ? "start" : "stop");
      });
    } else {
      const play = $("play"), scrub = $("scrub"), speed = $("speed"), marks = $("marks");
      const start = F.length ? F[0][0] : 0;
      const end = F.length ? F[F.length - 1][0] : 0;
      scrub.min = start;
      scrub.max = end;
      let playing = false, clockStart = 0, timeStart = 0, current = start;
      // A mark where each flip was asked for.
      for (let i = 1; i < F.length; i++) {
        if (F[i][15] !== F[i - 1][15] && end > start) {
          const m = document.createElement("i");
          m.style.left = (100 * (F[i][0] - start) / (end - start)).toFixed(3) + "%";
          m.title = (F[i][15] ? "flip" : "flip back") + " at " + F[i][0].toFixed(2) + " s";
          marks.appendChild(m);
        }
      }
      function indexAt(t) {
        let lo = 0, hi = F.length - 1;
        if (hi < 0 || t < F[0][0]) return 0;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (F[mid][0] <= t) lo = mid; else hi = mid - 1;
        }
        return lo;
      }
      function show(t) {
        current = Math.min(Math.max(t, start), end);
        scrub.value = current;
        if (!F.length) { readout.textContent = "no frames"; return; }
        draw(F[indexAt(current)]);
      }
      function tick(now) {
        if (!playing) return;
        const t = timeStart + (now - clockStart) / 1000 * parseFloat(speed.value);
        show(t);
        if (t >= end) { setPlaying(false); return; }
        requestAnimationFrame(tick);
      }
      function setPlaying(on) {
        playing = on;
        play.firstChild.nodeValue = on ? "Pause" : "Play";
        if (on) {
          if (current >= end) current = start;
          timeStart = current;
          clockStart = performance.now();
          requestAnimationFrame(tick);
        }
      }
      function fromHash() {
        const m = /(?:^#|&)t=([0-9.eE+-]+)/.exec(location.hash);
        if (m) { setPlaying(false); show(parseFloat(m[1])); return true; }
        return false;
      }
      play.addEventListener("click", function () { setPlaying(!playing); });
      speed.addEventListener("change", function () { if (playing) setPlaying(true); });
      scrub.addEventListener("input", function () {
        setPlaying(false);
        show(parseFloat(scrub.value));
      });
      document.addEventListener("keydown", function (e) {
        if (typing(e)) return;
        if (e.key === " " && e.target.tagName !== "BUTTON") { e.preventDefault(); setPlaying(!playing); }
        else if (e.key === "ArrowLeft") { setPlaying(false); show(current - 0.1); }
        else if (e.key === "ArrowRight") { setPlaying(false); show(current + 0.1); }
      });
      window.addEventListener("hashchange", fromHash);
      if (!fromHash()) { show(start); setPlaying(!reduce.matches); }
    }
    </script>
    </body>
    </html>

    """#
}
