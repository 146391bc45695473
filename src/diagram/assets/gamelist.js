/* gamelist.js: a page of many games (a tournament file) as one viewer and a list to
 * choose from, instead of a viewer a game; and no header field that says nothing. Run
 * after viewer.js, from the viewers it made (window.kifuViewers): the first keeps the
 * page, the others are taken away, and the list sets the record it shows
 * (Viewer.setRecord, as the catalogue does). Written for kifu (no library). */
(function () {
  "use strict";

  function emptyFieldsOut(viewers, data) {
    // Out of every record (a 場所： with nothing after it), and out of the headers the
    // viewers drew already.
    data.records.forEach(function (r) {
      r.info = (r.info || []).filter(function (kv) { return String(kv[1]).trim() !== ""; });
    });
    viewers.forEach(function (w) {
      Array.prototype.forEach.call(w.root.querySelectorAll(".kifu-header span"), function (s) {
        if (/：\s*$/.test(s.textContent)) s.remove();
      });
    });
  }

  function gameList() {
    var viewers = window.kifuViewers;
    if (!viewers || !viewers.length) return;
    var v = viewers[0], data = v.data;
    emptyFieldsOut(viewers, data);
    if (data.catalogue || viewers.length < 2) return;
    for (var i = 1; i < viewers.length; i++) viewers[i].root.remove();
    viewers.length = 1;
    var list = document.createElement("ol");
    list.className = "kifu-games";
    data.records.forEach(function (r, i) {
      var h = {};
      (r.info || []).forEach(function (kv) { h[kv[0]] = kv[1]; });
      var li = document.createElement("li"), when = h["開始日時"] || h["対局日"] || "";
      li.textContent = (r.title || "第" + (i + 1) + "局") + (when ? "  " + when : "");
      li.setAttribute("data-record", i);
      li.tabIndex = 0;
      list.appendChild(li);
    });
    function choose(i) {
      if (i !== v.ri) v.setRecord(i);
      Array.prototype.forEach.call(list.children, function (li, k) {
        li.classList.toggle("kifu-chosen", k === i);
      });
    }
    list.addEventListener("click", function (e) {
      var li = e.target.closest("li");
      if (li) choose(+li.getAttribute("data-record"));
    });
    list.addEventListener("keydown", function (e) {
      var li = e.target.closest("li");
      if (li && e.key === "Enter") choose(+li.getAttribute("data-record"));
    });
    v.root.parentNode.insertBefore(list, v.root);
    // The address picked a game and a ply (#ply=..&r=N), maybe of a viewer now gone:
    // the one viewer shows it.
    var m = /ply=([0-9,]+)/.exec(location.hash), r = /[&?]r=(\d+)/.exec(location.hash);
    choose(r && +r[1] >= 1 && +r[1] <= data.records.length ? +r[1] - 1 : v.ri);
    if (m && r) v.goPath(m[1]);
    // viewer.js follows the address into the one viewer: the list marks its game.
    window.addEventListener("hashchange", function () { choose(v.ri); });
  }

  // viewer.js starts at DOMContentLoaded while the page loads: this after it.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", gameList);
  else gameList();
})();
