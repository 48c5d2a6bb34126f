/// The status page served at `/`: the camera's picture (annotated, with the crop digital
/// framing shows) and the virtual camera's picture, the head's pose, the centring error over the
/// last minute, the tracked subjects with their speaking, looking and saliency values, the
/// framing mode, home and privacy presets, and a move pad while system tracking is off. Plain
/// HTML and script, no external files; it talks to the same control API (with `?token=` when
/// the page was opened with one). Pictures are fetched one snapshot at a time, each once the
/// last has shown, so a slow link gets fewer frames, never a backlog.
enum StatusPage {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>OpenDock</title>
        <style>
          body { font: 14px system-ui, sans-serif; margin: 1em; background: #111; color: #eee; }
          main { display: flex; gap: 1em; flex-wrap: wrap; }
          #preview { max-width: 100%; width: 720px; background: #000; }
          #output { width: 320px; background: #000; display: block; margin-top: 0.5em; }
          #plot { background: #000; display: block; }
          #pad button { width: 3em; }
          table { border-collapse: collapse; }
          td, th { padding: 2px 8px; border-bottom: 1px solid #333; text-align: right; }
          th:first-child, td:first-child { text-align: left; }
          .speaking { color: #4c4; font-weight: bold; }
          .error { color: #f66; }
          fieldset { border: 1px solid #333; margin-bottom: 1em; }
        </style>
        </head>
        <body>
        <h1>OpenDock <span id="accessory">…</span></h1>
        <p id="connection">connecting…</p>
        <p id="state"></p>
        <main>
          <section>
            <img id="preview" alt="the camera's picture">
            <img id="output" alt="what the virtual camera shows">
          </section>
          <section>
            <fieldset>
              <legend>Tracking</legend>
              <label><input type="checkbox" id="system-tracking"> system tracking</label><br>
              <label>framing <select id="framing-mode">
                <option>automatic</option><option>center</option><option>left</option><option>right</option>
              </select></label>
              <button id="automatic-selection">automatic subject</button>
              <button id="home">home</button>
              <button id="privacy">privacy</button>
              <p id="message"></p>
            </fieldset>
            <fieldset id="pad" hidden>
              <legend>Move (system tracking off)</legend>
              <button data-yaw="-5">◀</button><button data-pitch="-5">▲</button><button data-pitch="5">▼</button><button data-yaw="5">▶</button>
            </fieldset>
            <p id="pose"></p>
            <svg id="plot" width="240" height="60" viewBox="0 0 60 60" preserveAspectRatio="none"><polyline id="errors" fill="none" stroke="#4c4" stroke-width="1" vector-effect="non-scaling-stroke" points=""/></svg>
            <p id="plot-label">centring error, last minute (top = 10°)</p>
            <table id="subjects">
              <thead><tr><th>subject</th><th>kind</th><th>saliency</th><th>speaking</th><th>looking</th></tr></thead>
              <tbody></tbody>
            </table>
            <p id="figures"></p>
          </section>
        </main>
        <script>
        const token = new URLSearchParams(location.search).get("token");
        const url = (path, query = {}) => {
          const all = new URLSearchParams(query);
          if (token) all.set("token", token);
          const text = all.toString();
          return text ? path + "?" + text : path;
        };
        const $ = (id) => document.getElementById(id);
        const percent = (v) => v == null ? "–" : Math.round(v * 100) + " %";

        async function post(path, body) {
          const reply = await fetch(url(path), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
          const answer = await reply.json();
          $("message").textContent = reply.ok ? "" : answer.error;
          $("message").className = reply.ok ? "" : "error";
          refresh();
        }

        function showSubjects(subjects, locked) {
          const rows = subjects.map((s) => {
            const tr = document.createElement("tr");
            tr.className = "subject" + ((s.speakingConfidence || 0) >= 0.7 ? " speaking" : "");
            tr.dataset.id = s.id;
            for (const value of [s.id.slice(0, 8) + (locked.includes(s.id) ? " (locked)" : ""), s.kind,
                                 s.saliencyRank ?? "–", percent(s.speakingConfidence), percent(s.lookingAtCameraConfidence)]) {
              const td = document.createElement("td");
              td.textContent = value;
              tr.appendChild(td);
            }
            tr.onclick = () => post("/v1/select", { ids: [s.id] });
            return tr;
          });
          $("subjects").tBodies[0].replaceChildren(...rows);
        }

        const degrees = (radians) => (radians * 180 / Math.PI).toFixed(1) + "°";
        const errors = [];
        function showMotion(status) {
          const p = status.motion.positions;
          const b = status.battery;
          $("pose").textContent = "head yaw " + degrees(p.yaw) + ", pitch " + degrees(p.pitch)
            + (status.crop ? ", crop " + Math.round(status.crop.width * 100) + " % of the frame" : "")
            + (b ? ", battery " + Math.round(b.level * 100) + " % (" + b.volts.toFixed(2) + " V" + (b.low ? ", low" : "") + ")" : "");
          const e = status.centeringErrorDeg;
          errors.push(e ? Math.min(Math.hypot(e.yaw, e.pitch), 10) : null);
          if (errors.length > 60) errors.shift();
          $("errors").setAttribute("points", errors.map((v, i) => v == null ? "" : i + "," + (60 - v * 6)).join(" "));
          $("pad").hidden = status.systemTracking;
        }

        let locked = [];
        function show(status) {
            $("accessory").textContent = status.accessory.name;
            $("connection").textContent = "connected: " + (status.session.source || "");
            $("system-tracking").checked = status.systemTracking;
            $("framing-mode").value = status.framingMode;
            $("state").textContent = "system tracking " + (status.systemTracking ? "on" : "off") + ", framing " + status.framingMode
              + ", " + status.subjects.length + " subject" + (status.subjects.length == 1 ? "" : "s");
            locked = status.locked;
            showSubjects(status.subjects, locked);
            $("figures").textContent = status.figures.frames + " frames, " + status.figures.fps.toFixed(1) + " fps, "
              + status.figures.trackCalls + " track calls";
            showMotion(status);
        }
        async function refresh() {
          try {
            const reply = await fetch(url("/v1/status"));
            const status = await reply.json();
            if (!reply.ok) throw status.error;
            show(status);
          } catch (e) {
            $("connection").textContent = "not connected: " + e;
          }
        }
        // The first state is fetched before the page finishes loading, so it is there when shown.
        function firstState() {
          const request = new XMLHttpRequest();
          try {
            request.open("GET", url("/v1/status"), false);
            request.send();
            const status = JSON.parse(request.responseText);
            if (request.status != 200) throw status.error;
            show(status);
          } catch (e) {
            $("connection").textContent = "not connected: " + e;
          }
        }

        $("system-tracking").onchange = (e) => post("/v1/system-tracking", { enabled: e.target.checked });
        $("framing-mode").onchange = (e) => post("/v1/framing", { mode: e.target.value });
        $("automatic-selection").onclick = () => post("/v1/select", { ids: [] });
        $("home").onclick = () => post("/v1/preset", { name: "home" });
        $("privacy").onclick = () => post("/v1/preset", { name: "privacy" });
        const events = new EventSource(url("/v1/events/tracking"));
        events.addEventListener("tracking", (e) => showSubjects(JSON.parse(e.data).subjects, locked));
        firstState();
        setInterval(refresh, 1000);
        for (const button of $("pad").querySelectorAll("button")) {
          button.onclick = () => post("/v1/orientation", {
            yaw: (button.dataset.yaw || 0) * Math.PI / 180, pitch: (button.dataset.pitch || 0) * Math.PI / 180,
            roll: 0, duration: 0.5, relative: true });
        }
        // Each picture asks for the next snapshot once it has shown (or a second after a failure).
        function follow(image, view) {
          const next = (wait) => setTimeout(() => { image.src = url("/v1/snapshot.jpg", { view: view, n: Date.now() }); }, wait);
          image.onload = () => next(100);
          image.onerror = () => next(1000);
          next(0);
        }
        follow($("preview"), "full");
        follow($("output"), "output");
        </script>
        </body>
        </html>
        """#
}
