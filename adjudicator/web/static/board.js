// Sortie's plotting board: try plots as you type. The board works without this script (the Try
// button sends the form back and the page comes back with every forecast); with it, a moment after
// you stop typing in a plot field the script asks the board for that plot's forecast (the same part
// of the page the server renders), puts it in place (read out by screen readers: the forecast is a
// live region), redraws the map with every plot, and refills the order block.
(function () {
  'use strict';
  var wait = 350; // ms after the last key before a try
  var tried = 'As you tried it: not sent yet.'; // the words the board gives a plot sent back by Try
  var form = null;
  var timers = new Map();
  var asked = new Map(); // field id -> the number of its latest try, so an older answer never wins
  var count = 0;
  var mapCount = 0;

  function fields() {
    return Array.prototype.slice.call(form.querySelectorAll('input[data-unit]'));
  }

  function block() {
    var box = document.getElementById('block');
    if (!box) { return; }
    var lines = [box.getAttribute('data-header')];
    fields().forEach(function (f) {
      var text = f.value.trim();
      if (text !== '') { lines.push(f.getAttribute('data-unit') + ': ' + text); }
    });
    lines.push('END');
    box.value = lines.join('\n') + '\n';
    box.rows = lines.length + 1;
  }

  function plots() {
    var q = new URLSearchParams();
    fields().forEach(function (f) {
      var text = f.value.trim();
      if (text !== '') { q.append(f.name, text); }
    });
    return q.toString();
  }

  function redraw() {
    var img = document.querySelector('figure.map img.picture');
    if (!img) { return; }
    var q = plots();
    var src = form.getAttribute('data-map') + (q ? '?' + q : '');
    var n = ++mapCount;
    // The new picture replaces the old one only once it has loaded: a failed one (too many tries)
    // leaves the last good one in place.
    var next = new Image();
    next.onload = function () {
      if (n === mapCount) { img.src = src; }
    };
    next.src = src;
  }

  function tryField(f) {
    var n = ++count;
    asked.set(f.id, n);
    var out = document.getElementById(f.getAttribute('data-forecast'));
    var q = new URLSearchParams();
    q.set('unit', f.getAttribute('data-unit'));
    q.set('plot', f.value.trim());
    fetch(form.getAttribute('data-try') + '?' + q.toString(), { credentials: 'same-origin' }).then(function (r) {
      return r.text().then(function (text) {
        if (asked.get(f.id) !== n || !out) { return; }
        var type = r.headers.get('Content-Type') || '';
        if (type.indexOf('text/html') === 0) {
          var doc = new DOMParser().parseFromString('<div>' + text + '</div>', 'text/html');
          var part = doc.body.firstChild;
          out.replaceChildren.apply(out, Array.prototype.slice.call(part.childNodes).map(function (c) { return document.adoptNode(c); }));
        } else {
          var p = document.createElement('p');
          p.className = 'bad';
          p.textContent = text.trim() || ('The board did not answer (' + r.status + '). Use the Try button.');
          out.replaceChildren(p);
        }
      });
    }).catch(function () {
      if (asked.get(f.id) !== n || !out) { return; }
      var p = document.createElement('p');
      p.className = 'bad';
      p.textContent = 'The board could not be reached. Use the Try button, or try again in a moment.';
      out.replaceChildren(p);
    });
    redraw();
  }

  function onInput(e) {
    var f = e.target;
    if (!f.matches || !f.matches('input[data-unit]')) { return; }
    block();
    var source = document.getElementById(f.id.replace('plot-', 'source-'));
    if (source) { source.textContent = tried; }
    clearTimeout(timers.get(f.id));
    timers.set(f.id, setTimeout(function () { tryField(f); }, wait));
  }

  function prepare() {
    form = document.getElementById('board');
    if (!form) { return; }
    form.classList.add('live');
    form.addEventListener('input', onInput);
    // Enter in a plot field tries it at once instead of sending the form back.
    form.addEventListener('keydown', function (e) {
      var f = e.target;
      if (e.key !== 'Enter' || !f.matches || !f.matches('input[data-unit]')) { return; }
      e.preventDefault();
      clearTimeout(timers.get(f.id));
      tryField(f);
    });
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', prepare);
  } else {
    prepare();
  }
})();
