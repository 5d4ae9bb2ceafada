#!/usr/bin/env node
// The installed package's `blitz` (scripts/pack.mjs packs it). CommonJS in ES5 so that any
// Node reads it: on a Node that is too old it says which one it needs, never a syntax error.
'use strict';
var path = require('path');
var problem = require('./node-version.cjs').nodeVersionProblem(
  process.versions.node,
  require('../package.json').engines.node,
  process.execPath,
);
if (problem) {
  process.stderr.write('blitz: ' + problem + '\n');
  process.exit(1);
}
// Hidden from old parsers in a Function: `import()` is a syntax error before Node 12.
new Function('url', 'return import(url)')(require('url').pathToFileURL(path.join(__dirname, '..', 'dist', 'main.js')).href).catch(
  function (err) {
    process.stderr.write('blitz: ' + ((err && err.stack) || err) + '\n');
    process.exit(70);
  },
);
