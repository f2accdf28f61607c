// The `cutoff tree --html` page: draws the tree of each embedded search and replays the search's
// events (the same ones `cutoff tree --trace` prints) one at a time. Everything drawn comes from
// the JSON in #cutoff-data; this script computes nothing about alpha-beta itself.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('cutoff-data').textContent);
  var nodes = data.nodes;
  var SLOT = 48, LEVEL = 88, PAD_X = 46, PAD_Y = 34, R = 15;

  function esc(s) {
    return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  }
  // Values arrive as exact decimal strings (and +inf/-inf), never as floats.
  function pretty(v) {
    if (v === '+inf') return '+\u221e';
    if (v === '-inf') return '\u2212\u221e';
    return String(v).replace(/^-/, '\u2212');
  }

  // The search's state after its first `step` events.
  function replay(search, step) {
    var st = { visit: {}, alpha: {}, beta: {}, value: {}, bound: {}, cut: {}, pruned: {}, open: {}, count: 0, now: null };
    var stack = [];
    for (var i = 0; i < step; i++) {
      var e = search.events[i];
      if (e.type === 'enter') {
        st.visit[e.node] = ++st.count; st.alpha[e.node] = e.alpha; st.beta[e.node] = e.beta; stack.push(e.node);
      } else if (e.type === 'leaf') {
        st.visit[e.node] = ++st.count; st.value[e.node] = e.value;
      } else if (e.type === 'improve') {
        if (e.side === 'MAX') st.alpha[e.node] = e.new; else st.beta[e.node] = e.new;
      } else if (e.type === 'cutoff') {
        st.cut[e.node] = e;
        e.skipped.forEach(function (c) { markPruned(st, c); });
      } else if (e.type === 'leave') {
        st.value[e.node] = e.value; st.bound[e.node] = e.bound; stack.pop();
      }
    }
    stack.forEach(function (n) { st.open[n] = true; });
    st.now = step > 0 ? search.events[step - 1].node : null;
    return st;
  }

  function markPruned(st, n) {
    st.pruned[n] = true;
    nodes[n].children.forEach(function (c) { markPruned(st, c); });
  }

  // x in slots for every drawn node. A leaf (or a folded node) takes one slot; an inner node
  // at least two, so that the α/β beside it never run into a neighbour.
  function layout(panel) {
    var pos = {};
    function place(n, left) {
      var kids = panel.collapsed[n] ? [] : panel.search.order[n];
      if (kids.length === 0) {
        pos[n] = left;
        return 1;
      }
      var widths = 0;
      kids.forEach(function (c) { widths += place(c, left + widths); });
      var width = Math.max(widths, 2);
      if (width > widths) shift(kids, (width - widths) / 2);
      pos[n] = (pos[kids[0]] + pos[kids[kids.length - 1]]) / 2;
      return width;
      function shift(list, d) {
        list.forEach(function (c) {
          pos[c] += d;
          if (!panel.collapsed[c]) shift(panel.search.order[c], d);
        });
      }
    }
    return { pos: pos, slots: place(0, 0) };
  }

  function px(slot) { return PAD_X + slot * SLOT; }
  function py(n) { return PAD_Y + nodes[n].depth * LEVEL; }

  function state(st, n) {
    if (st.pruned[n]) return 'pruned';
    if (st.visit[n] === undefined) return 'todo';
    return 'seen';
  }

  function drawNode(panel, st, n, x, y) {
    var node = nodes[n], cls = state(st, n);
    if (st.open[n]) cls += ' open';
    if (st.now === n) cls += ' now';
    var title = 'node ' + node.path + (node.leaf !== null ? ' (leaf ' + node.leaf + ')' : ' (' + node.side + ', ' + node.leaves + ' leaves)');
    var s = '<g class="node ' + cls + '" data-node="' + n + '"><title>' + esc(title) + '</title>';
    if (node.leaf !== null) {
      s += '<rect class="n-leaf" x="' + (x - 15) + '" y="' + (y - 11) + '" width="30" height="22" rx="3"/>';
      s += '<text class="val" x="' + x + '" y="' + (y + 4) + '">' + esc(pretty(node.leaf)) + '</text>';
    } else {
      var pts = node.side === 'MAX'
        ? [[x, y - R], [x - R, y + R * 0.75], [x + R, y + R * 0.75]]
        : [[x, y + R], [x - R, y - R * 0.75], [x + R, y - R * 0.75]];
      s += '<polygon class="' + (node.side === 'MAX' ? 'n-max' : 'n-min') + '" points="' + pts.map(function (p) { return p.join(','); }).join(' ') + '"/>';
      if (st.value[n] !== undefined) {
        var mark = st.bound[n] === 'upper' ? '\u2264' : st.bound[n] === 'lower' ? '\u2265' : '';
        s += '<text class="val" x="' + x + '" y="' + (y + (node.side === 'MAX' ? 8 : 1)) + '">' + esc(mark + pretty(st.value[n])) + '</text>';
      }
      if (st.alpha[n] !== undefined) {
        s += '<text class="ab" x="' + (x + R + 4) + '" y="' + (y - 3) + '">\u03b1 ' + esc(pretty(st.alpha[n])) + '</text>';
        s += '<text class="ab" x="' + (x + R + 4) + '" y="' + (y + 9) + '">\u03b2 ' + esc(pretty(st.beta[n])) + '</text>';
      }
      if (panel.collapsed[n]) {
        s += '<polygon class="collapsed-tri" points="' + x + ',' + (y + R + 4) + ' ' + (x - 14) + ',' + (y + R + 26) + ' ' + (x + 14) + ',' + (y + R + 26) + '"/>';
        s += '<text class="collapsed-text" x="' + x + '" y="' + (y + R + 38) + '">' + node.leaves + ' leaves</text>';
      }
    }
    if (st.visit[n] !== undefined) {
      s += '<text class="ord" x="' + (x - R - 2) + '" y="' + (y - R + 4) + '">' + st.visit[n] + '</text>';
    }
    return s + '</g>';
  }

  function drawCut(lay, st, n) {
    var cut = st.cut[n];
    if (!cut || cut.skipped.length === 0) return '';
    var x0 = px(lay.pos[n]), y0 = py(n), s = '';
    cut.skipped.forEach(function (c) {
      if (lay.pos[c] === undefined) return;
      var x1 = px(lay.pos[c]), y1 = py(c);
      var mx = x0 + (x1 - x0) * 0.4, my = y0 + (y1 - y0) * 0.4;
      s += '<line class="cutmark" x1="' + (mx - 7) + '" y1="' + (my - 5) + '" x2="' + (mx + 7) + '" y2="' + (my + 5) + '"/>';
    });
    var first = cut.skipped[0];
    if (lay.pos[first] === undefined) return s;
    var lx = x0 + (px(lay.pos[first]) - x0) * 0.4 + 10, ly = y0 + (py(first) - y0) * 0.4 - 4;
    var at = cut.label.indexOf(' at ');
    return s + '<text class="cutlabel" x="' + lx + '" y="' + ly + '">' + esc(cut.label.slice(0, at)) +
      '<tspan x="' + lx + '" dy="13">' + esc(cut.label.slice(at + 1)) + '</tspan></text>';
  }

  function svgFor(panel, st) {
    var lay = layout(panel), edges = '', body = '', cuts = '', maxDepth = 0;
    function walk(n) {
      var x = px(lay.pos[n]), y = py(n);
      maxDepth = Math.max(maxDepth, nodes[n].depth);
      if (!panel.collapsed[n]) {
        panel.search.order[n].forEach(function (c) {
          var cls = state(st, c);
          edges += '<line class="edge ' + cls + '" x1="' + x + '" y1="' + (y + R * 0.75) + '" x2="' + px(lay.pos[c]) + '" y2="' + (py(c) - (nodes[c].leaf !== null ? 11 : R)) + '"/>';
          walk(c);
        });
        cuts += drawCut(lay, st, n);
      }
      body += drawNode(panel, st, n, x, y);
    }
    walk(0);
    var w = PAD_X * 2 + Math.max(lay.slots - 1, 0) * SLOT + 90, h = PAD_Y * 2 + maxDepth * LEVEL + 6;
    panel.lay = lay;
    return '<svg width="' + w * panel.zoom + '" height="' + h * panel.zoom + '" viewBox="0 0 ' + w + ' ' + h + '" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">' + edges + body + cuts + '</svg>';
  }

  function render(panel) {
    var st = replay(panel.search, panel.step), n = panel.search.events.length;
    panel.el.setAttribute('data-step', panel.step);
    panel.canvas.innerHTML = svgFor(panel, st);
    panel.counter.textContent = 'step ' + panel.step + ' / ' + n;
    panel.text.textContent = panel.step === 0
      ? 'before the search (press \u2192 or \u25b6 to start)'
      : panel.search.events[panel.step - 1].text;
    var items = panel.list.children;
    for (var i = 0; i < items.length; i++) {
      items[i].className = i < panel.step - 1 ? 'done' : i === panel.step - 1 ? 'now' : 'todo';
    }
    follow(panel, st.now === null ? 0 : st.now);
    var cur = items[panel.step - 1];
    if (cur && panel.list.scrollHeight > panel.list.clientHeight) {
      panel.list.scrollTop = cur.offsetTop - panel.list.clientHeight / 2;
    }
  }

  // Scrolls a wide tree so that node `n` (the one the last step happened at) is in view.
  function follow(panel, n) {
    var x = px(panel.lay.pos[n] === undefined ? panel.lay.pos[0] : panel.lay.pos[n]) * panel.zoom;
    var y = py(n) * panel.zoom, c = panel.canvas;
    if (x < c.scrollLeft + 40 || x > c.scrollLeft + c.clientWidth - 120) c.scrollLeft = x - c.clientWidth / 2;
    if (y < c.scrollTop + 20 || y > c.scrollTop + c.clientHeight - 40) c.scrollTop = y - c.clientHeight / 2;
  }

  function zoom(panel, factor) {
    panel.zoom = Math.max(0.2, Math.min(2, panel.zoom * factor));
    render(panel);
  }

  var panels = [], active = 0;

  function go(panel, step) {
    panel.step = Math.max(0, Math.min(panel.search.events.length, step));
    render(panel);
  }

  function activate(i) {
    active = i;
    panels.forEach(function (p, j) { p.el.classList.toggle('active', j === i); });
  }

  function makePanel(search, i) {
    var el = document.createElement('section');
    el.className = 'panel';
    el.id = 'panel-' + search.key;
    el.setAttribute('data-events', search.events.length);
    el.innerHTML =
      '<h2>' + esc(search.title) + '</h2>' +
      '<div class="stats">' + esc(search.stats) + '</div>' +
      '<div class="controls">' +
      '<button data-act="first" title="first step (Home)">\u21e4</button>' +
      '<button data-act="prev" title="previous step (\u2190)">\u25c0</button>' +
      '<button data-act="play" title="play">play</button>' +
      '<button data-act="next" title="next step (\u2192)">\u25b6</button>' +
      '<button data-act="last" title="last step (End)">\u21e5</button>' +
      '<span class="counter"></span>' +
      '<button data-act="collapse" title="collapse or expand the pruned subtrees">collapse pruned</button>' +
      '<button data-act="zoomout" title="zoom out (-)">\u2212</button>' +
      '<button data-act="zoomin" title="zoom in (+)">+</button>' +
      '</div>' +
      '<div class="step-text"></div>' +
      '<div class="canvas"></div>' +
      '<ol class="events"></ol>';
    var panel = {
      search: search, step: search.events.length, collapsed: {}, el: el, timer: null, zoom: 1, lay: null,
      canvas: el.querySelector('.canvas'), counter: el.querySelector('.counter'),
      text: el.querySelector('.step-text'), list: el.querySelector('.events')
    };
    search.events.forEach(function (e, k) {
      var li = document.createElement('li');
      li.textContent = e.text;
      li.addEventListener('click', function () { go(panel, k + 1); });
      panel.list.appendChild(li);
    });
    el.addEventListener('mousedown', function () { activate(i); });
    el.querySelector('.controls').addEventListener('click', function (ev) {
      var act = ev.target.getAttribute && ev.target.getAttribute('data-act');
      if (act === 'first') go(panel, 0);
      else if (act === 'prev') go(panel, panel.step - 1);
      else if (act === 'next') go(panel, panel.step + 1);
      else if (act === 'last') go(panel, search.events.length);
      else if (act === 'play') play(panel, ev.target);
      else if (act === 'collapse') collapsePruned(panel);
      else if (act === 'zoomout') zoom(panel, 1 / 1.25);
      else if (act === 'zoomin') zoom(panel, 1.25);
    });
    panel.canvas.addEventListener('click', function (ev) {
      var g = ev.target.closest && ev.target.closest('[data-node]');
      if (!g) return;
      var n = +g.getAttribute('data-node');
      if (nodes[n].leaf !== null) return;
      if (panel.collapsed[n]) delete panel.collapsed[n]; else panel.collapsed[n] = true;
      render(panel);
    });
    return panel;
  }

  function play(panel, button) {
    if (panel.timer) {
      clearInterval(panel.timer); panel.timer = null; button.textContent = 'play';
      return;
    }
    if (panel.step >= panel.search.events.length) go(panel, 0);
    button.textContent = 'pause';
    panel.timer = setInterval(function () {
      if (panel.step >= panel.search.events.length) {
        clearInterval(panel.timer); panel.timer = null; button.textContent = 'play';
      } else {
        go(panel, panel.step + 1);
      }
    }, 700);
  }

  // Collapses every pruned subtree that is not inside another one, or expands them all again.
  function collapsePruned(panel) {
    var any = Object.keys(panel.collapsed).length > 0;
    panel.collapsed = {};
    if (!any) {
      panel.search.cuts.forEach(function (c) {
        c.skipped.forEach(function (n) { if (nodes[n].leaf === null) panel.collapsed[n] = true; });
      });
    }
    render(panel);
  }

  document.addEventListener('keydown', function (ev) {
    var panel = panels[active];
    if (!panel) return;
    if (ev.key === 'ArrowRight') go(panel, panel.step + 1);
    else if (ev.key === 'ArrowLeft') go(panel, panel.step - 1);
    else if (ev.key === 'Home') go(panel, 0);
    else if (ev.key === 'End') go(panel, panel.search.events.length);
    else if (ev.key === '+' || ev.key === '=') zoom(panel, 1.25);
    else if (ev.key === '-') zoom(panel, 1 / 1.25);
    else return;
    ev.preventDefault();
  });

  var host = document.getElementById('panels');
  data.searches.forEach(function (search, i) {
    var panel = makePanel(search, i);
    panels.push(panel);
    host.appendChild(panel.el);
    render(panel);
  });
  activate(0);
  // Only now are the panels their final width: bring each one's root into view.
  panels.forEach(function (p) { follow(p, 0); });

  // `#demo` in the address: replay the first steps with real key events, for the browser test.
  if (/(^|[#&])demo($|&)/.test(location.hash.slice(1))) {
    var key = function (k) { document.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true })); };
    key('Home');
    key('ArrowRight'); key('ArrowRight'); key('ArrowRight');
    document.body.setAttribute('data-demo', 'done');
  }
})();
