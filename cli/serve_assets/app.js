/* app.js: the pages of `kifu serve`: the explorer on a board, the games, a player, a
 * game's replay beside the explorer, and position search. Written for kifu, no library.
 * Every text from the index (names, events, comments, moves) reaches the page through
 * textContent or an attribute set by setAttribute on a link this file builds; the board
 * is board.js's SVG, parsed as SVG (DOMParser), never as HTML. The state of a page is
 * its URL: a position can be bookmarked, and back/forward walk the moves played. */
(function () {
  "use strict";

  var FILTERS = ["player", "color", "since", "until", "event", "min_rating", "tag"];
  // Position-list letters (board.js) to SFEN: P L N S G B R +P +L +N +S +B +R K.
  var SFEN_PIECE = ["P", "L", "N", "S", "G", "B", "R", "+P", "+L", "+N", "+S", "+B", "+R", "K"];
  var HAND_SFEN = ["R", "B", "G", "S", "N", "L", "P"], HAND_KIND = [6, 5, 4, 3, 2, 1, 0];

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent) {
    for (var i = 1; i < arguments.length; i++) if (arguments[i]) parent.appendChild(arguments[i]);
    return parent;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); return e; }
  function params() { return new URLSearchParams(location.search); }
  function api(path, q) {
    return fetch("/api/" + path + "?" + q.toString()).then(function (r) {
      return r.json().then(function (d) {
        if (!r.ok) throw new Error(d.error || r.statusText);
        return d;
      });
    });
  }
  function link(href, q, text) {
    var a = el("a", { href: href + "?" + q.toString() }, text);
    return a;
  }
  function error(where, e) { clear(where); add(where, el("p", { class: "error" }, e.message)); }

  /* board.js's SVG as a node of this document. */
  function boardNode(node, o) {
    var doc = new DOMParser().parseFromString(KifuBoard.svg(node, o), "image/svg+xml");
    return document.importNode(doc.documentElement, true);
  }
  /* USI square ("7g") of a 1-based position-list square, and back. */
  function usiSq(sq) { var i = sq - 1; return (9 - i % 9) + "abcdefghi".charAt(Math.floor(i / 9)); }
  function sqOf(usi) { return (usi.charCodeAt(1) - 97) * 9 + (9 - +usi.charAt(0)) + 1; }

  /* SFEN of a posjson entry (the game page asks the explorer by it). */
  function sfenOf(n) {
    var rows = [];
    for (var r = 0; r < 9; r++) {
      var row = "", empty = 0;
      for (var c = 0; c < 9; c++) {
        var p = KifuBoard.piece(n.bd.charAt(r * 9 + c));
        if (!p) { empty++; continue; }
        if (empty) row += empty, empty = 0;
        var s = SFEN_PIECE[p.kind];
        row += p.color ? s.toLowerCase() : s;
      }
      rows.push(row + (empty ? empty : ""));
    }
    var hand = "";
    [[n.cb, 0], [n.cw, 1]].forEach(function (h) {
      var counts = KifuBoard.handCounts(h[0]);
      HAND_KIND.forEach(function (k, i) {
        if (counts[k]) hand += (counts[k] > 1 ? counts[k] : "") +
          (h[1] ? HAND_SFEN[i].toLowerCase() : HAND_SFEN[i]);
      });
    });
    return rows.join("/") + " " + (n.turn === "w" ? "w" : "b") + " " + (hand || "-") + " 1";
  }

  function nav() {
    var n = document.getElementById("nav");
    [["/explore", "Explorer"], ["/games", "Games"], ["/search", "Search"]].forEach(function (l) {
      add(n, el("a", { href: l[0] }, l[1]));
    });
  }

  /* The explorer's moves table: games, share, the sente-win / draw / gote-win bar, the
   * last date; a click on a row plays the move. Top games link to the game at the ply. */
  function movesTable(x, onMove) {
    var t = el("table", { class: "moves", id: "moves" });
    var head = add(el("tr"), el("th", null, "Move"), el("th", null, "Games"),
      el("th", null, "Share"), el("th", { class: "bar-h" }, "☗ win / draw / ☖ win"),
      el("th", null, "Last"));
    add(t, add(el("thead"), head));
    var body = add(t, el("tbody"));
    x.moves.forEach(function (m) {
      var tr = el("tr", { "data-usi": m.usi, class: "move-row" });
      var bar = el("div", { class: "bar" });
      var parts = [["s", m.sente_wins], ["d", m.draws], ["g", m.gote_wins], ["u", m.unfinished]];
      parts.forEach(function (p) {
        if (!p[1]) return;
        var seg = el("span", { class: "seg seg-" + p[0], title: p[1] + "" }, p[1]);
        seg.style.flexGrow = String(p[1]);
        add(bar, seg);
      });
      add(tr, el("td", { class: "mv" }, m.move), el("td", { class: "n" }, m.games),
        el("td", { class: "n" }, m.share.toFixed(1) + "%"), add(el("td"), bar),
        el("td", null, m.last_date || "-"));
      tr.addEventListener("click", function () { onMove(m.usi); });
      add(body, tr);
    });
    return t;
  }

  function topGames(x) {
    var list = el("ul", { class: "top-games", id: "top-games" });
    x.moves.forEach(function (m) {
      m.top.forEach(function (g) {
        var q = new URLSearchParams({ file: g.file, game: g.game, ply: g.ply });
        var li = el("li");
        add(li, el("span", { class: "mv" }, m.move + " "), link("/game", q,
          (g.date || "----") + " " + (g.sente || "?") + " - " + (g.gote || "?") +
          " (" + g.result + ")"));
        if (g.event) add(li, el("span", { class: "event" }, " " + g.event));
        add(list, li);
      });
    });
    return list;
  }

  /* ---- Explorer ---------------------------------------------------------------- */
  function explorePage(app) {
    var q = params();
    var line = (q.get("moves") || "").split(",").filter(Boolean);
    var at = q.has("at") ? Math.max(0, Math.min(line.length, +q.get("at") || 0)) : line.length;
    var flip = q.get("flip_board") === "1";
    var sel = 0, drop = "", renders = 0;

    function state(newLine, newAt, newFlip) {
      var s = new URLSearchParams();
      if (q.get("sfen")) s.set("sfen", q.get("sfen"));
      if (newLine.length) s.set("moves", newLine.join(","));
      if (newAt !== newLine.length) s.set("at", newAt);
      if (newFlip) s.set("flip_board", "1");
      FILTERS.concat(["flip"]).forEach(function (f) { if (q.get(f)) s.set(f, q.get(f)); });
      return s;
    }
    function go(s) { history.pushState(null, "", "/explore?" + s.toString()); load(); render(); }
    /* The state from the URL: after a move, and when back/forward changes the URL. */
    function load() {
      q = params();
      line = (q.get("moves") || "").split(",").filter(Boolean);
      at = q.has("at") ? Math.max(0, Math.min(line.length, +q.get("at") || 0)) : line.length;
      flip = q.get("flip_board") === "1";
      FILTERS.forEach(function (f) { form.elements[f].value = q.get(f) || ""; });
    }
    function play(usi) { go(state(line.slice(0, at).concat([usi]), at + 1, flip)); }

    var form = el("form", { class: "filters", id: "filters" });
    FILTERS.forEach(function (f) {
      var input = f === "color" ? el("select", { name: f }) :
        el("input", { name: f, type: f === "since" || f === "until" ? "date" : f === "min_rating" ? "number" : "text" });
      if (f === "tag") input.setAttribute("placeholder", "四間飛車,gote:美濃囲い");
      if (f === "color") ["", "sente", "gote"].forEach(function (c) { add(input, el("option", { value: c }, c || "either")); });
      input.value = q.get(f) || "";
      add(form, add(el("label"), document.createTextNode(f.replace("_", " ") + " "), input));
    });
    add(form, el("button", { type: "submit" }, "Apply"));
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      FILTERS.forEach(function (f) {
        var v = form.elements[f].value;
        if (v) q.set(f, v); else q.delete(f);
      });
      go(state(line, at, flip));
    });

    var main = el("div", { class: "ex-main" }), side = el("div", { class: "ex-side" });
    var boardBox = el("div", { class: "board-box", id: "board" });
    var controls = el("div", { class: "controls" });
    var back = el("button", { id: "back", type: "button" }, "◀"),
      fwd = el("button", { id: "forward", type: "button" }, "▶"),
      flipB = el("button", { id: "flip", type: "button" }, "Flip"),
      start = el("button", { id: "start", type: "button" }, "Start");
    add(controls, start, back, fwd, flipB);
    var drops = el("div", { class: "drops", id: "drops" });
    var lineBox = el("p", { class: "line", id: "line" });
    var status = el("p", { class: "status", id: "status" });
    var table = el("div", { id: "table" }), tops = el("div", { id: "tops" });
    add(main, boardBox, drops, controls, lineBox);
    add(side, form, status, table, el("h3", null, "Top games"), tops);
    add(app, add(el("div", { class: "explorer" }), main, side));

    start.addEventListener("click", function () { go(state(line, 0, flip)); });
    back.addEventListener("click", function () { if (at > 0) go(state(line, at - 1, flip)); });
    fwd.addEventListener("click", function () { if (at < line.length) go(state(line, at + 1, flip)); });
    flipB.addEventListener("click", function () { go(state(line, at, !flip)); });
    window.addEventListener("popstate", function () { load(); render(); });

    function render() {
      var pos = new URLSearchParams();
      if (q.get("sfen")) pos.set("sfen", q.get("sfen"));
      if (at) pos.set("moves", line.slice(0, at).join(","));
      var ex = new URLSearchParams(pos);
      FILTERS.concat(["flip"]).forEach(function (f) { if (q.get(f)) ex.set(f, q.get(f)); });
      sel = 0, drop = "";
      clear(lineBox);
      line.forEach(function (m, i) {
        var s = el("a", { href: "/explore?" + state(line, i + 1, flip).toString(), class: i + 1 === at ? "cur" : "" }, m);
        add(lineBox, s, document.createTextNode(" "));
      });
      status.textContent = "…";
      Promise.all([api("board", pos), api("explore", ex)]).then(function (r) {
        var b = r[0], x = r[1];
        drawBoard(b);
        status.textContent = x.games + " games, " + x.moves.length + " moves played";
        status.setAttribute("data-games", x.games);
        clear(table), clear(tops);
        add(table, movesTable(x, play));
        add(tops, topGames(x));
        document.body.setAttribute("data-ready", "r" + (++renders));
      }).catch(function (e) { error(status, e); document.body.setAttribute("data-ready", "error"); });
    }

    function drawBoard(b) {
      var opts = { flip: flip };
      if (at) opts.last = sqOf(line[at - 1].slice(2, 4));
      if (sel) opts.from = sel;
      clear(boardBox);
      var svg = boardNode(b, opts);
      add(boardBox, svg);
      svg.addEventListener("click", function (ev) {
        var sq = KifuBoard.squareAt(svg, ev.clientX, ev.clientY, flip);
        if (sq) clickSquare(b, sq);
      });
      clear(drops);
      var hand = {};
      b.legal.forEach(function (u) { if (u.charAt(1) === "*") hand[u.charAt(0)] = 1; });
      Object.keys(hand).forEach(function (p) {
        var btn = el("button", { type: "button", class: "drop" + (drop === p ? " on" : ""), "data-piece": p }, p + "*");
        btn.addEventListener("click", function () { drop = p, sel = 0; drawBoard(b); });
        add(drops, btn);
      });
    }

    /* A click on a square: pick a piece that has a legal move, then its destination
     * (asking when it may promote or not); or the square of a drop picked below. */
    function clickSquare(b, sq) {
      var to = usiSq(sq);
      if (drop) {
        var d = drop + "*" + to;
        drop = "";
        if (b.legal.indexOf(d) >= 0) play(d); else drawBoard(b);
        return;
      }
      if (sel && sel !== sq) {
        var plain = usiSq(sel) + to, promo = plain + "+";
        var canPlain = b.legal.indexOf(plain) >= 0, canPromo = b.legal.indexOf(promo) >= 0;
        sel = 0;
        if (canPlain && canPromo) return play(window.confirm("成りますか? (promote?)") ? promo : plain);
        if (canPromo) return play(promo);
        if (canPlain) return play(plain);
      }
      sel = b.legal.some(function (u) { return u.slice(0, 2) === to; }) && sel !== sq ? sq : 0;
      drawBoard(b);
    }
    render();
  }

  /* ---- Games ------------------------------------------------------------------- */
  function gamesPage(app) {
    var q = params(), limit = 50, offset = +(q.get("offset") || 0);
    var out = el("div", { id: "games" });
    var form = el("form", { class: "filters", action: "/games", method: "get" });
    var who = el("input", { name: "player", type: "text" }), side = el("select", { name: "color" });
    ["", "sente", "gote"].forEach(function (c) { add(side, el("option", { value: c }, c || "either")); });
    who.value = q.get("player") || "", side.value = q.get("color") || "";
    var order = el("select", { name: "sort" });
    [["", "as indexed"], ["date", "date"], ["-date", "date, latest first"], ["sente", "sente"],
      ["gote", "gote"], ["event", "event"]].forEach(function (o) { add(order, el("option", { value: o[0] }, o[1])); });
    order.value = q.get("sort") || "";
    var tag = el("input", { name: "tag", type: "text", placeholder: "四間飛車,gote:美濃囲い" });
    tag.value = q.get("tag") || "";
    add(form, add(el("label"), document.createTextNode("player "), who), side,
      add(el("label"), document.createTextNode("tag "), tag),
      add(el("label"), document.createTextNode("sort "), order),
      el("button", { type: "submit" }, "Filter"));
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var s = new URLSearchParams();
      if (who.value) s.set("player", who.value);
      if (who.value && side.value) s.set("color", side.value);
      if (order.value) s.set("sort", order.value);
      if (tag.value) s.set("tag", tag.value);
      location.href = "/games?" + s.toString();
    });
    add(app, el("h2", null, "Games"), form, out);
    var aq = new URLSearchParams({ limit: limit, offset: offset });
    if (q.get("player")) aq.set("player", q.get("player"));
    if (q.get("player") && q.get("color")) aq.set("color", q.get("color"));
    if (q.get("sort")) aq.set("sort", q.get("sort"));
    if (q.get("tag")) aq.set("tag", q.get("tag"));
    function page(off) {
      var s = new URLSearchParams(aq);
      s.delete("limit");
      s.set("offset", off);
      return s;
    }
    api("games", aq).then(function (d) {
      var t = el("table", { class: "games" });
      add(t, add(el("tr"), el("th", null, "Date"), el("th", null, "Sente"), el("th", null, "Gote"),
        el("th", null, "Event"), el("th", null, "Tags"), el("th", null, "Game")));
      d.games.forEach(function (g) {
        var h = g.header || {};
        var tr = el("tr");
        var who = function (name) {
          var td = el("td");
          if (name) add(td, link("/player", new URLSearchParams({ player: name }), name));
          return td;
        };
        add(tr, el("td", null, h["開始日時"] || h["対局日"] || ""), who(h["先手"] || h["下手"]),
          who(h["後手"] || h["上手"]), el("td", null, h["棋戦"] || ""), tagCell(g.tags),
          add(el("td"), link("/game", new URLSearchParams({ file: g.file, game: g.game }),
            g.file.replace(/^.*\//, "") + " #" + g.game)));
        add(t, tr);
      });
      add(out, el("p", null, (offset + 1) + "–" + (offset + d.games.length) + " of " + d.total),
        add(el("div", { class: "table-wrap" }), t));
      var pager = el("p", { class: "pager" });
      if (offset > 0) add(pager, link("/games", page(Math.max(0, offset - limit)), "◀ previous"));
      if (offset + limit < d.total) add(pager, link("/games", page(offset + limit), "next ▶"));
      add(out, pager);
    }).catch(function (e) { error(out, e); });
  }

  /* A game's 戦法 and 囲い by side (☗ sente's, ☖ gote's), and the game's class: a
   * click on one lists the games with it. 備考 other than the game's (居飛車 ...) are
   * left to the filter, to keep the cell short. */
  function tagCell(tags, kind) {
    var td = el(kind || "td", { class: "tags" });
    (tags || []).forEach(function (t) {
      if (t.family === "備考" && t.side !== "game") return;
      var mark = t.side === "sente" ? "☗" : t.side === "gote" ? "☖" : "";
      var spec = t.side === "game" ? t.name : t.side + ":" + t.name;
      add(td, link("/games", new URLSearchParams({ tag: spec }), mark + t.name), document.createTextNode(" "));
    });
    return td;
  }

  /* ---- Player ------------------------------------------------------------------ */
  function playerPage(app) {
    var name = params().get("player") || "";
    var out = el("div", { id: "player" });
    add(app, el("h2", { id: "player-name" }, name), out);
    api("players", new URLSearchParams({ player: name })).then(function (d) {
      var t = el("table", { class: "results", id: "results" });
      add(t, add(el("tr"), el("th", null, "As"), el("th", null, "Games"), el("th", null, "Wins"),
        el("th", null, "Losses"), el("th", null, "Draws"), el("th", null, "Unfinished")));
      ["sente", "gote"].forEach(function (c) {
        var r = d[c];
        add(t, add(el("tr", { "data-color": c }), el("td", null, c), el("td", null, r.games),
          el("td", { class: "wins" }, r.wins), el("td", { class: "losses" }, r.losses),
          el("td", { class: "draws" }, r.draws), el("td", null, r.unfinished)));
      });
      add(out, t, add(el("p"), link("/games", new URLSearchParams({ player: name }), "All games of " + name)));
      ["sente", "gote"].forEach(function (c) {
        var q = new URLSearchParams({ player: name, color: c });
        api("explore", q).then(function (x) {
          add(out, el("h3", null, "Openings as " + c), movesTable(x, function (usi) {
            location.href = "/explore?" + new URLSearchParams({ moves: usi, player: name, color: c }).toString();
          }));
        });
      });
    }).catch(function (e) { error(out, e); });
  }

  /* ---- Game -------------------------------------------------------------------- */
  function gamePage(app) {
    var q = params();
    var out = el("div", { class: "explorer" }), boardBox = el("div", { class: "board-box", id: "board" });
    var info = el("div", { class: "ex-side" }), movesList = el("ol", { class: "game-moves", id: "game-moves", start: "0" });
    var comment = el("p", { class: "comment", id: "comment" }), numbers = el("div", { id: "table" });
    var controls = el("div", { class: "controls" });
    var back = el("button", { id: "back", type: "button" }, "◀"), fwd = el("button", { id: "forward", type: "button" }, "▶");
    add(controls, back, fwd);
    add(app, add(out, add(el("div", { class: "ex-main" }), boardBox, controls, comment), info));
    var head = el("p", { class: "game-head", id: "game-head" });
    add(info, head, numbers, movesList);
    api("game", new URLSearchParams({ file: q.get("file") || "", game: q.get("game") || "1" })).then(function (d) {
      // posjson's ply counts from the game's first move: a record that starts at move 6
      // starts at ply 5, so the main line is counted from the first entry's.
      var main = [], base = d.positions.length ? d.positions[0].ply || 0 : 0;
      d.positions.forEach(function (e) { if (e.prev === undefined && e.ply - base === main.length) main.push(e); });
      var h = main[0].header || {};
      head.textContent = (h["先手"] || h["下手"] || "?") + " - " + (h["後手"] || h["上手"] || "?") +
        (h["棋戦"] ? " · " + h["棋戦"] : "") + (h["開始日時"] ? " · " + h["開始日時"] : "");
      var tagLine = add(el("p", { class: "game-tags", id: "game-tags" }), tagCell(d.tags, "span"));
      info.insertBefore(tagLine, numbers);
      main.forEach(function (e, i) {
        var li = add(el("li", { "data-ply": i }), el("span", null, i ? e.move : "開始局面"));
        li.addEventListener("click", function () { show(i, true); });
        add(movesList, li);
      });
      var ply = Math.max(0, Math.min(main.length - 1, +(q.get("ply") || 0)));
      function show(i, push) {
        ply = i;
        if (push) {
          q.set("ply", i);
          history.pushState(null, "", "/game?" + q.toString());
        }
        var e = main[i];
        clear(boardBox);
        var bo = { sides: [h["先手"] || h["下手"] || "先手", h["後手"] || h["上手"] || "後手"] };
        if (e.usi && e.usi.length >= 4) bo.last = sqOf(e.usi.slice(2, 4));
        add(boardBox, boardNode(e, bo));
        comment.textContent = (e.comments || []).join("\n");
        Array.prototype.forEach.call(movesList.children, function (li) {
          li.classList.toggle("cur", +li.getAttribute("data-ply") === i);
        });
        document.body.setAttribute("data-ply", i);
        api("explore", new URLSearchParams({ sfen: sfenOf(e) })).then(function (x) {
          clear(numbers);
          add(numbers, el("p", { id: "status", "data-games": x.games }, x.games + " games reached this position"),
            add(el("p"), link("/explore", new URLSearchParams({ sfen: sfenOf(e) }), "Open this position in the explorer")),
            movesTable(x, function (usi) {
              if (main[i + 1] && main[i + 1].usi === usi) show(i + 1, true);
            }));
          document.body.setAttribute("data-ready", "ply" + i);
        });
      }
      back.addEventListener("click", function () { if (ply > 0) show(ply - 1, true); });
      fwd.addEventListener("click", function () { if (ply < main.length - 1) show(ply + 1, true); });
      window.addEventListener("popstate", function () { q = params(); show(Math.max(0, Math.min(main.length - 1, +(q.get("ply") || 0))), false); });
      show(ply, false);
    }).catch(function (e) { error(out, e); document.body.setAttribute("data-ready", "error"); });
  }

  /* ---- Position search --------------------------------------------------------- */
  function searchPage(app) {
    var q = params();
    var form = el("form", { class: "search", id: "search-form" });
    var kind = el("select", { name: "kind" });
    [["sfen", "SFEN"], ["moves", "USI moves (7g7f,3c3d)"], ["usi", "USI position line"],
      ["bod", "KIF board (BOD)"], ["grid", "pattern (grid syntax)"]].forEach(function (k) {
      add(kind, el("option", { value: k[0] }, k[1]));
    });
    var text = el("textarea", { name: "text", rows: "10", cols: "40" });
    add(form, kind, el("br"), text, el("br"), el("button", { type: "submit" }, "Search"));
    var out = el("div", { id: "hits" });
    add(app, el("h2", null, "Position search"), form, out);
    ["sfen", "moves", "usi", "bod", "grid"].forEach(function (k) {
      if (q.get(k) !== null) kind.value = k, text.value = q.get(k);
    });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var s = new URLSearchParams();
      s.set(kind.value, text.value);
      location.href = "/search?" + s.toString();
    });
    if (!text.value) return;
    var s = new URLSearchParams();
    s.set(kind.value, text.value);
    api("search", s).then(function (d) {
      add(out, el("p", { id: "count" }, d.count + " hits" + (d.truncated ? " (first ones)" : "")));
      var ul = add(out, el("ul"));
      d.hits.forEach(function (h) {
        var hd = h.header || {};
        add(ul, add(el("li"), link("/game", new URLSearchParams({ file: h.file, game: h.game, ply: h.ply }),
          h.file + " #" + h.game + " ply " + h.ply), el("span", null,
          " " + (hd["先手"] || "?") + " - " + (hd["後手"] || "?") + " " + (h.next || ""))));
      });
    }).catch(function (e) { error(out, e); });
  }

  nav();
  var app = document.getElementById("app");
  var page = document.body.getAttribute("data-page");
  ({ explore: explorePage, games: gamesPage, player: playerPage, game: gamePage,
    search: searchPage })[page](app);
})();
