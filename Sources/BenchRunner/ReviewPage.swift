/// The review page `dockctl review` serves: the recording picture by picture with the proposed
/// boxes drawn over it, a timeline of who is seen and who speaks, and the edits (merge, split,
/// hide, drop, speech, checked, undo) sent to the server one at a time. It works out nothing
/// itself: every box and span it draws is the server's. `?at=PICTURE&in=&out=&person=` opens it
/// at a picture, with a selection and a person chosen.
enum ReviewPage {
    static let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>OpenDock review</title>
        <style>
        body{font:14px/1.4 system-ui,sans-serif;margin:16px;color:#222;background:#fafafa}
        header{display:flex;gap:10px;align-items:center;flex-wrap:wrap}h1{font-size:20px;margin:0 8px 0 0}
        h2{font-size:15px;margin:14px 0 6px}
        #badge{padding:2px 8px;border-radius:4px;background:#dff3e4}#badge.proposed{background:#fff4d6}
        main{display:flex;gap:18px;align-items:flex-start;margin-top:8px}
        #view{position:relative;width:720px}#picture{display:block;width:720px;background:#000}
        #boxes{position:absolute;left:0;top:0}
        .controls{display:flex;gap:6px;align-items:center;margin:8px 0;flex-wrap:wrap}#slider{width:300px}
        #timeline{display:block;border:1px solid #ccc;background:#fff;cursor:pointer}
        aside{width:330px}.person{display:flex;gap:8px;align-items:center;padding:3px 6px;border-radius:4px;
        cursor:pointer}.person.chosen{background:#e3ecff}.swatch{width:14px;height:14px;border-radius:3px}
        .person small{color:#666}.actions{display:grid;grid-template-columns:1fr 1fr;gap:6px}
        button{font:inherit;padding:3px 8px}#message{min-height:20px;color:#333}#message.error{color:#b3261e}
        .help{color:#555;font-size:13px}
        </style></head>
        <body>
        <header><h1>Review <span id="scene"></span></h1><span id="badge"></span>
        <button id="undo">Undo</button><button id="checked">Mark checked</button><button id="finish">Finish</button>
        </header>
        <p id="message">Loading…</p>
        <main>
        <section>
        <div id="view"><img id="picture" alt="the recording"><canvas id="boxes"></canvas></div>
        <div class="controls"><button id="back">◀</button><input id="slider" type="range" min="0" value="0">
        <button id="forward">▶</button><span id="where"></span></div>
        <div class="controls"><button id="markIn">Mark in</button><button id="markOut">Mark out</button>
        <span id="selection">no selection</span></div>
        <canvas id="timeline" width="720" height="60"></canvas>
        </section>
        <aside>
        <h2>People</h2><div id="people"></div>
        <h2>Person <span id="chosen">—</span></h2>
        <div class="actions">
        <button data-op="split" title="from this picture on, someone new">Split here</button>
        <button data-op="drop" title="nobody: every box and turn goes">Drop</button>
        <button data-op="hide" title="not there over the selection">Hide in selection</button>
        <span></span>
        <button data-op="speaks">Speaks in selection</button><button data-op="silent">Silent in selection</button>
        <select id="target"></select><button data-op="merge">Merge into</button>
        </div>
        <p class="help">Each edit is saved to the scene at once; Undo takes the last one back. ← → step,
        I and O mark the selection. Click a box or a timeline row to choose a person.</p>
        </aside>
        </main>
        <script>
        const colours = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#0fa3b1', '#f032e6', '#8a9a00'];
        const colour = id => colours[((id - 1) % colours.length + colours.length) % colours.length];
        const $ = id => document.getElementById(id);
        const query = new URLSearchParams(location.search);
        const number = key => query.has(key) ? Number(query.get(key)) : null;
        let state = null, index = number('at') || 0, chosen = number('person');
        let markIn = number('in'), markOut = number('out');

        function say(text, error) { $('message').textContent = text; $('message').className = error ? 'error' : ''; }
        function frame(i) { return i * state.step; }
        function seconds(f) { return (f / state.frameRate).toFixed(2); }
        function selection() {
          if (markIn === null || markOut === null) return null;
          const first = frame(Math.min(markIn, markOut));
          const last = Math.min(frame(Math.max(markIn, markOut)) + state.step - 1, state.frameCount - 1);
          return {first, last};
        }

        async function send(body) {
          const answer = await fetch('edit', {method: 'POST', body: JSON.stringify(body)});
          const json = await answer.json();
          if (!answer.ok) { say(json.error, true); return; }
          show(json);
          say('saved: ' + body.op + (body.person ? ' person ' + body.person : ''));
        }

        function show(s) {
          state = s;
          if (!state.people.some(p => p.id === chosen)) chosen = state.people.length ? state.people[0].id : null;
          index = Math.max(0, Math.min(index, state.pictures - 1));
          render();
        }

        function render() {
          $('scene').textContent = state.scene;
          $('badge').textContent = state.proposed ? 'proposed: not checked' : 'checked';
          $('badge').className = state.proposed ? 'proposed' : '';
          $('checked').textContent = state.proposed ? 'Mark checked' : 'Mark proposed again';
          $('undo').disabled = !state.canUndo;
          $('slider').max = state.pictures - 1;
          $('slider').value = index;
          const f = frame(index);
          $('where').textContent = 'frame ' + f + ' of ' + state.frameCount + ' · ' + seconds(f) + ' s';
          const range = selection();
          $('selection').textContent = range
            ? 'selection: frames ' + range.first + '–' + range.last + ' (' + seconds(range.first) + '–'
              + seconds(range.last + 1) + ' s)'
            : 'no selection';
          const src = 'picture/' + index + '.jpg';
          if ($('picture').getAttribute('src') !== src) $('picture').setAttribute('src', src);
          else drawBoxes();
          listPeople();
          drawTimeline();
        }

        function drawBoxes() {
          const picture = $('picture'), canvas = $('boxes');
          canvas.width = picture.clientWidth;
          canvas.height = picture.clientHeight;
          const scale = canvas.width / state.width, g = canvas.getContext('2d');
          g.font = 'bold 14px system-ui';
          for (const [id, x, y, w, h] of state.boxes[index] || []) {
            g.strokeStyle = g.fillStyle = colour(id);
            g.lineWidth = id === chosen ? 5 : 3;
            g.strokeRect(x * scale, y * scale, w * scale, h * scale);
            g.fillRect(x * scale, y * scale - 18, 22, 18);
            g.fillStyle = '#fff';
            g.fillText(String(id), x * scale + 5, y * scale - 4);
          }
        }

        function listPeople() {
          const list = $('people');
          list.innerHTML = '';
          for (const p of state.people) {
            const talk = state.speech.filter(t => t.id === p.id).reduce((sum, t) => sum + t.to_s - t.from_s, 0);
            const row = document.createElement('div');
            row.className = 'person' + (p.id === chosen ? ' chosen' : '');
            row.dataset.id = p.id;
            row.innerHTML = '<span class="swatch" style="background:' + colour(p.id) + '"></span><b>person '
              + p.id + '</b><small>seen ' + seconds(p.seen) + ' s, speaks ' + talk.toFixed(2) + ' s'
              + (state.primary === p.id ? ', primary' : '') + '</small>';
            row.onclick = () => { chosen = p.id; render(); };
            list.appendChild(row);
          }
          $('chosen').textContent = chosen === null ? '—' : chosen;
          $('target').innerHTML = state.people.filter(p => p.id !== chosen)
            .map(p => '<option value="' + p.id + '">person ' + p.id + '</option>').join('');
        }

        const margin = 30, rowHeight = 20;
        function drawTimeline() {
          const canvas = $('timeline');
          canvas.height = Math.max(1, state.people.length) * rowHeight + 16;
          const g = canvas.getContext('2d'), width = canvas.width - margin;
          const x = f => margin + f / state.frameCount * width;
          g.clearRect(0, 0, canvas.width, canvas.height);
          const range = selection();
          if (range) { g.fillStyle = '#dde3ee'; g.fillRect(x(range.first), 0, x(range.last + 1) - x(range.first), canvas.height); }
          state.people.forEach((p, row) => {
            const top = row * rowHeight + 2;
            g.fillStyle = '#333';
            g.font = (p.id === chosen ? 'bold ' : '') + '12px system-ui';
            g.fillText(String(p.id), 8, top + 13);
            g.globalAlpha = 0.35;
            g.fillStyle = colour(p.id);
            for (const [a, b] of p.runs) g.fillRect(x(a), top, x(b + 1) - x(a), rowHeight - 4);
            g.globalAlpha = 1;
            for (const t of state.speech.filter(t => t.id === p.id)) {
              const a = t.from_s * state.frameRate, b = t.to_s * state.frameRate;
              g.fillRect(x(a), top + 5, Math.max(1, x(b) - x(a)), rowHeight - 14);
            }
          });
          g.fillStyle = '#000';
          g.fillRect(x(frame(index)) - 1, 0, 2, canvas.height);
        }

        function act(op) {
          if (chosen === null) return say('choose a person first', true);
          const range = selection();
          const needsRange = ['hide', 'speaks', 'silent'].includes(op);
          if (needsRange && !range) return say('mark in and out first: the edit applies to the selection', true);
          if (op === 'split') send({op, person: chosen, frame: frame(index)});
          if (op === 'drop') send({op, person: chosen});
          if (op === 'hide') send({op, person: chosen, first: range.first, last: range.last});
          if (op === 'merge') send({op, person: chosen, into: Number($('target').value)});
          if (op === 'speaks' || op === 'silent') {
            send({op: 'speech', person: chosen, from_s: range.first / state.frameRate,
              to_s: (range.last + 1) / state.frameRate, speaking: op === 'speaks'});
          }
        }

        function go(i) { index = Math.max(0, Math.min(i, state.pictures - 1)); render(); }
        for (const button of document.querySelectorAll('[data-op]')) button.onclick = () => act(button.dataset.op);
        $('picture').onload = drawBoxes;
        $('slider').oninput = () => go(Number($('slider').value));
        $('back').onclick = () => go(index - 1);
        $('forward').onclick = () => go(index + 1);
        $('markIn').onclick = () => { markIn = index; if (markOut === null) markOut = index; render(); };
        $('markOut').onclick = () => { markOut = index; if (markIn === null) markIn = index; render(); };
        $('undo').onclick = () => send({op: 'undo'});
        $('checked').onclick = () => send({op: 'checked', value: state.proposed});
        $('finish').onclick = async () => {
          await fetch('finish', {method: 'POST'});
          say('finished: the scene is saved, and this page can be closed');
        };
        $('boxes').onclick = event => {
          const scale = $('boxes').width / state.width;
          const hit = (state.boxes[index] || []).find(([id, x, y, w, h]) =>
            event.offsetX >= x * scale && event.offsetX <= (x + w) * scale
            && event.offsetY >= y * scale && event.offsetY <= (y + h) * scale);
          if (hit) { chosen = hit[0]; render(); }
        };
        $('timeline').onclick = event => {
          const width = $('timeline').width - margin;
          const f = (event.offsetX - margin) / width * state.frameCount;
          const row = Math.floor((event.offsetY - 2) / rowHeight);
          if (state.people[row]) chosen = state.people[row].id;
          if (f >= 0) index = Math.round(f / state.step);
          go(index);
        };
        document.onkeydown = event => {
          if (event.key === 'ArrowLeft') go(index - 1);
          if (event.key === 'ArrowRight') go(index + 1);
          if (event.key === 'i') $('markIn').onclick();
          if (event.key === 'o') $('markOut').onclick();
        };
        fetch('state').then(r => r.json()).then(s => { show(s); say('each edit is saved to ' + s.scene + ' at once'); })
          .catch(() => say('cannot reach dockctl review: is it still running?', true));
        </script>
        </body></html>

        """
}
