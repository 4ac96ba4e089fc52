// read.mjs reads PGN files with four third-party PGN readers and prints,
// for each file and reader, what the reader made of it as JSON: whether
// it accepted the file, and for every game its tags, its moves (SAN and
// the comment after each) and its game comments. The Go side
// (pgnreaders.go) compares that with the journal the PGN was written
// from. Usage: node read.mjs FILE...
//
// With --schema SCHEMA DATA it validates the JSON file DATA against the
// JSON schema SCHEMA with ajv instead, and prints the errors.
import { readFileSync } from 'node:fs';
import { parsePgn, parseComment, startingPosition } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import { parse as mliebeltParse } from '@mliebelt/pgn-parser';
import { Chess } from 'chess.js';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const kevinludwig = require('pgn-parser');

const strip = (s) => (s ?? '').replace(/\s+/g, ' ').trim();

// Each reader returns [{tags, moves: [{san, comment, clk}], comments}], a
// game each (@mliebelt/pgn-parser's with its warnings, messages), or
// throws when it refuses the file.
const readers = {
  chessops(text) {
    const games = parsePgn(text);
    return games.map((g) => {
      const tags = Object.fromEntries(g.headers);
      const pos = startingPosition(g.headers).unwrap();
      const moves = [];
      for (const node of g.moves.mainline()) {
        const move = parseSan(pos, node.san);
        if (!move) throw new Error(`illegal move ${node.san}`);
        pos.play(move);
        const comment = strip((node.comments ?? []).join(' '));
        if ((node.comments ?? []).length > 1) throw new Error(`two comments after ${node.san}`);
        const c = parseComment(comment);
        moves.push({ san: node.san, comment, clk: c.clock, emt: c.emt });
      }
      return { tags, moves, comments: (g.comments ?? []).map(strip) };
    });
  },
  mliebelt(text) {
    const games = mliebeltParse(text, { startRule: 'games' });
    return games.map((g) => {
      const tags = {};
      for (const [k, v] of Object.entries(g.tags ?? {})) {
        if (k === 'messages') continue;
        tags[k] = typeof v === 'string' ? v : v.value ?? JSON.stringify(v);
      }
      // It takes [%clk], [%egt] and [%emt] out of the comment (commentDiag).
      const moves = g.moves.map((m) => ({
        san: m.notation.notation,
        comment: strip(m.commentAfter),
        clk: m.commentDiag?.clk,
        egt: m.commentDiag?.egt,
        emt: m.commentDiag?.emt,
      }));
      const comments = g.gameComment ? [strip(g.gameComment.comment)] : [];
      const messages = (g.messages ?? []).map((m) => ({ key: m.key ?? '', message: m.message }));
      return { tags, moves, comments, messages };
    });
  },
  'pgn-parser'(text) {
    const games = kevinludwig.parse(text);
    return games.map((g) => {
      const tags = Object.fromEntries((g.headers ?? []).map((h) => [h.name, h.value]));
      const moves = (g.moves ?? []).map((m) => ({
        san: m.move,
        comment: strip((m.comments ?? []).map((c) => c.text).join(' ')),
      }));
      const comments = (g.comments ?? []).map((c) => strip(c.text ?? c));
      if (g.comments_above_header) comments.unshift(...[].concat(g.comments_above_header).map((c) => strip(c.text ?? c)));
      return { tags, moves, comments, result: g.result };
    });
  },
  'chess.js'(text) {
    // chess.js reads one game at a time: split at a tag after a blank line.
    return text
      .split(/\n\s*\n(?=\[)/)
      .filter((s) => s.trim() !== '')
      .map((one) => {
        const chess = new Chess();
        chess.loadPgn(one, { strict: false });
        const comments = chess.getComments();
        const byFen = new Map(comments.map((c) => [c.fen, c.comment]));
        const start = new Chess();
        const game = [];
        if (byFen.has(start.fen())) game.push(strip(byFen.get(start.fen())));
        const moves = [];
        for (const m of chess.history({ verbose: true })) {
          moves.push({ san: m.san, comment: strip(byFen.get(m.after)) });
        }
        return { tags: chess.getHeaders(), moves, comments: game };
      });
  },
};

const args = process.argv.slice(2);
if (args[0] === '--schema') {
  const { default: Ajv } = await import('ajv');
  const ajv = new Ajv({ allErrors: true, strict: false });
  const schema = JSON.parse(readFileSync(args[1], 'utf8'));
  const validate = ajv.compile(schema);
  const data = JSON.parse(readFileSync(args[2], 'utf8'));
  const ok = validate(data);
  console.log(JSON.stringify({ ok, errors: validate.errors ?? [] }));
  process.exit(0);
}
const out = [];
for (const file of args) {
  const text = readFileSync(file, 'utf8');
  const results = {};
  for (const [name, read] of Object.entries(readers)) {
    try {
      results[name] = { ok: true, games: read(text) };
    } catch (e) {
      results[name] = { ok: false, error: String(e && e.message ? e.message : e).slice(0, 500) };
    }
  }
  out.push({ file, readers: results });
}
console.log(JSON.stringify(out));
