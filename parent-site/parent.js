// The parent site's side of the frame protocol: resize the iframe to the height the app
// reports, and navigate when the app asks for "top window" navigation. Messages from any other
// origin are ignored.
(function () {
  var frame = document.getElementById('member-frame');
  var appOrigin = new URL(frame.getAttribute('data-app-origin')).origin;
  window.addEventListener('message', function (event) {
    if (event.origin !== appOrigin || !event.data || typeof event.data !== 'object') return;
    if (event.data.type === 'member-site:height' && typeof event.data.height === 'number') {
      frame.style.height = Math.max(800, Math.ceil(event.data.height)) + 'px';
    }
    if (event.data.type === 'member-site:navigate' && typeof event.data.url === 'string') {
      var target = new URL(event.data.url, window.location.href);
      if (target.origin === window.location.origin) {
        window.location.href = target.href;
      } else if (target.origin === appOrigin) {
        frame.src = target.href;
        window.scrollTo(0, 0);
      }
    }
  });
})();
