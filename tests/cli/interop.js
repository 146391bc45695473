// interop.js: what another program makes of a record kifu wrote: its main line as USI
// moves and who won. Usage: node interop.js MODULES_DIR FORMAT FILE [FORMAT FILE ...]
// (one process for all the files of a record: the peers load once). Each line is
// prefixed with its FORMAT and a tab.
//   FORMAT kif|kifu|ki2|ki2u|csa|jkf: FILE is read by json-kifu-format and by tsshogi, one
//   line each: "PEER: MOVES | RESULT | NOTES" (or "PEER: error: TEXT");
//   FORMAT ref: FILE is kifu's own JKF of the record, read as JSON with no peer: the line
//   the peers' lines must equal ("ref: MOVES | RESULT"); ref-ki2: the same for a KI2, where
//   the ending's comments stand before the まで line and so belong to the last move.
// RESULT is sente, gote, draw or none, from the ending and the side to move there; NOTES
// the main line's move comments, joined by '/'.
'use strict';
const fs = require('fs');
const path = require('path');

const [modules, ...pairs] = process.argv.slice(2);

function load(name) {
  return require(path.join(modules, 'node_modules', name));
}

const KINDS = { FU: 'P', KY: 'L', KE: 'N', GI: 'S', KI: 'G', KA: 'B', HI: 'R' };
const sq = (p) => `${p.x}${'abcdefghi'[p.y - 1]}`;

// The main line of a JKF object as a line of text. endingNotes: the first ending's
// comments count as the move comments they become in KI2 (written before the まで line).
function line(jkf, endingNotes) {
  const moves = [];
  const notes = [];
  let special = null;
  let color = jkf.initial && jkf.initial.data ? jkf.initial.data.color : 0;
  const preset = jkf.initial ? jkf.initial.preset : 'HIRATE';
  if (preset && preset !== 'HIRATE' && preset !== 'OTHER') color = 1; // handicaps: gote first
  for (const e of jkf.moves || []) {
    if (e.special) {
      if (endingNotes && !special)
        for (const c of e.comments || []) if (!c.startsWith('&')) notes.push(c.replace(/^\*+/, ''));
      special = special || e.special;
      continue;
    }
    if (!e.move || special) continue;
    // Bookmarks (&name) are comments to json-kifu-format and not to tsshogi, and
    // json-kifu-format keeps the star of a CSA '*comment: compared without either.
    for (const c of e.comments || []) if (!c.startsWith('&')) notes.push(c.replace(/^\*+/, ''));
    const m = e.move;
    moves.push(m.from ? `${sq(m.from)}${sq(m.to)}${m.promote ? '+' : ''}` : `${KINDS[m.piece]}*${sq(m.to)}`);
  }
  const toMove = (color + moves.length) % 2; // 0: sente to move at the ending
  const other = ['sente', 'gote'];
  let result = 'none';
  switch (special) {
    case 'TORYO':
    case 'TSUMI':
    case 'TIME_UP':
    case 'ILLEGAL_MOVE':
      result = other[1 - toMove];
      break;
    case 'KACHI':
      result = other[toMove];
      break;
    case '+ILLEGAL_ACTION':
      result = 'gote';
      break;
    case '-ILLEGAL_ACTION':
      result = 'sente';
      break;
    case 'SENNICHITE':
    case 'JISHOGI':
    case 'HIKIWAKE':
      result = 'draw';
      break;
    default:
      result = 'none';
  }
  return `${moves.join(' ')} | ${result} | ${notes.join('/')}`;
}

// The peers' readers by format; each returns a JKF object.
const readers = {
  'json-kifu-format': (base, text) => {
    const { JKFPlayer } = load('json-kifu-format');
    const parse = { kif: JKFPlayer.parseKIF, ki2: JKFPlayer.parseKI2, csa: JKFPlayer.parseCSA, jkf: JKFPlayer.parseJKF }[base];
    return parse.call(JKFPlayer, text).kifu;
  },
  tsshogi: (base, text) => {
    const t = load('tsshogi');
    const imp = { kif: t.importKIF, ki2: t.importKI2, csa: t.importCSA, jkf: t.importJKFString }[base];
    const r = imp(text);
    if (r instanceof Error) throw r;
    return JSON.parse(t.exportJKFString(r));
  },
};

for (let i = 0; i + 1 < pairs.length; i += 2) {
  const [format, file] = [pairs[i], pairs[i + 1]];
  // kifu writes KIF and KI2 in CP932 (Shift_JIS), the others in UTF-8.
  const text = new TextDecoder(format === 'kif' || format === 'ki2' ? 'shift_jis' : 'utf-8').decode(fs.readFileSync(file));
  if (format === 'ref' || format === 'ref-ki2') {
    console.log(`${format}\tref: ${line(JSON.parse(text), format === 'ref-ki2')}`);
    continue;
  }
  const base = format.replace(/u$/, ''); // kifu, ki2u: the same text as kif, ki2
  for (const [name, read] of Object.entries(readers)) {
    try {
      console.log(`${format}\t${name}: ${line(read(base, text))}`);
    } catch (e) {
      console.log(`${format}\t${name}: error: ${String(e && e.message ? e.message : e).replace(/\s+/g, ' ').slice(0, 200)}`);
    }
  }
}
