// embed_wasm.mjs - writes occ.wasm into a JavaScript file as base64, so the
// page loads libocc without fetch(): browsers refuse fetch() on file:// pages.
//   node embed_wasm.mjs IN.wasm OUT.js
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
    console.error('usage: node embed_wasm.mjs IN.wasm OUT.js');
    process.exit(2);
}
const base64 = readFileSync(input).toString('base64');
writeFileSync(output,
    '// Generated from occ.wasm by web/tools/embed_wasm.mjs; do not edit.\n' +
    `window.OCC_WASM_BASE64 = '${base64}';\n`);
