#!/usr/bin/env node
console.log('blitz');
