/* viewer.js: kifu's replay page. Written for kifu (no library): it reads the records that
 * `kifu html` embeds as posjson (the position-list format: bd, cb, cw, sid, mv, and kifu's
 * turn, ply, move, usi, time, comments, end, prev, header), turns each back into a tree
 * of positions, draws the board as SVG and steps through it.
 *
 * Aids, after the position-list document: trace (footprints of one piece), match
 * (positions matching a board pattern, the syntax of `kifu search`), filter (hide piece
 * kinds), mvlight (last-move highlight), bwcolor (squares tinted by owner). */
(function () {
  "use strict";

  // Letters of the position-list format: sente's, gote's is the next character.
  var SENTE = "acegikm1357qsu";
  var KANJI = ["歩", "香", "桂", "銀", "金", "角", "飛", "と", "杏", "圭", "全", "馬", "龍", "玉"];
  var KANJI2 = ["歩", "香", "桂", "銀", "金", "角", "飛", "と", "成香", "成桂", "成銀", "馬", "龍", "玉"];
  var INTL = ["P", "L", "N", "S", "G", "B", "R", "+P", "+L", "+N", "+S", "+B", "+R", "K"];
  var BASE = [0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 5, 6, 13]; // a promoted kind's base kind
  var HAND_ORDER = [6, 5, 4, 3, 2, 1, 0]; // 飛 角 金 銀 桂 香 歩, as KIF lists a hand
  var NUM = ["", "", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二",
    "十三", "十四", "十五", "十六", "十七", "十八"];
  var FILES = "１２３４５６７８９", RANKS = "一二三四五六七八九";
  var CELL = 40, X0 = 12, Y0 = 64, SVGNS = "http://www.w3.org/2000/svg";

  /* A letter as {kind (0..13, the order above), color (0 sente, 1 gote)}, or null. */
  function piece(ch) {
    var i = SENTE.indexOf(ch);
    if (i >= 0) return { kind: i, color: 0 };
    for (i = 0; i < SENTE.length; i++)
      if (String.fromCharCode(SENTE.charCodeAt(i) + 1) === ch) return { kind: i, color: 1 };
    return null;
  }
  function letter(kind, color) {
    return String.fromCharCode(SENTE.charCodeAt(kind) + color);
  }
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function handCounts(s) {
    var n = [0, 0, 0, 0, 0, 0, 0];
    for (var i = 0; i < (s || "").length; i++) {
      var p = piece(s[i]);
      if (p && p.kind < 7) n[p.kind]++;
    }
    return n;
  }

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

  /* A record of the page: {positions: [posjson entries]} becomes {title, info, sides,
   * nodes}, nodes[i] = {parent, children, ply, bd, cb, cw, turn, mv, from, move, usi,
   * special, comments, time}. An entry follows the one before it unless it names its
   * `prev`; an ending (`end`) on a move's entry becomes a node of its own after it, as
   * the record has it; `words` gives an ending word's text (TORYO: 投了). */
  function fromPositions(rec, words) {
    var list = rec.positions || [], nodes = [], at = {};
    list.forEach(function (e, i) {
      var parent = i === 0 ? -1 : at[e.prev !== undefined ? e.prev : list[i - 1].sid];
      var isEnd = i > 0 && e.end !== undefined && e.move === undefined;
      var n = { parent: parent, children: [], ply: e.ply || 0, bd: e.bd, cb: e.cb || "",
        cw: e.cw || "", turn: e.turn || "b", mv: e.mv || 0, from: 0, move: e.move,
        usi: e.usi, comments: e.comments, time: timeText(e.time) };
      if (e.usi && e.usi.charAt(1) !== "*") n.from = usiSquare(e.usi.substr(0, 2));
      if (isEnd) { n.special = words[e.end] || e.end; n.mv = 0; }
      var k = nodes.length;
      nodes.push(n);
      if (parent >= 0) nodes[parent].children.push(k);
      at[e.sid !== undefined ? e.sid : i] = k;
      if (e.end !== undefined && !isEnd) {
        var end = { parent: k, children: [], ply: n.ply + 1, bd: n.bd, cb: n.cb, cw: n.cw,
          turn: n.turn, mv: 0, from: 0, special: words[e.end] || e.end };
        nodes.push(end);
        n.children.push(k + 1);
      }
    });
    var h = (list[0] && list[0].header) || {}, info = [];
    Object.keys(h).forEach(function (key) { info.push([key, h[key]]); });
    var b = h["先手"] || h["下手"], w = h["後手"] || h["上手"];
    // The result: the ending that closes the main line, as KIF's まで line says it.
    var last = 0;
    while (nodes.length && nodes[last].children.length) last = nodes[last].children[0];
    if (nodes.length && nodes[last].special && !h["結果"])
      info.push(["結果", "まで" + (nodes[last].ply - 1) + "手で" + nodes[last].special]);
    // The sides' words are the record's: 下手/上手 when it names them, 先手/後手 when it
    // names those, 下手/上手 in a handicap game that names neither (as kifu writes KIF).
    var hc = "下手" in h || "上手" in h ||
      (!("先手" in h) && !("後手" in h) && h["手合割"] && h["手合割"] !== "平手");
    return { title: b && w ? "☗" + b + " 対 ☖" + w : h["棋戦"] || "",
      info: info, sides: b && w ? [b, w] : null, nodes: nodes,
      words: hc ? ["下手", "上手"] : ["先手", "後手"],
      caption: list[0] && list[0].comments ? list[0].comments[0] : "" };
  }

  /* ---- One viewer: a record, a cursor and the aids ---- */

  function Viewer(root, data, rec) {
    this.root = root;
    this.data = data;
    this.flip = !!data.options.flip;
    this.intl = !!data.options.intl;
    this.twoChar = !!data.options.twoChar;
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
      '<div class="kifu-comment"></div><ol class="kifu-moves"></ol>' +
      '<div class="kifu-aids">' +
      '<label><input type="checkbox" data-aid="mvlight" checked> mvlight</label>' +
      '<label><input type="checkbox" data-aid="bwcolor"> bwcolor</label>' +
      '<label><input type="checkbox" data-aid="trace"> trace</label>' +
      '<label><input type="checkbox" data-aid="intl"' + (this.intl ? " checked" : "") +
      "> ABC</label>" +
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
    return [this.ply()].concat(choices).join(",");
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
    var h = "#ply=" + this.path() + (this.ri ? "&r=" + (this.ri + 1) : "");
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

  /* Footprints of the piece on bd index sq (1-based) from the cursor along the line. */
  Viewer.prototype.makeTrace = function (sq) {
    var nodes = this.rec.nodes, line = this.line(), at = line.indexOf(this.cur);
    var steps = [], end = null;
    for (var i = at + 1; i < line.length; i++) {
      var n = nodes[line[i]];
      if (!n.mv) { end = { ply: n.ply, why: "end" }; break; }
      if (n.from === sq) {
        var took = nodes[n.parent].bd[n.mv - 1] !== "o";
        steps.push({ sq: n.mv, ply: n.ply, capture: took });
        sq = n.mv;
      } else if (n.mv === sq) { end = { ply: n.ply, why: "captured", sq: sq }; break; }
    }
    return { start: this.cur, steps: steps, end: end };
  };

  Viewer.prototype.boardClick = function (e) {
    var svg = this.q(".kifu-svg svg");
    if (!svg) return;
    var t = e.target;
    if (t.getAttribute && t.getAttribute("data-side") !== null) { this.command("flip"); return; }
    var box = svg.getBoundingClientRect();
    var x = (e.clientX - box.left) * (svg.viewBox.baseVal.width / box.width);
    var y = (e.clientY - box.top) * (svg.viewBox.baseVal.height / box.height);
    var c = Math.floor((x - X0) / CELL), r = Math.floor((y - Y0) / CELL);
    if (this.tracing && c >= 0 && c < 9 && r >= 0 && r < 9) {
      var i = this.flip ? (8 - r) * 9 + (8 - c) : r * 9 + c;
      if (this.rec.nodes[this.cur].bd[i] !== "o") {
        this.trace = this.makeTrace(i + 1);
        this.render();
        return;
      }
    }
    // 電書 style: the left half goes back, the right half forward.
    this.command(x < svg.viewBox.baseVal.width / 2 ? "-1" : "1");
  };

  Viewer.prototype.sideName = function (color) {
    var names = this.rec.sides ||
      (this.intl ? ["Sente", "Gote"] : this.rec.words || ["先手", "後手"]);
    return (color ? "☖" : "☗") + names[color];
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

  /* The SVG of node n (also for the catalogue's small diagrams). */
  Viewer.prototype.svg = function (n, small) {
    var nodes = this.rec.nodes, node = nodes[n], flip = small ? false : this.flip;
    var W = X0 * 2 + CELL * 9 + 14, H = Y0 + CELL * 9 + 64;
    var s = '<svg xmlns="' + SVGNS + '" class="kifu-board" viewBox="0 0 ' + W + " " + H +
      '" data-node="' + n + '" data-ply="' + node.ply + '" data-bd="' + node.bd + '" data-cb="' +
      (node.cb || "") + '" data-cw="' + (node.cw || "") + '" data-turn="' + (node.turn || "b") +
      '" data-flip="' + (flip ? 1 : 0) + '" role="img" aria-label="' +
      esc(node.move || "開始局面") + '">';
    s += '<rect class="bg" x="' + X0 + '" y="' + Y0 + '" width="' + CELL * 9 + '" height="' +
      CELL * 9 + '"/>';
    var mv = this.mvlight && !small ? node.mv : 0, from = this.mvlight && !small ? node.from : 0;
    var foot = {}, caps = {};
    if (this.trace && this.trace.start === n) {
      this.trace.steps.forEach(function (st, k) { foot[st.sq] = k + 1; if (st.capture) caps[st.sq] = 1; });
      if (this.trace.end && this.trace.end.why === "captured") caps[this.trace.end.sq] = 1;
    }
    for (var i = 0; i < 81; i++) {
      var r = Math.floor(i / 9), c = i % 9, dr = flip ? 8 - r : r, dc = flip ? 8 - c : c;
      var x = X0 + dc * CELL, y = Y0 + dr * CELL, p = piece(node.bd[i]);
      var cls = i + 1 === mv ? "last" : i + 1 === from ? "last-from" :
        this.bwcolor && p ? (p.color ? "owner-w" : "owner-b") : "";
      if (cls) s += '<rect class="' + cls + '" x="' + x + '" y="' + y + '" width="' + CELL +
        '" height="' + CELL + '"/>';
      if (p && !this.hidden[BASE[p.kind]])
        s += this.pieceSvg(p, x + CELL / 2, y + CELL / 2, p.color !== (flip ? 1 : 0), i + 1,
          node.bd[i]);
      if (foot[i + 1]) s += '<circle class="foot" cx="' + (x + 8) + '" cy="' + (y + 8) +
        '" r="7"/><text class="foot-n" x="' + (x + 8) + '" y="' + (y + 8) + '">' + foot[i + 1] + "</text>";
      if (caps[i + 1]) s += '<rect class="capture" x="' + (x + 2) + '" y="' + (y + 2) +
        '" width="' + (CELL - 4) + '" height="' + (CELL - 4) + '"/>';
    }
    s += '<g class="grid">';
    for (var k = 1; k < 9; k++) {
      s += '<line x1="' + (X0 + k * CELL) + '" y1="' + Y0 + '" x2="' + (X0 + k * CELL) + '" y2="' +
        (Y0 + 9 * CELL) + '"/><line x1="' + X0 + '" y1="' + (Y0 + k * CELL) + '" x2="' +
        (X0 + 9 * CELL) + '" y2="' + (Y0 + k * CELL) + '"/>';
    }
    s += '</g><rect class="frame" x="' + X0 + '" y="' + Y0 + '" width="' + CELL * 9 +
      '" height="' + CELL * 9 + '"/>';
    [[3, 3], [3, 6], [6, 3], [6, 6]].forEach(function (d) {
      s += '<circle class="star" cx="' + (X0 + d[0] * CELL) + '" cy="' + (Y0 + d[1] * CELL) + '" r="2.5"/>';
    });
    for (k = 0; k < 9; k++) {
      var file = flip ? k + 1 : 9 - k, rank = flip ? 9 - k : k + 1;
      s += '<text class="label" x="' + (X0 + k * CELL + CELL / 2) + '" y="' + (Y0 - 10) + '">' +
        (this.intl ? String(file) : FILES.charAt(file - 1)) + "</text>";
      s += '<text class="label" x="' + (X0 + 9 * CELL + 9) + '" y="' + (Y0 + k * CELL + CELL / 2) +
        '">' + (this.intl ? "abcdefghi".charAt(rank - 1) : RANKS.charAt(rank - 1)) + "</text>";
    }
    var top = flip ? 0 : 1;
    s += this.handSvg(node, top, 22, small) + this.handSvg(node, 1 - top, Y0 + 9 * CELL + 22, small);
    if (this.pattern && this.matched[n] && !small)
      s += '<rect class="match-mark" x="' + (X0 - 3) + '" y="' + (Y0 - 3) + '" width="' +
        (CELL * 9 + 6) + '" height="' + (CELL * 9 + 6) + '"/>';
    if (!small) {
      var cap = this.intl ? (node.move ? "after " + node.ply + ". " + this.moveText(n) : "start")
        : node.move ? "図は" + node.move.replace(/\(\d+\)$/, "") + "まで" : "開始局面";
      s += '<text class="caption" x="' + W / 2 + '" y="' + (Y0 + 9 * CELL + 50) + '">' + esc(cap) + "</text>";
    }
    return s + "</svg>";
  };

  /* A piece as text centred on (cx, cy), turned when it points down the board; a
   * two-character name (成香) in two small lines. */
  Viewer.prototype.pieceSvg = function (p, cx, cy, down, sq, ch) {
    var name = this.intl ? INTL[p.kind] : this.twoChar ? KANJI2[p.kind] : KANJI[p.kind];
    var cls = "piece" + (p.kind >= 7 && p.kind < 13 ? " promoted" : "") + (this.intl ? " intl" : "");
    var turn = down ? ' transform="rotate(180 ' + cx + " " + cy + ')"' : "";
    var attrs = ' data-sq="' + sq + '" data-p="' + ch + '"';
    if (this.intl || name.length === 1)
      return '<text class="' + cls + '" x="' + cx + '" y="' + cy + '"' + attrs + turn + ">" +
        name + "</text>";
    return '<g' + attrs + turn + '><text class="' + cls + ' small" x="' + cx + '" y="' +
      (cy - 9) + '">' + name.charAt(0) + '</text><text class="' + cls + ' small" x="' + cx +
      '" y="' + (cy + 9) + '">' + name.charAt(1) + "</text></g>";
  };

  /* Text at (x, y), squeezed to max px when it would be wider (a full hand, a long
   * name), as svg.c does: a wide character is about 1 em, any other 0.6. */
  function fitted(cls, x, y, max, text, attrs) {
    var em = 0;
    for (var i = 0; i < text.length; i++) em += text.charCodeAt(i) >= 0x1100 ? 1 : 0.6;
    return '<text class="' + cls + '" x="' + x + '" y="' + y + '"' + (attrs || "") +
      (em * 16 > max ? ' textLength="' + max + '" lengthAdjust="spacingAndGlyphs"' : "") +
      ">" + esc(text) + "</text>";
  }

  Viewer.prototype.handSvg = function (node, color, y, small) {
    var counts = handCounts(color ? node.cw : node.cb), text = "";
    HAND_ORDER.forEach(function (k) {
      if (counts[k]) text += (text ? (this.intl ? " " : "　") : "") +
        (this.intl ? INTL[k] + (counts[k] > 1 ? counts[k] : "") : KANJI[k] + NUM[counts[k]]);
    }, this);
    var label = small ? (color ? "☖" : "☗") : this.sideName(color);
    var turn = (node.turn === "w" ? 1 : 0) === color ? " ◀" : "";
    var W = X0 * 2 + CELL * 9 + 14;
    return fitted("side", X0, y, 140, label + turn, ' data-side="' + color + '"') +
      fitted("hand", X0 + 150, y, W - X0 - 150 - 4,
        this.intl ? "In hand: " + (text || "none") : "持駒 " + (text || "なし"));
  };

  Viewer.prototype.render = function () {
    var nodes = this.rec.nodes, node = nodes[this.cur], self = this;
    if (this.trace && this.trace.start !== this.cur) this.trace = null;
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
          (forks ? '<span class="fork">+</span>' : "") + "</li>";
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
    this.q(".kifu-comment").innerHTML = linkify(note);
  };

  /* Comments may link to positions: "#ply=42" words become links. */
  function linkify(text) {
    return esc(text).replace(/#ply=([0-9,]+)/g, '<a href="#ply=$1">#ply=$1</a>');
  }

  /* ---- The page ---- */

  var viewers = [], active = null;

  function onHash(hash) {
    if (typeof hash !== "string") hash = location.hash;
    var m = /ply=([0-9,]+)/.exec(hash), r = /[&?]r=(\d+)/.exec(hash);
    if (!m) return;
    var ri = r ? +r[1] - 1 : 0, v = viewers[0];
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
