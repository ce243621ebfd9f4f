// Sortie's web archive: step through turns (or a player's reports) without reloading the page. The
// pages work without this script: the prev/next links are plain links. With it, following them, or
// pressing the left and right arrow keys, fetches the next page and puts its <main> in place of this
// one, keeps the browser's history, and tells screen readers which page is shown.
(function () {
  'use strict';
  var pages = new Map();

  function fetchPage(url) {
    if (!pages.has(url)) {
      var p = fetch(url, { credentials: 'same-origin' }).then(function (r) {
        if (!r.ok) { throw new Error('HTTP ' + r.status); }
        return r.text();
      });
      p.catch(function () { pages.delete(url); });
      pages.set(url, p);
    }
    return pages.get(url);
  }

  function step(rel) {
    var nav = document.querySelector('nav.turns');
    return nav ? nav.querySelector('a[rel="' + rel + '"]') : null;
  }

  function show(url, push, rel) {
    return fetchPage(url).then(function (html) {
      var doc = new DOMParser().parseFromString(html, 'text/html');
      var next = doc.querySelector('main');
      var main = document.querySelector('main');
      if (!next || !main) { window.location.assign(url); return; }
      main.replaceWith(document.adoptNode(next));
      document.title = doc.title;
      if (push) { history.pushState({ sortie: true }, '', url); }
      var target = rel ? step(rel) : null;
      if (!target) { target = document.querySelector('main'); }
      target.focus({ preventScroll: true });
      var h1 = document.querySelector('main h1');
      var say = document.getElementById('announce');
      if (say && h1) { say.textContent = h1.textContent; }
      prepare();
    }).catch(function () { window.location.assign(url); });
  }

  function prepare() {
    var nav = document.querySelector('nav.turns');
    if (!nav) { return; }
    var keys = nav.querySelector('.keys');
    if (keys) { keys.hidden = false; }
    ['prev', 'next'].forEach(function (rel) {
      var a = step(rel);
      if (a) { fetchPage(a.href); }
    });
  }

  document.addEventListener('click', function (e) {
    if (e.defaultPrevented || e.button !== 0 || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
    var a = e.target.closest ? e.target.closest('nav.turns a[rel="prev"], nav.turns a[rel="next"]') : null;
    if (!a) { return; }
    e.preventDefault();
    show(a.href, true, a.getAttribute('rel'));
  });

  document.addEventListener('keydown', function (e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
    var t = e.target;
    // Arrows scroll a focused map or record, and move in form fields: those keep them.
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT|PRE|SUMMARY)$/.test(t.tagName))) { return; }
    var rel = e.key === 'ArrowLeft' ? 'prev' : e.key === 'ArrowRight' ? 'next' : '';
    if (!rel) { return; }
    var a = step(rel);
    if (!a) { return; }
    e.preventDefault();
    show(a.href, true, null);
  });

  window.addEventListener('popstate', function () {
    show(window.location.href, false, null);
  });

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', prepare);
  } else {
    prepare();
  }
})();
