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
    [["/explore", "Explorer"], ["/games", "Games"], ["/player", "Players"], ["/search", "Search"]].forEach(function (l) {
      add(n, el("a", { href: l[0] }, l[1]));
    });
  }

  /* The explorer's moves table: games, share, the sente-win / draw / gote-win bar, the
   * average rating of the players who made the move ("-" when none of its games gives
   * one), the last date; a click on a row plays the move. Top games link to the game at
   * the ply. Text goes in as textContent (el): nothing is parsed as HTML. */
  function movesTable(x, onMove) {
    var t = el("table", { class: "moves", id: "moves" });
    var head = add(el("tr"), el("th", null, "Move"), el("th", null, "Games"),
      el("th", null, "Share"), el("th", { class: "bar-h" }, "☗ win / draw / ☖ win"),
      el("th", { title: "mean rating of the players who made the move, over its rated games" },
        "Avg rating"),
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
        el("td", { class: "n rating", title: m.rated_games + " rated games" },
          m.avg_rating === null || m.avg_rating === undefined ? "-" : m.avg_rating),
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
  var GAME_FILTERS = ["player", "color", "since", "until", "event", "min_rating", "tag"];
  var COLUMNS = [["date", "Date"], ["sente", "Sente"], ["gote", "Gote"], ["event", "Event"],
    ["result", "Result"], ["length", "Moves"]];

  /* A games table: a column header sorts by it (again: the other way round); a name
   * opens the player, the last column the game. */
  function gamesTable(d, sortLink) {
    var t = el("table", { class: "games", id: "games-table" });
    var head = el("tr");
    COLUMNS.forEach(function (c) {
      add(head, sortLink ? add(el("th"), sortLink(c[0], c[1])) : el("th", null, c[1]));
    });
    add(head, el("th", null, "Tags"), el("th", null, "Game"));
    var body = el("tbody");
    add(t, add(el("thead"), head), body);
    d.games.forEach(function (g) {
      var who = function (name) {
        var td = el("td");
        if (name) add(td, link("/player", new URLSearchParams({ player: name }), name));
        return td;
      };
      add(body, add(el("tr", { class: "game-row" }), el("td", null, g.date || ""), who(g.sente),
        who(g.gote), el("td", null, g.event || ""), el("td", null, g.result),
        el("td", { class: "n" }, g.plies), tagCell(g.tags),
        add(el("td"), link("/game", new URLSearchParams({ file: g.file, game: g.game }),
          g.file.replace(/^.*\//, "") + " #" + g.game))));
    });
    return t;
  }

  function gamesPage(app) {
    var q = params(), offset = Math.max(0, +(q.get("offset") || 0) || 0);
    var limit = Math.max(1, Math.min(500, +(q.get("limit") || 50) || 50));
    var sort = q.get("sort") || "", order = q.get("order") === "desc" ? "desc" : "asc";
    var out = el("div", { id: "games" });
    var form = el("form", { class: "filters", id: "games-filters", action: "/games", method: "get" });
    GAME_FILTERS.forEach(function (f) {
      var input = f === "color" ? el("select", { name: f }) :
        el("input", { name: f, type: f === "min_rating" ? "number" : f === "since" || f === "until" ? "date" : "text" });
      if (f === "color") ["", "sente", "gote"].forEach(function (c) { add(input, el("option", { value: c }, c || "either")); });
      if (f === "tag") input.setAttribute("placeholder", "四間飛車,gote:美濃囲い");
      input.value = q.get(f) || "";
      add(form, add(el("label"), document.createTextNode(f.replace("_", " ") + " "), input));
    });
    add(form, el("button", { type: "submit" }, "Filter"));
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var s = new URLSearchParams();
      GAME_FILTERS.forEach(function (f) { if (form.elements[f].value) s.set(f, form.elements[f].value); });
      if (!s.get("player")) s.delete("color");
      if (sort) s.set("sort", sort), s.set("order", order);
      location.href = "/games?" + s.toString();
    });
    add(app, el("h2", null, "Games"), form, out);
    var aq = new URLSearchParams({ limit: limit, offset: offset });
    GAME_FILTERS.forEach(function (f) { if (q.get(f)) aq.set(f, q.get(f)); });
    if (!q.get("player")) aq.delete("color");
    if (sort) aq.set("sort", sort), aq.set("order", order);
    function page(off, newSort, newOrder) {
      var s = new URLSearchParams(aq);
      if (limit === 50) s.delete("limit");
      s.set("offset", off);
      if (newSort) s.set("sort", newSort), s.set("order", newOrder);
      if (!+off) s.delete("offset");
      return s;
    }
    function sortLink(key, label) {
      var next = sort === key && order === "asc" ? "desc" : "asc";
      var a = link("/games", page(0, key, next), label + (sort === key ? (order === "asc" ? " ▲" : " ▼") : ""));
      a.setAttribute("data-sort", key);
      return a;
    }
    api("games", aq).then(function (d) {
      add(out, el("p", { id: "games-count", "data-total": d.total },
        (d.games.length ? (offset + 1) + "–" + (offset + d.games.length) : "0") + " of " + d.total),
        add(el("div", { class: "table-wrap" }), gamesTable(d, sortLink)));
      var pager = el("p", { class: "pager" });
      if (offset > 0) add(pager, link("/games", page(Math.max(0, offset - limit)), "◀ previous"));
      if (offset + limit < d.total) {
        var nx = link("/games", page(offset + limit), "next ▶");
        nx.setAttribute("id", "next-page");
        add(pager, nx);
      }
      add(out, pager);
      document.body.setAttribute("data-ready", "games");
    }).catch(function (e) { error(out, e); document.body.setAttribute("data-ready", "error"); });
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
  function playersList(app) {
    var q = params(), out = el("div", { id: "players" });
    var form = el("form", { class: "filters", action: "/player", method: "get" });
    var like = el("input", { name: "like", type: "text" });
    like.value = q.get("like") || "";
    add(form, add(el("label"), document.createTextNode("name contains "), like), el("button", { type: "submit" }, "Find"));
    add(app, el("h2", null, "Players"), form, out);
    var offset = Math.max(0, +(q.get("offset") || 0) || 0), aq = new URLSearchParams({ limit: 50, offset: offset });
    if (like.value) aq.set("like", like.value);
    api("players", aq).then(function (d) {
      var t = el("table", { class: "results", id: "players-table" });
      add(t, add(el("tr"), el("th", null, "Player"), el("th", null, "Games"), el("th", null, "Wins"),
        el("th", null, "Losses"), el("th", null, "Draws"), el("th", null, "Last")));
      d.players.forEach(function (p) {
        add(t, add(el("tr"), add(el("td"), link("/player", new URLSearchParams({ player: p.name }), p.name)),
          el("td", null, p.games), el("td", null, p.wins), el("td", null, p.losses), el("td", null, p.draws),
          el("td", null, p.last_date || "")));
      });
      add(out, el("p", { id: "players-count" }, d.total + " players"), add(el("div", { class: "table-wrap" }), t));
      var pager = el("p", { class: "pager" }), s = new URLSearchParams(aq);
      s.delete("limit");
      if (offset > 0) s.set("offset", Math.max(0, offset - 50)), add(pager, link("/player", s, "◀ previous"));
      if (offset + 50 < d.total) s.set("offset", offset + 50), add(pager, link("/player", s, "next ▶"));
      add(out, pager);
      document.body.setAttribute("data-ready", "players");
    }).catch(function (e) { error(out, e); });
  }

  function playerPage(app) {
    var name = params().get("player") || "";
    if (!name) return playersList(app);
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
      add(out, add(el("div", { class: "table-wrap" }), t));
      ["sente", "gote"].forEach(function (c) {
        var o = el("table", { class: "results openings", id: "openings-" + c });
        add(o, add(el("tr"), el("th", null, "Opening"), el("th", null, "Games"), el("th", null, "Wins"),
          el("th", null, "Losses"), el("th", null, "Draws")));
        d.openings[c].forEach(function (x) {
          add(o, add(el("tr", { "data-moves": x.moves }),
            add(el("td", { class: "mv" }), link("/explore", new URLSearchParams({ moves: x.moves, player: name, color: c }), x.text)),
            el("td", null, x.games), el("td", null, x.wins), el("td", null, x.losses), el("td", null, x.draws)));
        });
        add(out, el("h3", null, "Openings as " + c + " (first two moves)"), add(el("div", { class: "table-wrap" }), o));
      });
      if (d.tags && d.tags.length) {
        var tt = el("table", { class: "results", id: "player-tags" });
        add(tt, add(el("tr"), el("th", null, "As"), el("th", null, "戦法 / 囲い"), el("th", null, "Games"),
          el("th", null, "Wins"), el("th", null, "Losses"), el("th", null, "Draws")));
        d.tags.forEach(function (t) {
          var tag = t.side + ":" + t.name;
          add(tt, add(el("tr", { "data-tag": tag }), el("td", null, t.side),
            add(el("td"), link("/games", new URLSearchParams({ player: name, color: t.side, tag: tag }), t.name + " (" + t.family + ")")),
            el("td", null, t.games), el("td", null, t.wins), el("td", null, t.losses), el("td", null, t.draws)));
        });
        add(out, el("h3", null, "Openings and castles played most"), add(el("div", { class: "table-wrap" }), tt));
      }
      return api("games", new URLSearchParams({ player: name, sort: "date", order: "desc", limit: 20 })).then(function (g) {
        add(out, el("h3", null, "Latest games (" + g.total + ")"), add(el("div", { class: "table-wrap" }), gamesTable(g)),
          add(el("p"), link("/games", new URLSearchParams({ player: name, sort: "date", order: "desc" }), "All games of " + name)));
        document.body.setAttribute("data-ready", "player");
      });
    }).catch(function (e) { error(out, e); document.body.setAttribute("data-ready", "error"); });
  }

  /* ---- Game -------------------------------------------------------------------- */
  /* The record's tree from its position list: an entry follows `prev` when it has one
   * (a fork's first move), else the entry before it. */
  function gameTree(E) {
    var kids = E.map(function () { return []; }), parent = [];
    E.forEach(function (e, i) {
      var p = i - 1;
      if (e.prev !== undefined) {
        p = typeof e.prev === "number" ? e.prev : -1;
        if (typeof e.prev === "string") E.forEach(function (x, k) { if (k < i && String(x.sid) === e.prev) p = k; });
      }
      parent[i] = p;
      if (p >= 0) kids[p].push(i);
    });
    return { kids: kids, parent: parent };
  }

  function gamePage(app) {
    var q = params();
    var out = el("div", { class: "explorer" }), boardBox = el("div", { class: "board-box", id: "board" });
    var info = el("div", { class: "ex-side" }), movesList = el("ol", { class: "game-moves", id: "game-moves", start: "0" });
    var comment = el("p", { class: "comment", id: "comment" }), numbers = el("div", { id: "table" });
    var forks = el("div", { class: "forks", id: "forks" });
    var controls = el("div", { class: "controls" });
    var back = el("button", { id: "back", type: "button" }, "◀"), fwd = el("button", { id: "forward", type: "button" }, "▶");
    add(controls, back, fwd);
    add(app, add(out, add(el("div", { class: "ex-main" }), boardBox, controls, forks, comment), info));
    var head = el("p", { class: "game-head", id: "game-head" });
    add(info, head, numbers, movesList);
    api("game", new URLSearchParams({ file: q.get("file") || "", game: q.get("game") || "1" })).then(function (d) {
      var E = d.positions, tr = gameTree(E), line = [], cur = 0;
      var h = E[0].header || {};
      head.textContent = (h["先手"] || h["下手"] || "?") + " - " + (h["後手"] || h["上手"] || "?") +
        (h["棋戦"] ? " · " + h["棋戦"] : "") + (h["開始日時"] ? " · " + h["開始日時"] : "");
      /* The line through entry k: its way from the start, then each first continuation. */
      function lineThrough(k) {
        var l = [];
        for (var x = k; x >= 0; x = tr.parent[x]) l.unshift(x);
        for (var y = k; tr.kids[y].length; y = tr.kids[y][0]) l.push(tr.kids[y][0]);
        return l;
      }
      function drawLine() {
        clear(movesList);
        line.forEach(function (k, i) {
          var li = add(el("li", { "data-ply": i, "data-entry": k }), el("span", null, i ? E[k].move : "開始局面"));
          if (i && tr.kids[tr.parent[k]].length > 1) li.classList.add("fork");
          li.addEventListener("click", function () { show(k, true); });
          add(movesList, li);
        });
      }
      function show(k, push) {
        if (line.indexOf(k) < 0) line = lineThrough(k), drawLine();
        cur = k;
        var i = line.indexOf(k);
        if (push) {
          q.set("ply", i);
          if (lineThrough(k).join() === lineThrough(0).slice(0, i + 1).join()) q.delete("entry");
          else q.set("entry", k);
          history.pushState(null, "", "/game?" + q.toString());
        }
        var e = E[k];
        clear(boardBox);
        var bo = { sides: [h["先手"] || h["下手"] || "先手", h["後手"] || h["上手"] || "後手"] };
        if (e.usi && e.usi.length >= 4) bo.last = sqOf(e.usi.slice(2, 4));
        add(boardBox, boardNode(e, bo));
        comment.textContent = (e.comments || []).join("\n");
        Array.prototype.forEach.call(movesList.children, function (li) {
          li.classList.toggle("cur", +li.getAttribute("data-entry") === k);
        });
        /* The forks: every move the record gives from here, the one this line plays marked. */
        clear(forks);
        if (tr.kids[k].length > 1) {
          add(forks, el("span", null, "Variations: "));
          tr.kids[k].forEach(function (c) {
            var b = el("button", { type: "button", class: "fork-move" + (line.indexOf(c) >= 0 ? " on" : ""), "data-entry": c }, E[c].move);
            b.addEventListener("click", function () { show(c, true); });
            add(forks, b);
          });
        }
        document.body.setAttribute("data-ply", i);
        api("explore", new URLSearchParams({ sfen: sfenOf(e) })).then(function (x) {
          if (cur !== k) return;
          clear(numbers);
          add(numbers, el("p", { id: "status", "data-games": x.games }, x.games + " games reached this position"),
            add(el("p"), link("/explore", new URLSearchParams({ sfen: sfenOf(e) }), "Open this position in the explorer")),
            movesTable(x, function (usi) {
              tr.kids[k].forEach(function (c) { if (E[c].usi === usi) show(c, true); });
            }));
          document.body.setAttribute("data-ready", "ply" + i);
        });
      }
      function fromUrl() {
        q = params();
        var k = +(q.get("entry") || -1);
        if (!(k >= 0 && k < E.length)) {
          var main = lineThrough(0);
          k = main[Math.max(0, Math.min(main.length - 1, +(q.get("ply") || 0) || 0))];
        }
        show(k, false);
      }
      line = lineThrough(0);
      drawLine();
      back.addEventListener("click", function () { if (tr.parent[cur] >= 0) show(tr.parent[cur], true); });
      fwd.addEventListener("click", function () {
        var i = line.indexOf(cur);
        if (i + 1 < line.length) show(line[i + 1], true);
      });
      window.addEventListener("popstate", fromUrl);
      fromUrl();
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
