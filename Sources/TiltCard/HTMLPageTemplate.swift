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
    #controls { display: flex; flex-wrap: wrap; gap: 8px 10px; align-items: center;
      padding: 10px 16px; background: var(--bar);
      border-top: 1px solid var(--line); backdrop-filter: blur(12px); min-height: 56px; }
    #controls button, #controls select { font: inherit; color: var(--ink); min-width: 6.5em;
      padding: 6px 12px; border-radius: 9px; border: 1px solid var(--line);
      background: rgba(127,127,127,0.10); cursor: pointer; }
    #controls button:hover { background: rgba(127,127,127,0.18); }
    #controls :focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
    kbd { font: 11px ui-monospace, monospace; padding: 0 4px; border: 1px solid var(--line);
      border-radius: 4px; margin-left: 6px; color: var(--muted); }
    #track { position: relative; flex: 1 1 160px; min-width: 120px; }
    #scrub { width: 100%; margin: 0; accent-color: var(--accent); display: block; }
    #marks { position: absolute; left: 8px; right: 8px; top: -7px; height: 6px;
      pointer-events: none; }
    #marks i { position: absolute; top: 0; width: 2px; height: 6px; margin-left: -1px;
      border-radius: 1px; background: var(--accent); }
    #readout { font: 12px/1.3 ui-monospace, "DejaVu Sans Mono", monospace; white-space: pre;
      color: var(--muted); text-align: right; margin-left: auto; }
    #status { color: var(--muted); }
    #source { position: absolute; left: 16px; top: 12px; right: 16px; color: var(--muted);
      font-size: 13px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    .transparent #source { display: none; }
    .live .replay-only { display: none; }
    #controls button:disabled { opacity: 0.45; cursor: default; }
    /* A phone: no keyboard hints, narrower buttons, the readout on a line of its own. */
    @media (max-width: 560px) { #controls { padding: 8px 10px; gap: 6px 6px; }
      #controls button, #controls select { min-width: 0; padding: 6px 9px; }
      kbd { display: none; }
      #readout { flex: 1 0 100%; text-align: left; margin-left: 0; } }
    @media (prefers-reduced-motion: reduce) { .sheen { display: none; } }
    </style>
    </head>
    <body>
    <main id="stage" aria-label="the card: %%TITLE%%">
      <div id="source">%%TITLE%%</div>
      <div id="scene"><div id="card">
        <div id="front" class="face" role="img" aria-label="%%FRONT%%, front">
          <div class="marker"></div><div class="brand">TILT</div>
          <div class="content"><div class="title">%%FRONT%%</div>
            <div class="subtitle">%%FRONTSUB%%</div></div>
          <div class="sheen"></div><div class="shade"></div>%%EDGE%%
        </div>
        <div id="back" class="face" role="img" aria-label="%%BACK%%, back" hidden>
          <div class="code">%%CODE%%</div>
          <div class="content"><div class="number">%%BACK%%</div>
            <div class="subtitle">%%BACKSUB%%</div></div>
          <div class="sheen"></div><div class="shade"></div>%%EDGE%%
        </div>
      </div></div>
    </main>
    <div id="controls">
      <button id="play" class="replay-only" type="button">Play<kbd>k</kbd></button>
      <select id="speed" class="replay-only" aria-label="speed">
        <option value="0.25">0.25×</option><option value="0.5">0.5×</option>
        <option value="1" selected>1×</option><option value="2">2×</option>
        <option value="4">4×</option></select>
      <div id="track" class="replay-only"><div id="marks"></div>
        <input id="scrub" type="range" min="0" max="0" step="0.001" value="0" aria-label="time"></div>
      <button id="flip" type="button">Flip<kbd>space</kbd></button>
      <button id="recenter" type="button">Recenter<kbd>r</kbd></button>
      <button id="pause" type="button">Stop<kbd>p</kbd></button>
      <span id="status" role="status"></span>
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
    // The card's configuration, for a view the page makes itself (a flip or a
    // recenter asked for on the replay page): gain (° per radian), max tilt
    // (°), perspective distance (points, 0 for none), tilt off.
    const GAIN = %%GAIN%%, MAXTILT = %%MAXTILT%%, DIST = %%DIST%%, FLAT = %%FLAT%%;
    const root = document.documentElement;
    const $ = function (id) { return document.getElementById(id); };
    const faces = [$("front"), $("back")];
    const scene = $("scene"), card = $("card"), stage = $("stage"), readout = $("readout");
    const status = $("status"), pause = $("pause");
    const reduce = window.matchMedia("(prefers-reduced-motion: reduce)");
    const params = new URLSearchParams(location.search);
    if (params.get("transparent") === "1") root.classList.add("transparent");
    root.classList.add(LIVE ? "live" : "replay");
    let last = null, drawn = 0, quit = false;

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
      readout.textContent = (LIVE ? "" : f[0].toFixed(2).padStart(6) + " s  ") +
        "pitch " + degrees(f[13]) + "  roll " + degrees(f[14]) + (f[12] ? "  stopped" : "         ");
      pause.firstChild.nodeValue = f[12] ? "Start" : "Stop";
      // Which frame is on screen, once painted (tests wait for it, not for a time).
      const n = ++drawn;
      requestAnimationFrame(function () {
        requestAnimationFrame(function () {
          if (n !== drawn) return;
          document.body.dataset.drawn = f[0].toFixed(6);
          document.body.dataset.face = back ? "back" : "front";
        });
      });
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

    // The row of a card turned to rotationX `rx`, rotationY `ry` and flip
    // angle `fa` (degrees), the other fields from row `f`: the visible face,
    // its transform and cues as TiltCard's CardGeometry and CardExtras make
    // them (contract §4.2), so a view made here reads as one the pipeline made.
    function turned(f, rx, ry, fa, flipped) {
      function columns(angle) { // rotateX(-rx) · rotateY(ry + angle)
        const a = -rx * Math.PI / 180, b = (ry + angle) * Math.PI / 180;
        const ca = Math.cos(a), sa = Math.sin(a), cb = Math.cos(b), sb = Math.sin(b);
        return [[cb, sa * sb, -ca * sb], [0, ca, sa], [sb, -sa * cb, ca * cb]];
      }
      let c = columns(fa);
      if (Math.abs(c[2][2]) < 1e-3) c = columns(fa + 0.25);
      const back = c[2][2] < 0 ? 1 : 0;
      if (back) { c[0] = c[0].map(function (v) { return -v; }); c[2] = c[2].map(function (v) { return -v; }); }
      const p = DIST > 0 ? -1 / DIST : 0, n = c[2];
      const lift = 1 + 0.06 * Math.abs(Math.sin(fa * Math.PI / 180)), depth = 8 + 60 * (lift - 1);
      return [f[0], back, fa, rx, ry, Math.min(Math.max(1 - n[2], 0), 1), lift,
        -n[0] * W / 2, -n[1] * H / 2, n[0] * depth, depth + n[1] * depth, 2 * depth,
        f[12], f[13], f[14], flipped ? 1 : 0,
        c[0][0], c[0][1], c[0][2], p * c[0][2], c[1][0], c[1][1], c[1][2], p * c[1][2],
        c[2][0], c[2][1], c[2][2], p * c[2][2], 0, 0, 0, 1];
    }

    function typing(e) {
      return e.ctrlKey || e.metaKey || e.altKey ||
        (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT"));
    }

    // The keys, the same on every surface (contract §3.3): space flips, p stops and
    // starts updates, r recenters, q quits; the replay page's play/pause is k.
    function keys(actions) {
      document.addEventListener("keydown", function (e) {
        if (typing(e) || quit) return;
        const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
        if (k === " " && e.target.tagName === "BUTTON") return;
        const action = actions[k];
        if (!action) return;
        e.preventDefault();
        action();
      });
    }

    // q: this page is done; its buttons and keys stop.
    function leave(text) {
      quit = true;
      status.textContent = text;
      document.body.dataset.quit = "1";
      document.querySelectorAll("#controls button, #controls select, #controls input")
        .forEach(function (b) { b.disabled = true; });
    }

    if (LIVE) {
      let viewer = null, ended = false, events = null;
      function control(what) {
        if (quit) return;
        fetch("/control", { method: "POST", body: what }).catch(function () {});
      }
      function report() {
        if (!viewer) return;
        const state = document.visibilityState === "visible" ? "visible" : "hidden";
        fetch("/visibility?viewer=" + encodeURIComponent(viewer),
          { method: "POST", body: state, keepalive: true }).catch(function () {});
      }
      function hidden() {
        if (viewer) fetch("/visibility?viewer=" + encodeURIComponent(viewer),
          { method: "POST", body: "hidden", keepalive: true }).catch(function () {});
      }
      events = new EventSource("/frames");
      events.addEventListener("viewer", function (e) {
        viewer = JSON.parse(e.data).id;
        if (!ended) status.textContent = "";
        report();
      });
      // A replay reached its end: the last frame stays, and so does the page.
      events.addEventListener("end", function (e) {
        ended = true;
        const t = JSON.parse(e.data).t;
        status.textContent = "ended at " + t.toFixed(2) + " s";
        document.body.dataset.ended = t.toFixed(6);
      });
      events.onmessage = function (e) { draw(rowFromJSON(JSON.parse(e.data))); };
      events.onerror = function () {
        viewer = null;
        if (ended || quit) {
          // The server ended on purpose: nothing to reconnect to.
          events.close();
          if (ended) status.textContent += " · the server stopped";
        } else {
          status.textContent = "reconnecting…";
        }
      };
      document.addEventListener("visibilitychange", report);
      window.addEventListener("pagehide", hidden);
      const stopOrStart = function () { control(last && last[12] ? "start" : "stop"); };
      $("flip").addEventListener("click", function () { control("flip"); });
      $("recenter").addEventListener("click", function () { control("recenter"); });
      pause.addEventListener("click", stopOrStart);
      keys({
        " ": function () { control("flip"); },
        "r": function () { control("recenter"); },
        "p": stopOrStart,
        "q": function () {
          // This viewer leaves: with nobody else watching, updates stop.
          hidden();
          events.close();
          leave("quit · reload to watch again");
          window.close();
        },
      });
    } else {
      const play = $("play"), scrub = $("scrub"), speed = $("speed"), marks = $("marks");
      const start = F.length ? F[0][0] : 0;
      const end = F.length ? F[F.length - 1][0] : 0;
      scrub.min = start;
      scrub.max = end;
      let playing = false, clockStart = 0, timeStart = 0, current = start;
      // What the viewer asked for on top of the recording: a flip (its
      // angle turning from `from` to `to` from time `flipAt`, on the page's
      // clock), a reference (pitch and roll, degrees) from a recenter, and
      // stopped updates (the recording waits, as in the terminal).
      let flip = { from: 0, to: 0, at: 0 }, reference = null, stopped = false;
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
      // The flip the viewer added, in degrees, `now` ms on the page's clock:
      // an ease over 0.7 s (the card's flip takes about as long), at once
      // under reduce motion.
      function extraFlip(now) {
        const s = reduce.matches ? 1 : Math.min(Math.max((now - flip.at) / 700, 0), 1);
        return flip.from + (flip.to - flip.from) * s * s * (3 - 2 * s);
      }
      function flipping(now) { return extraFlip(now) !== flip.to; }
      function tilt(degreesOfAttitude, recorded) {
        if (FLAT) return 0;
        const v = GAIN * degreesOfAttitude * Math.PI / 180;
        return isFinite(v) ? Math.min(Math.max(v, -MAXTILT), MAXTILT) : recorded;
      }
      function withViewer(f, now) {
        const extra = extraFlip(now);
        if (extra === 0 && !reference) return f;
        const rx = reference ? tilt(f[13] - reference[0], f[3]) : f[3];
        const ry = reference ? tilt(f[14] - reference[1], f[4]) : f[4];
        const g = turned(f, rx, ry, f[2] + extra, (f[15] === 1) !== (flip.to === 180));
        if (reference) { g[13] = f[13] - reference[0]; g[14] = f[14] - reference[1]; }
        return g;
      }
      function show(t, now) {
        current = Math.min(Math.max(t, start), end);
        scrub.value = current;
        if (!F.length) { readout.textContent = "no frames"; return; }
        const f = F[indexAt(current)].slice();
        if (stopped) f[12] = 1;
        draw(withViewer(f, now === undefined ? performance.now() : now));
      }
      function tick(now) {
        if (playing) {
          const t = timeStart + (now - clockStart) / 1000 * parseFloat(speed.value);
          show(t, now);
          if (t >= end) setPlaying(false);
        } else {
          show(current, now);
        }
        if (playing || flipping(now)) requestAnimationFrame(tick);
      }
      function setPlaying(on) {
        playing = on;
        play.firstChild.nodeValue = on ? "Pause" : "Play";
        if (on) {
          stopped = false;
          if (current >= end) current = start;
          timeStart = current;
          clockStart = performance.now();
          requestAnimationFrame(tick);
        }
      }
      // p: stopped, the recording waits where it is; started, it goes on from there.
      function stopOrStart() {
        if (stopped) { stopped = false; setPlaying(true); return; }
        stopped = true;
        setPlaying(false);
        show(current);
      }
      function flipCard() {
        const now = performance.now();
        flip = { from: extraFlip(now), to: flip.to === 180 ? 0 : 180, at: now };
        if (stopped) { stopped = false; setPlaying(true); }  // as a flip restarts updates
        requestAnimationFrame(tick);
      }
      function recenter() {
        if (!F.length) return;
        const f = F[indexAt(current)];
        reference = [f[13], f[14]];
        if (stopped) { stopped = false; setPlaying(true); }
        show(current);
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
      $("flip").addEventListener("click", flipCard);
      $("recenter").addEventListener("click", recenter);
      pause.addEventListener("click", stopOrStart);
      keys({
        " ": flipCard,
        "r": recenter,
        "p": stopOrStart,
        "k": function () { setPlaying(!playing); },
        "q": function () {
          setPlaying(false);
          leave("quit · reload to play again");
          window.close();
        },
        "ArrowLeft": function () { setPlaying(false); show(current - 0.1); },
        "ArrowRight": function () { setPlaying(false); show(current + 0.1); },
      });
      window.addEventListener("hashchange", fromHash);
      if (!fromHash()) { show(start); setPlaying(!reduce.matches); }
    }
    </script>
    </body>
    </html>

    """#
}
