/* viewer.js: kifu's replay page. Written for kifu (no library): it reads the records that
 * `kifu html` embeds as posjson (the position-list format: bd, cb, cw, sid, mv, and kifu's
 * turn, ply, move, usi, time, comments, bookmarks, end, prev, header), turns each back
 * into a tree of positions and steps through it; the board itself is board.js's
 * (KifuBoard), which any other page of kifu may use alone.
 *
 * Aids, after the position-list document: trace (the footprints one piece leaves as the
 * record steps on), match (positions matching a board pattern, the syntax of `kifu
 * search`, with the squares the pattern fixed), filter (hide piece kinds), mvlight
 * (last-move highlight), bwcolor (squares tinted by owner). Positions are reached by the
 * URL fragment: #ply=12,1 (kifu's path), #sid=q1-ok (a document's ID), #bookmark=NAME. */
(function () {
  "use strict";

  var KB = window.KifuBoard;
  var piece = KB.piece, letter = KB.letter, esc = KB.esc, handCounts = KB.handCounts;
  var KANJI = KB.KANJI, INTL = KB.INTL;
  var SENTE = KB.SENTE, LETTERS = "o";
  for (var li = 0; li < SENTE.length; li++)
    LETTERS += SENTE.charAt(li) + String.fromCharCode(SENTE.charCodeAt(li) + 1);

  /* ---- Patterns: the grid of `kifu search --pattern`, or a regular expression ---- */

  var PIECE_NAMES = { "歩": 0, "香": 1, "桂": 2, "銀": 3, "金": 4, "角": 5, "飛": 6,
    "と": 7, "杏": 8, "圭": 9, "全": 10, "馬": 11, "龍": 12, "竜": 12, "玉": 13, "王": 13,
    "成香": 8, "成桂": 9, "成銀": 10 };
  var ANY_S = "[acegikmsu1357q]", ANY_G = "[bdfhjlntv2468r]";

  /* {re, hand: [null|counts, null|counts], empty: [bool, bool], side: -1|0|1}, or
   * throws an Error naming the line. */
  function compilePattern(text) {
    text = text.replace(/\r\n?/g, "\n");
    if (text.indexOf("\n") < 0 && text.trim().charAt(0) !== "|")
      return { re: new RegExp(text), hand: [null, null], empty: [false, false], side: -1 };
    var expr = "^", rows = 0, hand = [null, null], empty = [false, false], side = -1;
    var lines = text.split("\n");
    for (var ln = 0; ln < lines.length; ln++) {
      var line = lines[ln], t = line.replace(/^[ \u3000\t]+/, "");
      if (!t || t.charAt(0) === "#" || /^\+-+\+$/.test(t) || /^[１-９ \u3000]+$/.test(t)) continue;
      var hm = /^(先手|下手|後手|上手)の?持駒[：:](.*)$/.exec(t);
      if (hm) {
        var c = hm[1] === "先手" || hm[1] === "下手" ? 0 : 1;
        var body = hm[2].replace(/[ \u3000、]/g, "");
        var counts = [0, 0, 0, 0, 0, 0, 0];
        if (body === "なし") empty[c] = true;
        else {
          var re = /(歩|香|桂|銀|金|角|飛)([一二三四五六七八九十]*)/g, m;
          while ((m = re.exec(body))) counts[PIECE_NAMES[m[1]]] += kanjiCount(m[2]);
        }
        hand[c] = counts;
        continue;
      }
      if (/^(先手|下手)番/.test(t)) { side = 0; continue; }
      if (/^(後手|上手)番/.test(t)) { side = 1; continue; }
      var s = t.replace(/^\|/, "").replace(/\|.*$/, ""), cells = 0, i = 0;
      while (cells < 9) {
        while (i < s.length && /[ \u3000\t]/.test(s[i])) i++;
        if (i >= s.length) break;
        var owner = -1;
        if (s[i] === "v" || s[i] === "V") { owner = 1; i++; }
        else if (s[i] === "^") { owner = 0; i++; }
        var ch = s[i], two = s.substr(i, 2);
        if (ch === "・" || ch === ".") { expr += "o"; i++; }
        else if (ch === "*" || ch === "＊") {
          expr += owner === 1 ? "[bdfhjlntv2468ro]" : owner === 0 ? "[acegikmsu1357qo]" : ".";
          i++;
        } else if (ch === "?" || ch === "？") {
          expr += owner === 1 ? ANY_G : owner === 0 ? ANY_S : "[^o]";
          i++;
        } else if (PIECE_NAMES[two] !== undefined) {
          expr += letter(PIECE_NAMES[two], owner === 1 ? 1 : 0); i += 2;
        } else if (PIECE_NAMES[ch] !== undefined) {
          expr += letter(PIECE_NAMES[ch], owner === 1 ? 1 : 0); i++;
        } else throw new Error("line " + (ln + 1) + ": bad cell '" + ch + "'");
        cells++;
      }
      if (cells !== 9) throw new Error("line " + (ln + 1) + ": a row needs nine cells");
      if (++rows > 9) throw new Error("line " + (ln + 1) + ": more than nine rows");
    }
    if (rows !== 9) throw new Error("the grid has " + rows + " rows, not 9");
    return { re: new RegExp(expr), hand: hand, empty: empty, side: side };
  }
  function kanjiCount(s) {
    if (!s) return 1;
    var d = "一二三四五六七八九", n = 0, cur = 0;
    for (var i = 0; i < s.length; i++) {
      if (s[i] === "十") { n += (cur || 1) * 10; cur = 0; }
      else cur = d.indexOf(s[i]) + 1;
    }
    return n + cur;
  }
  /* The position turned 180 degrees with the owners swapped. */
  function flipNode(n) {
    var bd = "";
    for (var i = 80; i >= 0; i--) {
      var p = piece(n.bd[i]);
      bd += p ? letter(p.kind, 1 - p.color) : "o";
    }
    var swap = function (s) {
      return (s || "").replace(/./g, function (c) {
        var p = piece(c);
        return p ? letter(p.kind, 1 - p.color) : c;
      });
    };
    return { bd: bd, cb: swap(n.cw), cw: swap(n.cb), turn: n.turn === "w" ? "b" : "w" };
  }
  function matchOne(pat, n) {
    if (pat.side >= 0 && (n.turn === "w" ? 1 : 0) !== pat.side) return false;
    var hands = [handCounts(n.cb), handCounts(n.cw)];
    for (var c = 0; c < 2; c++) {
      if (!pat.hand[c]) continue;
      for (var k = 0; k < 7; k++)
        if (pat.empty[c] ? hands[c][k] !== 0 : hands[c][k] < pat.hand[c][k]) return false;
    }
    return pat.re.test(n.bd);
  }
  function matches(pat, n, both) {
    return matchOne(pat, n) || (both && matchOne(pat, flipNode(n)));
  }

  /* ---- posjson to the viewer's tree ---- */

  /* 1-based bd index of a USI square ("7g" is file 7, rank 7). */
  function usiSquare(s) {
    return (s.charCodeAt(1) - 97) * 9 + (9 - (+s[0])) + 1;
  }
  function clock(t, hours) {
    var s = Math.floor(t), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return hours ? two(h) + ":" + two(m) + ":" + two(s % 60)
      : Math.floor(s / 60) + ":" + two(s % 60);
  }
  function timeText(t) {
    if (!t) return "";
    return clock(t.now, false) + (t.total !== undefined ? "/" + clock(t.total, true) : "");
  }

  /* A record of the page: {positions: [posjson entries], result} becomes {title, info,
   * sides, nodes, sids, bookmarks}, nodes[i] = {parent, children, ply, bd, cb, cw, turn,
   * mv, from, move, usi, special, comments, bookmarks, time, sid}. An entry follows the
   * one before it unless it names its `prev` (an entry's index, or a sid); an ending
   * (`end`: its word, or {word, time, comments, bookmarks, sid}) on a move's entry becomes
   * a node of its own after it, as the record has it; `words` gives an ending word's
   * text (TORYO: 投了). sids maps each given sid to its node, bookmarks lists [name,
   * node] in the order of the record. */
  function fromPositions(rec, words) {
    var list = rec.positions || [], nodes = [], byIndex = [], sids = {}, marks = [];
    function endWord(e) { return typeof e.end === "object" && e.end ? e.end.word : e.end; }
    // A sid reaches its node (#sid=); a node keeps it as its name in the URL only when a
    // document gave it (a string, or a number other than the entry's index, which is
    // what kifu writes for a position the document did not name).
    function note(n, k, src, i) {
      n.comments = src.comments;
      n.bookmarks = src.bookmarks;
      if (src.sid !== undefined) {
        sids[String(src.sid)] = k;
        if (src.sid !== i) n.sid = String(src.sid);
      }
      (src.bookmarks || []).forEach(function (b) { marks.push([b, k]); });
    }
    list.forEach(function (e, i) {
      var prev = e.prev;
      if (typeof prev === "string")
        for (var j = i - 1; j >= 0; j--) if (String(list[j].sid) === prev) { prev = j; break; }
      var parent = i === 0 || e.game !== undefined ? -1 :
        byIndex[typeof prev === "number" ? prev : i - 1];
      if (parent === undefined) parent = -1;
      var word = endWord(e);
      var isEnd = parent >= 0 && word !== undefined && e.move === undefined &&
        nodes[parent].bd === e.bd;
      var n = { parent: parent, children: [], ply: e.ply || 0, bd: e.bd, cb: e.cb || "",
        cw: e.cw || "", turn: e.turn || "b", mv: e.mv || 0, from: 0, move: e.move,
        usi: e.usi, time: timeText(e.time) };
      if (e.usi && e.usi.charAt(1) !== "*") n.from = usiSquare(e.usi.substr(0, 2));
      if (isEnd) { n.special = words[word] || word; n.mv = 0; n.ply = nodes[parent].ply + 1; }
      var k = nodes.length;
      nodes.push(n);
      note(n, k, e, i);
      if (parent >= 0) nodes[parent].children.push(k);
      byIndex[i] = k;
      if (word !== undefined && !isEnd) {
        var eo = typeof e.end === "object" && e.end ? e.end : {};
        var end = { parent: k, children: [], ply: n.ply + 1, bd: n.bd, cb: n.cb, cw: n.cw,
          turn: n.turn, mv: 0, from: 0, special: words[word] || word, time: timeText(eo.time) };
        nodes.push(end);
        note(end, k + 1, eo, -1);
        n.children.push(k + 1);
      }
    });
    var h = (list[0] && list[0].header) || {}, info = [];
    // A handicap game whose sides the record did not name in words (CSA's N+ and N-,
    // kept as 先手/後手) shows them as 下手/上手 (html.c sends sideWords), as its KIF does.
    var sw = rec.sideWords;
    Object.keys(h).forEach(function (key) {
      info.push([sw && key === "先手" ? sw[0] : sw && key === "後手" ? sw[1] : key, h[key]]);
    });
    var b = h["先手"] || h["下手"], w = h["後手"] || h["上手"];
    // The result, as kifu show says it (html.c: "まで117手で上手の勝ち"); a page of
    // other making: the ending that closes the main line.
    var result = rec.result;
    if (!result) {
      var last = 0;
      while (nodes.length && nodes[last].children.length) last = nodes[last].children[0];
      if (nodes.length && nodes[last].special)
        result = "まで" + (nodes[last].ply - 1) + "手で" + nodes[last].special;
    }
    if (result && !h["結果"]) info.push(["結果", result]);
    return { title: b && w ? "☗" + b + " 対 ☖" + w : h["棋戦"] || "",
      info: info, sides: b && w ? [b, w] : null, sideWords: rec.sideWords, nodes: nodes, sids: sids, bookmarks: marks,
      caption: list[0] && list[0].comments ? list[0].comments[0] : "" };
  }

  /* ---- One viewer: a record, a cursor and the aids ---- */

  function Viewer(root, data, rec) {
    this.root = root;
    this.data = data;
    this.flip = !!data.options.flip;
    this.intl = !!data.options.intl;
    this.twoChar = !!data.options.twoChar;
    this.style = data.options.pieces === "plain" ? "plain" : "koma";
    this.mvlight = true;
    this.bwcolor = false;
    this.hidden = {};
    this.trace = null;
    this.pattern = null;
    this.both = false;
    this.build();
    this.setRecord(rec);
  }

  Viewer.prototype.build = function () {
    var self = this;
    this.root.className = "kifu-viewer";
    this.root.innerHTML =
      '<div class="kifu-main"><p class="kifu-title"></p><div class="kifu-header"></div>' +
      '<div class="kifu-svg"></div><div class="kifu-controls">' +
      '<button data-go="start" title="Home">|&lt;</button>' +
      '<button data-go="-10" title="PageUp">&lt;&lt;</button>' +
      '<button data-go="-1" title="←">&lt;</button>' +
      '<button data-go="1" title="→">&gt;</button>' +
      '<button data-go="10" title="PageDown">&gt;&gt;</button>' +
      '<button data-go="end" title="End">&gt;|</button>' +
      '<button data-go="flip" title="flip">⇅</button></div></div>' +
      '<div class="kifu-side"><div class="kifu-forks"></div>' +
      '<div class="kifu-comment"></div><div class="kifu-bookmarks"></div>' +
      '<ol class="kifu-moves"></ol>' +
      '<div class="kifu-aids">' +
      '<label><input type="checkbox" data-aid="mvlight" checked> mvlight</label>' +
      '<label><input type="checkbox" data-aid="bwcolor"> bwcolor</label>' +
      '<label><input type="checkbox" data-aid="trace"> trace</label>' +
      '<label><input type="checkbox" data-aid="intl"' + (this.intl ? " checked" : "") +
      "> ABC</label>" +
      '<label><input type="checkbox" data-aid="koma"' + (this.style === "koma" ? " checked" : "") +
      "> 駒</label>" +
      '<span class="kifu-filter">filter: ' +
      [0, 1, 2, 3, 4, 5, 6, 13].map(function (k) {
        // Both names: the filter reads the same in either piece set.
        return '<label title="' + INTL[k] + '"><input type="checkbox" data-kind="' + k +
          '" checked>' + KANJI[k] + "<small>" + INTL[k] + "</small></label>";
      }).join(" ") + "</span>" +
      '<textarea rows="3" class="kifu-pattern" placeholder="match: a regular expression over ' +
      'bd, or a 9-row grid (* anything, ? any piece, ・ empty, v歩 gote)"></textarea>' +
      '<label><input type="checkbox" data-aid="both"> either side</label>' +
      '<button data-go="next-match">next match</button><span class="kifu-match-info">' +
      "</span></div></div>";
    this.q(".kifu-controls").addEventListener("click", function (e) {
      var g = e.target.getAttribute("data-go");
      if (g) self.command(g);
    });
    this.q(".kifu-aids").addEventListener("change", function (e) {
      var t = e.target, aid = t.getAttribute("data-aid"), kind = t.getAttribute("data-kind");
      if (aid === "trace") { self.tracing = t.checked; self.trace = null; }
      else if (aid === "intl") self.intl = t.checked;
      else if (aid === "koma") self.style = t.checked ? "koma" : "plain";
      else if (aid === "both") { self.both = t.checked; self.runMatch(); }
      else if (aid) self[aid] = t.checked;
      if (kind !== null) self.hidden[kind] = !t.checked;
      self.render();
    });
    this.q(".kifu-aids").addEventListener("click", function (e) {
      if (e.target.getAttribute("data-go") === "next-match") self.command("next-match");
    });
    this.q(".kifu-pattern").addEventListener("input", function () { self.runMatch(); self.render(); });
    this.q(".kifu-moves").addEventListener("click", function (e) {
      var li = e.target.closest("li");
      if (li) self.go(+li.getAttribute("data-node"));
    });
    this.q(".kifu-forks").addEventListener("click", function (e) {
      var n = e.target.getAttribute("data-node");
      if (n !== null) self.go(+n);
    });
    this.q(".kifu-bookmarks").addEventListener("click", function (e) {
      var n = e.target.getAttribute("data-node");
      if (n !== null) self.go(+n);
    });
    this.q(".kifu-svg").addEventListener("click", function (e) { self.boardClick(e); });
    this.root.addEventListener("pointerdown", function () { active = self; });
  };

  Viewer.prototype.q = function (sel) { return this.root.querySelector(sel); };

  Viewer.prototype.setRecord = function (i) {
    this.ri = i;
    this.rec = this.data.records[i];
    this.choice = {}; // node -> chosen child, for the line ahead
    this.listKey = null; // the move list is of another record now
    this.trace = null;
    var r = this.rec;
    this.q(".kifu-title").textContent = r.title || "";
    var h = "";
    (r.info || []).forEach(function (kv) {
      h += "<span>" + esc(kv[0]) + "：" + esc(kv[1]) + "</span>";
    });
    this.q(".kifu-header").innerHTML = h;
    // Bookmarks (KIF `&`): each a button to its position, as #bookmark=NAME reaches it.
    var bm = (r.bookmarks || []).map(function (b) {
      return '<button data-node="' + b[1] + '" title="#bookmark=' + esc(b[0]) + '">&amp;' +
        esc(b[0]) + "</button>";
    }).join("");
    this.q(".kifu-bookmarks").innerHTML = bm ? "<span>栞 </span>" + bm : "";
    this.runMatch();
    this.go(0);
  };

  /* The line through the cursor: back to the root, and ahead by the chosen children. */
  Viewer.prototype.line = function () {
    var nodes = this.rec.nodes, out = [], n = this.cur;
    while (n >= 0) { out.unshift(n); n = nodes[n].parent; }
    n = this.cur;
    while (nodes[n].children && nodes[n].children.length) {
      n = nodes[n].children[this.choice[n] || 0];
      out.push(n);
    }
    return out;
  };

  Viewer.prototype.go = function (n) {
    var nodes = this.rec.nodes;
    if (n < 0 || n >= nodes.length) return;
    // Remember the way to n, so the line ahead of the parents goes through it.
    for (var c = n; nodes[c].parent >= 0; c = nodes[c].parent)
      this.choice[nodes[c].parent] = nodes[nodes[c].parent].children.indexOf(c);
    this.cur = n;
    this.render();
    this.updateHash();
  };

  Viewer.prototype.command = function (g) {
    var nodes = this.rec.nodes, n = nodes[this.cur], line = this.line();
    var at = line.indexOf(this.cur);
    if (g === "flip") { this.flip = !this.flip; this.render(); return; }
    if (g === "start") return this.go(line[0]);
    if (g === "end") return this.go(line[line.length - 1]);
    if (g === "next-match") {
      for (var i = at + 1; i < line.length; i++)
        if (this.matched[line[i]]) return this.go(line[i]);
      return;
    }
    var step = +g;
    var to = Math.max(0, Math.min(line.length - 1, at + step));
    if (n && to !== at) this.go(line[to]);
  };

  Viewer.prototype.ply = function () { return this.rec.nodes[this.cur].ply; };

  /* kifu's path of the cursor: "PLY" or "PLY,C1,C2..." (the child taken at each
   * branching point on the way). */
  Viewer.prototype.path = function () {
    var nodes = this.rec.nodes, choices = [], n = this.cur;
    while (nodes[n].parent >= 0) {
      var p = nodes[n].parent;
      if (nodes[p].children.length > 1) choices.unshift(nodes[p].children.indexOf(n));
      n = p;
    }
    while (choices.length && choices[choices.length - 1] === 0) choices.pop();
    // The path counts steps from the record's start; a node's ply counts moves from the
    // game's first (posjson: a record that starts at move 6 starts at ply 5).
    return [this.ply() - nodes[n].ply].concat(choices).join(",");
  };

  Viewer.prototype.goPath = function (path) {
    var parts = String(path).split(",").map(Number), ply = parts[0], k = 1;
    var nodes = this.rec.nodes, n = 0;
    for (var d = 0; d < ply; d++) {
      var ch = nodes[n].children || [];
      if (!ch.length) break;
      var i = ch.length > 1 ? parts[k++] || 0 : 0;
      n = ch[Math.min(i, ch.length - 1)];
    }
    this.go(n);
  };

  Viewer.prototype.updateHash = function () {
    if (!this.data.ownsHash) return;
    // A position the document named keeps its name in the URL (#sid=q1-ok).
    var sid = this.rec.nodes[this.cur].sid;
    var h = sid !== undefined ? "#sid=" + encodeURIComponent(sid) :
      "#ply=" + this.path() + (this.ri ? "&r=" + (this.ri + 1) : "");
    if (location.hash !== h) history.replaceState(null, "", h);
  };

  Viewer.prototype.runMatch = function () {
    this.matched = {};
    this.pattern = null;
    var info = this.q(".kifu-match-info"), text = this.q(".kifu-pattern").value;
    info.textContent = "";
    if (!text.trim()) return;
    try {
      this.pattern = compilePattern(text);
    } catch (e) {
      info.textContent = e.message;
      return;
    }
    var nodes = this.rec.nodes, count = 0;
    for (var i = 0; i < nodes.length; i++)
      // An ending repeats the position of its move: counted once, as kifu search does.
      if (!nodes[i].special && matches(this.pattern, nodes[i], this.both)) {
        this.matched[i] = true;
        count++;
      }
    info.textContent = count + " match" + (count === 1 ? "" : "es");
  };

  /* The trace of the piece chosen at node trace.start on square trace.sq, at node n: the
   * footprints it left on the way from there to n ({square: step number}, a square
   * visited twice shows its last step), the squares where it took a piece or was taken
   * (caps), and where it stands at n (at: 0 once taken). null when n is not on a line
   * through the start, or before it. */
  Viewer.prototype.traceAt = function (n) {
    var t = this.trace, nodes = this.rec.nodes;
    if (!t) return null;
    var path = [];
    while (n >= 0 && n !== t.start) { path.unshift(n); n = nodes[n].parent; }
    if (n !== t.start) return null;
    var sq = t.sq, foot = {}, caps = {}, steps = 0;
    for (var i = 0; i < path.length && sq; i++) {
      var m = nodes[path[i]];
      if (!m.mv) continue; // an ending: nothing moved
      if (m.from === sq) {
        steps++;
        if (nodes[m.parent].bd[m.mv - 1] !== "o") caps[m.mv] = 1;
        sq = m.mv;
        foot[sq] = steps;
      } else if (m.mv === sq) {
        caps[sq] = 1; // taken here: the trace ends
        sq = 0;
      }
    }
    return { foot: foot, caps: caps, at: sq, steps: steps };
  };

  /* The squares (1-based bd index) pattern fixed in the position of node n: those whose
   * letter the match depends on (any other letter there and it fails). Found by trying
   * every letter on every square, so a regular expression's fixed part is found as a
   * grid's is; with "either side", a match of the turned position marks the squares
   * turned back. */
  Viewer.prototype.fixedSquares = function (n) {
    var pat = this.pattern, node = this.rec.nodes[n], out = {};
    if (!pat || !this.matched[n]) return out;
    var turned = !matchOne(pat, node), pos = turned ? flipNode(node) : node;
    for (var i = 0; i < 81; i++) {
      var head = pos.bd.substr(0, i), tail = pos.bd.substr(i + 1);
      for (var k = 0; k < LETTERS.length; k++) {
        var c = LETTERS.charAt(k);
        if (c === pos.bd[i]) continue;
        if (!pat.re.test(head + c + tail)) { out[(turned ? 80 - i : i) + 1] = 1; break; }
      }
    }
    return out;
  };

  Viewer.prototype.boardClick = function (e) {
    var svg = this.q(".kifu-svg svg");
    if (!svg) return;
    var t = e.target;
    if (t.closest && t.closest("[data-side]")) { this.command("flip"); return; }
    var sq = KB.squareAt(svg, e.clientX, e.clientY, this.flip);
    if (this.tracing && sq && this.rec.nodes[this.cur].bd[sq - 1] !== "o") {
      this.trace = { start: this.cur, sq: sq };
      this.render();
      return;
    }
    // 電書 style: the left half goes back, the right half forward.
    var box = svg.getBoundingClientRect();
    this.command(e.clientX - box.left < box.width / 2 ? "-1" : "1");
  };

  /* A move in the western notation players who do not read kanji use ("P-7f", "Bx2b+",
   * "B*4e"), from its USI and the position before it; the kanji text otherwise. */
  Viewer.prototype.moveText = function (i) {
    var n = this.rec.nodes[i];
    if (!n.move) return n.special || (this.intl ? "start" : "開始局面");
    if (!this.intl || !n.usi || n.parent < 0) return n.move;
    var before = this.rec.nodes[n.parent].bd, u = n.usi;
    if (u.charAt(1) === "*") return u;
    var p = piece(before[usiSquare(u.substr(0, 2)) - 1]);
    return (p ? INTL[p.kind] : "") + (before[n.mv - 1] !== "o" ? "x" : "-") + u.substr(2, 2) +
      (u.charAt(4) === "+" ? "+" : "");
  };

  /* The SVG of node n (also for the catalogue's small diagrams), by KifuBoard. */
  Viewer.prototype.svg = function (n, small) {
    var node = this.rec.nodes[n], o = {
      id: n, small: !!small, flip: small ? false : this.flip, style: this.style,
      intl: this.intl, twoChar: this.twoChar, hidden: this.hidden, bwcolor: this.bwcolor,
      sides: this.rec.sides || (this.intl ? null : this.rec.sideWords)
    };
    if (!small) {
      if (this.mvlight) { o.last = node.mv; o.from = node.from; }
      var tr = this.traceAt(n);
      if (tr) { o.foot = tr.foot; o.caps = tr.caps; o.at = tr.at; }
      if (this.pattern && this.matched[n]) { o.matchFrame = true; o.matchSq = this.fixedSquares(n); }
      o.caption = this.intl ? (node.move ? "after " + node.ply + ". " + this.moveText(n) : "start")
        : node.move ? "図は" + node.move.replace(/\(\d+\)$/, "") + "まで" : "開始局面";
    }
    return KB.svg(node, o);
  };

  Viewer.prototype.render = function () {
    var nodes = this.rec.nodes, node = nodes[this.cur], self = this;
    this.q(".kifu-svg").innerHTML = this.svg(this.cur);
    // The move list of the current line: built again only when the line, the matches or
    // the notation change (laying out hundreds of moves is most of a step's time);
    // otherwise only the current mark moves.
    var line = this.line(), list = this.q(".kifu-moves");
    var key = line.join(",") + "|" + Object.keys(this.matched).join(",") + "|" + this.intl;
    if (key !== this.listKey) {
      var html = "";
      line.forEach(function (i) {
        var n = nodes[i];
        var forks = n.parent >= 0 && nodes[n.parent].children.length > 1;
        html += '<li data-node="' + i + '"' + (self.matched[i] ? ' class="match"' : "") + ">" +
          n.ply + " " + esc(self.moveText(i)) +
          (n.time ? " <small>" + esc(n.time) + "</small>" : "") +
          (forks ? '<span class="fork">+</span>' : "") +
          (n.bookmarks || []).map(function (b) {
            return ' <span class="bookmark">&amp;' + esc(b) + "</span>";
          }).join("") + "</li>";
      });
      list.innerHTML = html;
      this.listKey = key;
    }
    var old = list.querySelector("li.current");
    if (old) old.classList.remove("current");
    var li = list.querySelector('li[data-node="' + this.cur + '"]');
    if (li) {
      li.classList.add("current");
      var top = li.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top + li.offsetHeight > list.scrollTop + list.clientHeight)
        list.scrollTop = top - list.clientHeight / 2;
    }
    // Forks: the alternatives to the current move, and to the next one.
    var fk = "";
    function alts(parent, title) {
      var ch = nodes[parent].children || [];
      if (ch.length < 2) return "";
      var chosen = self.choice[parent] || 0;
      return "<div>" + title + ch.map(function (c, k) {
        return '<button data-node="' + c + '" class="' + (k === chosen ? "chosen" : "") + '">' +
          esc(self.moveText(c)) + "</button>";
      }).join("") + "</div>";
    }
    if (node.parent >= 0) fk += alts(node.parent, "変化 ");
    fk += alts(this.cur, "次の手 ");
    this.q(".kifu-forks").innerHTML = fk;
    var note = (node.comments || []).join("\n");
    if (node.special) note = node.special + (note ? "\n" + note : "");
    if (node.bookmarks && node.bookmarks.length)
      note = node.bookmarks.map(function (b) { return "& " + b; }).join("\n") +
        (note ? "\n" + note : "");
    this.q(".kifu-comment").innerHTML = linkify(note);
  };

  /* Comments may link to positions: "#ply=42", "#sid=q1-ok" and "#bookmark=NAME" words
   * become links (the text is escaped first; a link's target is the escaped word). */
  function linkify(text) {
    return esc(text).replace(/#(ply=[0-9,]+|(?:sid|bookmark)=[^\s<>"'&]+)/g,
      '<a href="#$1">#$1</a>');
  }

  /* ---- The page ---- */

  var viewers = [], active = null;

  /* The viewer, record and node a name reaches: a sid (#sid=) or a bookmark
   * (#bookmark=), searched in record ri first, then in every record of the page. */
  function findNamed(kind, name, ri) {
    var v0 = viewers[0];
    if (!v0) return null;
    var recs = v0.data.records, order = [];
    if (ri >= 0 && ri < recs.length) order.push(ri);
    for (var i = 0; i < recs.length; i++) if (i !== ri) order.push(i);
    for (var k = 0; k < order.length; k++) {
      var rec = recs[order[k]], node;
      if (kind === "sid") node = (rec.sids || {})[name];
      else (rec.bookmarks || []).some(function (b) { return b[0] === name && (node = b[1], true); });
      if (node !== undefined) {
        var v = viewers.length > 1 ? viewers[Math.min(order[k], viewers.length - 1)] : v0;
        return { v: v, ri: order[k], node: node };
      }
    }
    return null;
  }

  function onHash(hash) {
    if (typeof hash !== "string") hash = location.hash;
    var m = /ply=([0-9,]+)/.exec(hash), r = /[&?]r=(\d+)/.exec(hash);
    var named = /^#(sid|bookmark)=([^&]*)/.exec(hash);
    var ri = r ? +r[1] - 1 : 0, v = viewers[0];
    if (named) {
      var name;
      try { name = decodeURIComponent(named[2]); } catch (e) { name = named[2]; }
      var at = findNamed(named[1], name, r ? ri : -1);
      if (!at) return;
      if (at.v.ri !== at.ri) at.v.setRecord(at.ri);
      at.v.go(at.node);
      active = at.v;
      return;
    }
    if (!m) return;
    if (viewers.length > 1) v = viewers[Math.min(ri, viewers.length - 1)];
    else if (v && ri !== v.ri && ri < v.data.records.length) v.setRecord(ri);
    if (v) { v.goPath(m[1]); active = v; }
  }

  function keys(e) {
    var v = active || viewers[0];
    // Keys step the board unless they are typing (a checkbox in focus still steps).
    var t = e.target, typing = t.tagName === "TEXTAREA" ||
      (t.tagName === "INPUT" && !/^(checkbox|radio|button)$/.test(t.type));
    if (!v || typing) return;
    var map = { ArrowLeft: "-1", ArrowRight: "1", Home: "start", End: "end",
      PageUp: "-10", PageDown: "10" };
    if (map[e.key]) { v.command(map[e.key]); e.preventDefault(); }
  }

  function catalogue(data, host) {
    var grid = document.createElement("div");
    grid.className = "kifu-catalogue";
    host.appendChild(grid);
    var main = document.createElement("div");
    host.appendChild(main);
    var v = new Viewer(main, data, 0);
    viewers.push(v);
    data.records.forEach(function (rec, i) {
      var f = document.createElement("figure"), tmp = Object.create(v);
      tmp.rec = rec; tmp.trace = null; tmp.pattern = null; tmp.matched = {};
      f.innerHTML = tmp.svg(0, true) + "<figcaption>" + esc(rec.title || rec.caption || "第" + (i + 1) + "図") +
        "</figcaption>";
      f.setAttribute("data-record", i);
      f.addEventListener("click", function () {
        v.setRecord(i);
        main.scrollIntoView({ block: "start" });
      });
      grid.appendChild(f);
    });
  }

  function start() {
    var el = document.getElementById("kifu-data");
    if (!el) return;
    var data = JSON.parse(el.textContent), host = document.getElementById("kifu");
    data.options = data.options || {};
    // The fragment the page was opened with: the viewers write theirs only once built.
    var opened = location.hash;
    data.ownsHash = false;
    data.records = data.records.map(function (r) {
      return r.positions ? fromPositions(r, data.words || {}) : r;
    });
    if (data.catalogue) catalogue(data, host);
    else data.records.forEach(function (rec, i) {
      var div = document.createElement("div");
      host.appendChild(div);
      viewers.push(new Viewer(div, data, i));
    });
    active = viewers[0] || null;
    data.ownsHash = true;
    window.addEventListener("hashchange", onHash);
    document.addEventListener("keydown", keys);
    onHash(opened);
    window.kifuViewers = viewers; // for tests and for pages that embed the viewer
    window.kifuPattern = compilePattern;
    // When the boards are drawn, for `make bench` (first paint and this, in Chromium).
    if (window.performance && performance.mark) performance.mark("kifu-ready");
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
