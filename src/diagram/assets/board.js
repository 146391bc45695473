/* board.js: a shogi position drawn as SVG, for kifu's pages (the replay page of `kifu
 * html`; any page that embeds the board). Written for kifu, no library: it knows the
 * letters of the position-list format (seeds/002: bd, cb, cw) and nothing of records or
 * cursors, so every page that shows a position draws it with the same code.
 *
 *   KifuBoard.svg({bd, cb, cw, turn, ply, move}, options) -> SVG text
 *
 * Piece styles: "koma" (the default: each piece a wooden pentagon with its name, pointing
 * at the other side, so gote's are turned; drawn here as a path, no image or font from
 * elsewhere), "plain" (the name alone on its square), and either with the international
 * names (intl: P L N S G B R K, +P). */
(function (global) {
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
  // The board's geometry in SVG units: a square is CELL, the grid starts at (X0, Y0).
  var CELL = 40, X0 = 12, Y0 = 64, W = X0 * 2 + CELL * 9 + 14, H = Y0 + CELL * 9 + 64;
  var SVGNS = "http://www.w3.org/2000/svg";
  // A piece's size by its base kind, as a set of koma is cut: the king largest, the
  // pawn smallest (歩 香 桂 銀 金 角 飛 … 玉).
  var KOMA_SCALE = [0.84, 0.87, 0.89, 0.92, 0.92, 0.96, 0.96, 0, 0, 0, 0, 0, 0, 1];

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
  function num(v) { return String(Math.round(v * 10) / 10); }

  /* The pentagon of a koma of base kind k centred on (cx, cy), pointing up: the apex,
   * the shoulders, and the base a little wider than them. */
  function komaPath(cx, cy, k) {
    var s = KOMA_SCALE[k] || 0.9, top = cy - 17.5 * s, sh = cy - 11 * s, bot = cy + 17 * s;
    return "M" + num(cx) + " " + num(top) + "L" + num(cx + 13 * s) + " " + num(sh) + "L" +
      num(cx + 15.5 * s) + " " + num(bot) + "L" + num(cx - 15.5 * s) + " " + num(bot) + "L" +
      num(cx - 13 * s) + " " + num(sh) + "Z";
  }

  /* A piece on (cx, cy), turned when it points down the board; o.style "koma" or
   * "plain", o.intl, o.twoChar. The group carries the square (data-sq, 1-based bd
   * index) and the letter (data-p). */
  function pieceSvg(p, cx, cy, down, sq, ch, o) {
    var koma = o.style !== "plain";
    var name = o.intl ? INTL[p.kind] : o.twoChar ? KANJI2[p.kind] : KANJI[p.kind];
    var promoted = p.kind >= 7 && p.kind < 13;
    var cls = "piece" + (promoted ? " promoted" : "") + (o.intl ? " intl" : "") +
      (koma ? " on-koma" : "");
    var turn = down ? ' transform="rotate(180 ' + cx + " " + cy + ')"' : "";
    var s = '<g class="' + (koma ? "koma-piece" : "plain-piece") + (p.color ? " gote" : " sente") +
      '" data-sq="' + sq + '" data-p="' + ch + '"' + turn + ">";
    // The name sits a little low on a koma, where the pentagon is widest.
    var ty = koma ? cy + 1.5 * (KOMA_SCALE[BASE[p.kind]] || 1) : cy;
    if (koma) s += '<path class="koma" d="' + komaPath(cx, cy, BASE[p.kind]) + '"/>';
    if (o.intl || name.length === 1)
      s += '<text class="' + cls + (koma && BASE[p.kind] === 0 ? " pawn" : "") + '" x="' + cx +
        '" y="' + ty + '">' + name + "</text>";
    else
      s += '<text class="' + cls + ' small" x="' + cx + '" y="' + (ty - 8) + '">' +
        name.charAt(0) + '</text><text class="' + cls + ' small" x="' + cx + '" y="' +
        (ty + 8) + '">' + name.charAt(1) + "</text>";
    return s + "</g>";
  }

  /* Text at (x, y), squeezed to max px when it would be wider (a full hand, a long
   * name), as svg.c does: a wide character is about 1 em, any other 0.6. */
  function fitted(cls, x, y, max, text, attrs) {
    var em = 0;
    for (var i = 0; i < text.length; i++) em += text.charCodeAt(i) >= 0x1100 ? 1 : 0.6;
    return '<text class="' + cls + '" x="' + x + '" y="' + y + '"' + (attrs || "") +
      (em * 16 > max ? ' textLength="' + max + '" lengthAdjust="spacingAndGlyphs"' : "") +
      ">" + esc(text) + "</text>";
  }

  function handSvg(node, color, y, o) {
    var counts = handCounts(color ? node.cw : node.cb), text = "";
    HAND_ORDER.forEach(function (k) {
      if (counts[k]) text += (text ? (o.intl ? " " : "　") : "") +
        (o.intl ? INTL[k] + (counts[k] > 1 ? counts[k] : "") : KANJI[k] + NUM[counts[k]]);
    });
    var names = o.sides || (o.intl ? ["Sente", "Gote"] : ["先手", "後手"]);
    var label = o.small ? (color ? "☖" : "☗") : (color ? "☖" : "☗") + names[color];
    var turn = (node.turn === "w" ? 1 : 0) === color ? " ◀" : "";
    return fitted("side", X0, y, 140, label + turn, ' data-side="' + color + '"') +
      fitted("hand", X0 + 150, y, W - X0 - 150 - 4,
        o.intl ? "In hand: " + (text || "none") : "持駒 " + (text || "なし"));
  }

  /* The SVG of a position. node: {bd, cb, cw, turn, ply, move}. o (all optional):
   *   style "koma" | "plain", intl, twoChar, flip, small (a catalogue's diagram: no
   *   caption), sides [sente's name, gote's], hidden {base kind: true} (filter),
   *   bwcolor, last / from (1-based bd squares of the last move), caption (text under
   *   the board), id (data-node),
   *   foot {square: step number}, caps {square: 1} (a trace's footprints and captures),
   *   at (the traced piece's square now), matchSq {square: 1} (squares a pattern fixed),
   *   matchFrame (the whole board matched). */
  function svg(node, o) {
    o = o || {};
    var flip = !!o.flip, foot = o.foot || {}, caps = o.caps || {}, msq = o.matchSq || {};
    var hidden = o.hidden || {};
    var s = '<svg xmlns="' + SVGNS + '" class="kifu-board pieces-' +
      (o.style === "plain" ? "plain" : "koma") + '" viewBox="0 0 ' + W + " " + H +
      '" data-node="' + (o.id === undefined ? "" : o.id) + '" data-ply="' + (node.ply || 0) +
      '" data-bd="' + node.bd + '" data-cb="' + esc(node.cb || "") + '" data-cw="' +
      esc(node.cw || "") + '" data-turn="' + (node.turn === "w" ? "w" : "b") +
      '" data-flip="' + (flip ? 1 : 0) + '" role="img" aria-label="' +
      esc(node.move || "開始局面") + '">';
    s += '<rect class="bg" x="' + X0 + '" y="' + Y0 + '" width="' + CELL * 9 + '" height="' +
      CELL * 9 + '"/>';
    var pieces = "";
    for (var i = 0; i < 81; i++) {
      var r = Math.floor(i / 9), c = i % 9, dr = flip ? 8 - r : r, dc = flip ? 8 - c : c;
      var x = X0 + dc * CELL, y = Y0 + dr * CELL, p = piece(node.bd[i]), sq = i + 1;
      var cls = sq === o.last ? "last" : sq === o.from ? "last-from" :
        o.bwcolor && p ? (p.color ? "owner-w" : "owner-b") : "";
      if (cls) s += '<rect class="' + cls + '" x="' + x + '" y="' + y + '" width="' + CELL +
        '" height="' + CELL + '"/>';
      if (foot[sq] && sq !== o.at) s += '<rect class="foot-sq" x="' + x + '" y="' + y +
        '" width="' + CELL + '" height="' + CELL + '"/>';
      if (sq === o.at) s += '<rect class="trace-at" x="' + (x + 1) + '" y="' + (y + 1) +
        '" width="' + (CELL - 2) + '" height="' + (CELL - 2) + '"/>';
      if (p && !hidden[BASE[p.kind]])
        pieces += pieceSvg(p, x + CELL / 2, y + CELL / 2, p.color !== (flip ? 1 : 0), sq,
          node.bd[i], o);
      // A pattern's squares, footprints and captures above the pieces (a koma covers
      // most of its square), see-through or in a corner, so both stay readable.
      if (msq[sq]) pieces += '<rect class="match-sq" data-msq="' + sq + '" x="' + (x + 2) +
        '" y="' + (y + 2) + '" width="' + (CELL - 4) + '" height="' + (CELL - 4) + '"/>';
      if (foot[sq]) pieces += '<circle class="foot" data-fsq="' + sq + '" cx="' + (x + 8) +
        '" cy="' + (y + 8) + '" r="7"/><text class="foot-n" x="' + (x + 8) + '" y="' +
        (y + 8) + '">' + foot[sq] + "</text>";
      if (caps[sq]) pieces += '<rect class="capture" x="' + (x + 2) + '" y="' + (y + 2) +
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
    s += pieces;
    for (k = 0; k < 9; k++) {
      var file = flip ? k + 1 : 9 - k, rank = flip ? 9 - k : k + 1;
      s += '<text class="label" x="' + (X0 + k * CELL + CELL / 2) + '" y="' + (Y0 - 10) + '">' +
        (o.intl ? String(file) : FILES.charAt(file - 1)) + "</text>";
      s += '<text class="label" x="' + (X0 + 9 * CELL + 9) + '" y="' + (Y0 + k * CELL + CELL / 2) +
        '">' + (o.intl ? "abcdefghi".charAt(rank - 1) : RANKS.charAt(rank - 1)) + "</text>";
    }
    var top = flip ? 0 : 1;
    s += handSvg(node, top, 22, o) + handSvg(node, 1 - top, Y0 + 9 * CELL + 22, o);
    if (o.matchFrame)
      s += '<rect class="match-mark" x="' + (X0 - 3) + '" y="' + (Y0 - 3) + '" width="' +
        (CELL * 9 + 6) + '" height="' + (CELL * 9 + 6) + '"/>';
    if (o.caption !== undefined && !o.small)
      s += '<text class="caption" x="' + W / 2 + '" y="' + (Y0 + 9 * CELL + 50) + '">' +
        esc(o.caption) + "</text>";
    return s + "</svg>";
  }

  /* The square (1-based bd index) under a point of a drawn board, or 0; for clicks. */
  function squareAt(svgEl, clientX, clientY, flip) {
    var box = svgEl.getBoundingClientRect();
    var x = (clientX - box.left) * (W / box.width), y = (clientY - box.top) * (H / box.height);
    var c = Math.floor((x - X0) / CELL), r = Math.floor((y - Y0) / CELL);
    if (c < 0 || c > 8 || r < 0 || r > 8) return 0;
    return (flip ? (8 - r) * 9 + (8 - c) : r * 9 + c) + 1;
  }

  global.KifuBoard = {
    svg: svg, piece: piece, letter: letter, esc: esc, handCounts: handCounts,
    squareAt: squareAt, komaPath: komaPath,
    SENTE: SENTE, KANJI: KANJI, INTL: INTL, BASE: BASE, WIDTH: W, HEIGHT: H
  };
})(window);
