// The parent site's side of the frame protocol: resize the iframe to the height the app
// reports, take the title of the app's screen as the page's own (what the tab and a screen
// reader announce), bring the part of the frame the app asks for into view (the top after each of its
// navigations, a dialog that opens, the first error of a form), and navigate when the app asks
// for "top window" navigation. Messages from any other origin are ignored.
// A link to this page with `?path=/user/…` (the mails' links: src/shared/parent-link.ts) loads
// that app path into the frame; only paths of the app's own origin under /user are taken.
(function () {
  var frame = document.getElementById('member-frame');
  var appOrigin = new URL(frame.getAttribute('data-app-origin')).origin;
  var MARGIN = 16;

  // A reload keeps the path, so a member who reloads a mailed link's page meets it again. The
  // site's server already points the frame there; this covers a parent page served as a file.
  var path = new URLSearchParams(window.location.search).get('path');
  if (path && path.charAt(0) === '/' && path.charAt(1) !== '/' && path.charAt(1) !== '\\') {
    var target = new URL(path, appOrigin);
    if (target.origin === appOrigin && /^\/user(\/|$)/.test(target.pathname) && frame.src !== target.href) frame.src = target.href;
  }

  function show(top, height) {
    var frameTop = frame.getBoundingClientRect().top;
    var start = frameTop + top;
    var end = start + Math.min(height, window.innerHeight - 2 * MARGIN);
    // Scroll only when the asked part is not already in view, so the page never jumps needlessly.
    if (start < 0 || end > window.innerHeight) window.scrollBy({ top: start - MARGIN, behavior: 'instant' });
  }

  window.addEventListener('message', function (event) {
    if (event.origin !== appOrigin || !event.data || typeof event.data !== 'object') return;
    var data = event.data;
    if (data.type === 'member-site:height' && typeof data.height === 'number') {
      frame.style.height = Math.max(800, Math.ceil(data.height)) + 'px';
    }
    if (data.type === 'member-site:title' && typeof data.title === 'string') {
      // Text only (document.title never parses markup), on one line and of a sane length.
      var title = data.title.replace(/\s+/g, ' ').trim().slice(0, 200);
      if (title) document.title = title;
    }
    if (data.type === 'member-site:scroll' && typeof data.top === 'number') {
      show(Math.max(0, data.top), typeof data.height === 'number' ? Math.max(0, data.height) : 0);
    }
    if (data.type === 'member-site:navigate' && typeof data.url === 'string') {
      var target = new URL(data.url, window.location.href);
      if (target.origin === window.location.origin) {
        window.location.href = target.href;
      } else if (target.origin === appOrigin) {
        frame.src = target.href;
        window.scrollTo(0, 0);
      }
    }
  });
})();
