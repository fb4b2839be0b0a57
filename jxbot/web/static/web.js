// jxbot web companion. Static: it reads only ids and paths the server put in data-* attributes and the
// JSON of the live feed, and writes text with textContent (never HTML).
"use strict";
(function () {
  var body = document.body;
  if (body.dataset.page === "replay") {
    document.addEventListener("keydown", function (ev) {
      if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
      var link = document.querySelector('a[data-key="' + ev.key + '"]');
      if (link) { ev.preventDefault(); window.location.assign(link.href); }
    });
  }
  if (body.dataset.page === "live" && body.dataset.feed) {
    var feed = body.dataset.feed;
    var apply = function (s) {
      if (!s || typeof s !== "object") return;
      document.getElementById("step").textContent = s.head || "";
      document.getElementById("caption").textContent = s.caption || "";
      var pic = document.getElementById("live-pic");
      if (s.image && pic.getAttribute("src") !== s.image) pic.setAttribute("src", s.image);
      body.dataset.version = s.version || "";
      var rl = document.getElementById("replay-link");
      if (s.last_hand) {
        rl.textContent = "";
        var a = document.createElement("a");
        a.href = "/h/" + encodeURIComponent(s.last_hand);
        a.textContent = s.last_hand;
        rl.appendChild(a);
      }
    };
    var poll = function () {
      fetch(feed.replace("/events", ""), { credentials: "omit" })
        .then(function (r) { return r.ok ? r.json() : null; }).then(apply)
        .catch(function () {}).then(function () { window.setTimeout(poll, 2000); });
    };
    if (window.EventSource) {
      var es = new EventSource(feed);
      es.onmessage = function (ev) { try { apply(JSON.parse(ev.data)); } catch (e) { /* ignore */ } };
      es.addEventListener("end", function () { es.close(); });
    } else {
      poll();
    }
  }
})();
