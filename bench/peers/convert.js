// convert.js: times the JavaScript peers on the same conversion kifu_bench measures:
// decode the file's bytes, parse and normalize, write JKF (JSON text), for every file of a
// list. Usage: node convert.js MODULES_DIR FORMAT(csa|kif|ki2) RUNS LISTFILE [--check OUT]
//              [--only PEER] [--warm N]
// --only times one peer; --warm N warms the JIT on the first N files only (default: all),
// for lists too long to go through twice.
// With --check it times nothing: it writes to OUT the files that every peer converts
// (a file a peer rejects would make it look faster, having done less) and prints
// {"checked", "accepted", "errors": {peer: first error}}.
// Prints one JSON line per peer: {"peer", "format", "files", "bytes", "failed",
// "seconds": [wall time per run], "cpu": [process CPU time per run], "error"?}. The files are read before timing starts,
// and one untimed pass warms the JIT.
'use strict';
const fs = require('fs');
const path = require('path');

const [modules, format, runsArg, listFile] = process.argv.slice(2);
const runs = Math.max(1, parseInt(runsArg, 10) || 3);
const files = fs.readFileSync(listFile, 'utf8').split('\n').filter((s) => s);
const bufs = files.map((f) => fs.readFileSync(f));
const bytes = bufs.reduce((n, b) => n + b.length, 0);
const opt = (name) => {
  const i = process.argv.indexOf(name, 6);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const only = opt('--only');
const warm = opt('--warm') === undefined ? bufs.length : parseInt(opt('--warm'), 10);

// kifu writes CSA in UTF-8 and KIF/KI2 in CP932 (Shift_JIS), as the tools do by default.
const sjis = new TextDecoder('shift_jis');
const utf8 = new TextDecoder('utf-8');
const decode = format === 'csa' ? (b) => utf8.decode(b) : (b) => sjis.decode(b);

function load(name) {
  return require(path.join(modules, 'node_modules', name));
}

const peers = [
  {
    name: 'json-kifu-format',
    make() {
      const { JKFPlayer } = load('json-kifu-format');
      const parse = { csa: JKFPlayer.parseCSA, kif: JKFPlayer.parseKIF, ki2: JKFPlayer.parseKI2 }[format];
      return (text) => JSON.stringify(parse.call(JKFPlayer, text).kifu);
    },
  },
  {
    name: 'tsshogi',
    make() {
      const t = load('tsshogi');
      const imp = { csa: t.importCSA, kif: t.importKIF, ki2: t.importKI2 }[format];
      return (text) => {
        const r = imp(text);
        if (r instanceof Error) throw r;
        return t.exportJKFString(r);
      };
    },
  },
];

if (process.argv[6] === '--check') {
  const convs = peers.map((p) => {
    try {
      return p.make();
    } catch (e) {
      return null;
    }
  });
  const errors = {};
  const good = [];
  files.forEach((f, i) => {
    let ok = true;
    convs.forEach((c, k) => {
      if (!c) return;
      try {
        c(decode(bufs[i]));
      } catch (e) {
        ok = false;
        const name = peers[k].name;
        if (!errors[name]) errors[name] = `${path.basename(f)}: ${String(e && e.message ? e.message : e).slice(0, 160)}`;
      }
    });
    if (ok) good.push(f);
  });
  fs.writeFileSync(process.argv[7], good.map((f) => f + '\n').join(''));
  console.log(JSON.stringify({ checked: files.length, accepted: good.length, errors }));
  process.exit(0);
}

for (const peer of peers) {
  if (only && peer.name !== only) continue;
  const out = { peer: peer.name, format, files: files.length, bytes, failed: 0, seconds: [], cpu: [] };
  let convert;
  try {
    convert = peer.make();
  } catch (e) {
    out.error = String(e && e.message ? e.message : e);
    console.log(JSON.stringify(out));
    continue;
  }
  // One untimed pass first, as kifu_bench does for itself: the JIT warms up.
  for (const b of bufs.slice(0, warm)) {
    try {
      convert(decode(b));
    } catch (e) {
      // counted in the timed runs
    }
  }
  for (let run = 0; run < runs; run++) {
    let failed = 0;
    let sink = 0;
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (const b of bufs) {
      try {
        sink += convert(decode(b)).length;
      } catch (e) {
        failed++;
        if (!out.error) out.error = String(e && e.message ? e.message : e).slice(0, 200);
      }
    }
    const t1 = process.hrtime.bigint();
    const c1 = process.cpuUsage(c0);
    out.seconds.push(Number(t1 - t0) / 1e9);
    out.cpu.push((c1.user + c1.system) / 1e6);
    out.failed = failed;
    if (sink < 0) console.error(sink); // keeps the output from being optimized away
  }
  console.log(JSON.stringify(out));
}
