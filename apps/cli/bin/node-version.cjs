// Which Node this Blitz needs, checked before any of Blitz is loaded. Plain ES5 and CommonJS
// on purpose: an old Node must be able to read this file to say what it lacks.
'use strict';

/** The lowest version a `>=X.Y.Z` range allows, as [major, minor, patch]. */
function lowest(range) {
  var match = /^\s*>=\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(range);
  if (!match) throw new Error('engines.node must read ">=X.Y.Z", not ' + JSON.stringify(range));
  return [Number(match[1]), Number(match[2] || 0), Number(match[3] || 0)];
}

/** Undefined when `current` (e.g. "20.18.1") satisfies `range`; otherwise what to tell the user. */
function nodeVersionProblem(current, range, execPath) {
  var need = lowest(range);
  var have = String(current).replace(/^v/, '').split('.').map(Number);
  for (var i = 0; i < 3; i++) {
    if ((have[i] || 0) > need[i]) return undefined;
    if ((have[i] || 0) < need[i]) {
      return (
        'Blitz needs Node.js ' +
        need.join('.') +
        ' or newer, and this is Node.js ' +
        current +
        (execPath ? ' (' + execPath + ')' : '') +
        '. Install a newer Node.js (https://nodejs.org) and run blitz again.'
      );
    }
  }
  return undefined;
}

module.exports = { nodeVersionProblem: nodeVersionProblem };
